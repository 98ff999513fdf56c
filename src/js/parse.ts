import type { ParseResult, ParserOptions, ParserPlugin } from '@babel/parser';
import type { File } from '@babel/types';
import type { P } from './ast.js';
import path from 'node:path';
import { NodePath } from './path.js';
import { lazy, requireDependency } from '../util/lazy.js';

const { parse: babelParse }: typeof import('@babel/parser') = requireDependency('@babel/parser');

export { JS_EXTENSIONS, isJsFile } from '../scan/kinds.js';

const COMMON: ParserPlugin[] = [
  'decorators-legacy',
  'classProperties',
  'classPrivateProperties',
  'classPrivateMethods',
  'dynamicImport',
  'importAttributes',
  'explicitResourceManagement',
  'topLevelAwait',
];

function pluginsFor(file: string): ParserPlugin[] {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.ts' || ext === '.mts' || ext === '.cts') return [...COMMON, 'typescript'];
  if (ext === '.tsx') return [...COMMON, 'typescript', 'jsx'];
  return [...COMMON, 'jsx'];
}

/** A parser object (jscodeshift's shape) using @babel/parser 7 with plugins chosen by file extension. */
export function parserFor(file: string, startIndex = 0): { parse(source: string): ParseResult<File> } {
  const options: ParserOptions = {
    // Offsets of every file of a project live in one coordinate space (see project.ts). Without an
    // explicit startColumn, Babel counts first-line columns from the start index.
    startIndex,
    startColumn: 0,
    sourceType: 'unambiguous',
    allowImportExportEverywhere: true,
    allowReturnOutsideFunction: true,
    allowAwaitOutsideFunction: true,
    allowNewTargetOutsideFunction: true,
    allowUndeclaredExports: true,
    startLine: 1,
    tokens: false,
    // Comments are never read from nodes (markers are found in the text), so Babel need not attach them.
    attachComment: false,
    plugins: pluginsFor(file),
  };
  return { parse: (source: string) => babelParse(source, options) };
}

export interface Parsed {
  /** The path of the File node. */
  root: P<File>;
}

/**
 * Parse for transformation. Throws on syntax errors.
 *
 * The AST comes straight from @babel/parser, not through recast: the engine edits the source by
 * exact splices at node offsets and never reprints, and recast parses a copy of the source with tabs
 * expanded and line endings normalised, so its offsets are wrong for files indented with tabs or
 * ending lines with CRLF.
 */
export function parseForTransform(source: string, file: string, startIndex = 0): Parsed {
  return { root: new NodePath(parserFor(file, startIndex).parse(source)) };
}

type OxcParse = typeof import('oxc-parser').parseSync;

/** oxc's parser (native), or null where its binary is not installed (an unusual platform). */
const oxcParse = lazy((): OxcParse | null => {
  try {
    return (requireDependency('oxc-parser') as typeof import('oxc-parser')).parseSync;
  } catch {
    return null;
  }
});

/**
 * Syntax check of produced output, independent of recast. Returns the error message or null.
 *
 * Every rewritten file is checked, so this is a parse of most of what a batch run changes. oxc's
 * native parser says in a fraction of Babel's time that a file parses; only a file it rejects is
 * parsed by Babel, whose verdict (with the options the input was parsed with: a top-level return, JSX
 * in .js) is the answer. oxc's semantic errors are on because Babel also rejects a redeclared
 * binding, a duplicate label or a stray break, which oxc's syntax pass alone lets through.
 */
export function syntaxError(source: string, file: string): string | null {
  const oxc = oxcParse();
  if (oxc) {
    const ts = /\.[cm]?tsx?$/i.test(file);
    const lang = ts ? (/x$/i.test(file) ? 'tsx' : 'ts') : 'jsx';
    if (!oxc(file, source, { lang, sourceType: 'unambiguous', showSemanticErrors: true }).errors.length) return null;
  }
  try {
    parserFor(file).parse(source);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
