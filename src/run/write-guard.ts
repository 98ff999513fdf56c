import fs from 'node:fs';
import path from 'node:path';
import { isAtOrBelow, workTreeRoot } from '../util/folders.js';

/**
 * Where the tool may write or delete. A repository is untrusted input: a path it supplies (a journal
 * entry, a config's adapter file) or a folder of it that a write goes through (a committed symlink)
 * must not lead a write out of the tree, into `.git`, or through a symbolic link.
 */
export interface WritePlace {
  /** The folder, as the run names it. */
  root: string;
  /** Its real path (symbolic links resolved). */
  realRoot: string;
  /**
   * `tree`: every path must resolve inside the root, outside `.git`, and not be a symbolic link (what
   * the tool chooses or the repository names). `named`: a path the user named on the command line (an
   * output file, the cache folder): anywhere outside the root, but one named inside it must stay
   * inside by those same rules, so the repository cannot redirect it.
   */
  kind: 'tree' | 'named';
}

/** The folder a run writes in: the git work tree of `cwd`, or `cwd` outside git. */
export const writeRoot = (cwd: string): string => workTreeRoot(cwd) ?? cwd;

export const treePlace = (root: string): WritePlace => ({ root, realRoot: realPathOf(root) ?? root, kind: 'tree' });
export const namedPlace = (root: string): WritePlace => ({ ...treePlace(root), kind: 'named' });

/** A write or a delete the guard refused: the message names the path and says why, on one line. */
export class WriteRefused extends Error {
  readonly code = 'EREFUSED';
}

/** Why the tool may not write or delete `target` in `place`, or null when it may. */
export function writeRefusal(target: string, place: WritePlace): string | null {
  const lexical = path.resolve(target);
  if (place.kind === 'named' && !isAtOrBelow(place.root, lexical) && !isAtOrBelow(place.realRoot, lexical)) return null;
  if (fs.lstatSync(lexical, { throwIfNoEntry: false })?.isSymbolicLink()) return `is a symbolic link (to ${fs.readlinkSync(lexical)}), and v2-migrate never writes through one`;
  const real = realPathOf(lexical);
  if (real === null) return 'cannot be resolved (a symbolic link on the way leads nowhere, or a folder on the way cannot be read)';
  if (!isAtOrBelow(place.realRoot, real)) return `resolves outside ${place.root}${real === lexical ? '' : ` (to ${real})`}`;
  if (path.relative(place.realRoot, real).split(path.sep).some((part) => part.toLowerCase() === '.git')) return 'is inside .git';
  return null;
}

/** Throw WriteRefused unless the tool may write or delete `target` in `place`. */
export function guardWrite(target: string, place: WritePlace): void {
  const why = writeRefusal(target, place);
  if (why) throw new WriteRefused(`${target} ${why}`);
}

/**
 * The real path of `target`, which need not exist: that of its nearest existing ancestor with the
 * rest appended. Null when an existing part cannot be resolved (a dangling link, a loop, no access).
 */
function realPathOf(target: string): string | null {
  const rest: string[] = [];
  for (let dir = target; ; dir = path.dirname(dir)) {
    try {
      return path.join(fs.realpathSync(dir), ...rest);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT' || fs.lstatSync(dir, { throwIfNoEntry: false }) || path.dirname(dir) === dir) return null;
    }
    rest.unshift(path.basename(dir));
  }
}

/** The `code` of a Node system error (ENOENT, EEXIST, …). */
export const errnoCode = (error: unknown): string | undefined => (error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined);
