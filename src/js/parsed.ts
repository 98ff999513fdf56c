import type { P, t } from './ast.js';

/**
 * A parsed file as the engine holds it. Its own module so that the declarations of the modules that
 * hold one (and the package's published types) do not load Babel's parser, which is bundled, not
 * installed (its node types, @babel/types, are installed).
 */
export interface Parsed {
  /** The path of the File node. */
  root: P<t.File>;
}
