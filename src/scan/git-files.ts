import fs from 'node:fs';
import path from 'node:path';
import { gitEntries } from '../run/git-command.js';

/** What git lists below a folder of a work tree, beyond the files it hands over one by one. */
export interface GitListing {
  /** Folders git could not open (absolute): what is untracked in them is unknown. */
  unreadable: string[];
}

/** A submodule's entry in the index. */
const GITLINK_MODE = '160000';
/** A regular file's entries (not a symbolic link's, 120000). */
const REGULAR_MODES = ['100644 ', '100755 '];
/** `ls-files -t`: a tracked file outside a sparse checkout (not on disk). */
const SKIP_WORKTREE = 'S';
/** `ls-files -t -d`: a tracked file deleted from the work tree, printed right after its entry. */
const DELETED = 'R';
/** An index entry is `<tag> <mode> <object> <stage>\t<path>`. */
const pathOf = (entry: string): string => entry.slice(entry.indexOf('\t') + 1);
const UNREADABLE = /^warning: could not open directory '(.*)\/': Permission denied$/gm;

/**
 * Git's list of the files below `dir` (inside the work tree whose root is `top`), each handed to
 * `onFile` as git prints it (relative, with '/'), so the caller starts on them while git goes on.
 * `tracked`: a regular file that the index of the repository at `dir` itself tracks, one `git grep`
 * there reads. The files are the tracked ones still on disk (ignore rules do not apply to them: a
 * generated client added with `git add -f` is listed) and the untracked ones git does not ignore;
 * those of a nested repository or a checked-out submodule are listed by that repository. Null when
 * git cannot list (not installed, a repository it refuses): the caller walks instead, and drops what
 * it was handed.
 *
 * Two `ls-files` run at the same time per repository: the index, each entry with its mode (to tell
 * submodules and symbolic links) and the deleted ones tagged (git checks each on disk); and the
 * untracked files. `neverEntered`: folder names whose untracked files are not even listed (node_modules).
 */
export async function gitListing(dir: string, top: string, neverEntered: readonly string[], onFile: (file: string, tracked: boolean) => void): Promise<GitListing | null> {
  const run: Run = { neverEntered, unreadable: [], hand: onFile };
  return (await listRepository(dir, top, '', run)) ? { unreadable: run.unreadable } : null;
}

/**
 * The two questions a listing asks git in a folder: the index (each entry with its mode, to tell
 * submodules and symbolic links, and the deleted ones tagged: git checks each on disk), and the
 * untracked files git does not ignore, never entering folders named `neverEntered`.
 */
export const listingCommands = (neverEntered: readonly string[]): { index: string[]; others: string[] } => ({
  index: ['ls-files', '-z', '-t', '-s', '-d'],
  others: ['ls-files', '-z', '-o', '--exclude-standard', ...neverEntered.flatMap((name) => ['-x', `${name}/`])],
});

/** What the listings of one run share. */
interface Run {
  neverEntered: readonly string[];
  unreadable: string[];
  hand: (file: string, tracked: boolean) => void;
}

/** One repository's listing, its files handed over with `prefix` (where it lies below the first one); false when git fails. */
async function listRepository(dir: string, top: string, prefix: string, run: Run): Promise<boolean> {
  const { neverEntered, unreadable, hand } = run;
  const commands = listingCommands(neverEntered);
  const nested: string[] = [];
  // A tracked file is handed over once the next entry shows that it was not deleted (an unmerged
  // file's stages come one after another: it is handed over once).
  let held: string | null = null;
  let heldRegular = false;
  const release = (): void => {
    if (held !== null) hand(prefix + held, prefix === '' && heldRegular);
    held = null;
  };
  const [index, others] = await Promise.all([
    gitEntries(commands.index, dir, (entry) => {
      const file = pathOf(entry);
      if (entry[0] === DELETED) {
        if (file === held) held = null;
        return;
      }
      if (file !== held) release();
      if (entry[0] === SKIP_WORKTREE) return;
      if (entry.startsWith(`${GITLINK_MODE} `, 2)) nested.push(file);
      else {
        held = file;
        heldRegular = REGULAR_MODES.some((mode) => entry.startsWith(mode, 2));
      }
    }),
    gitEntries(commands.others, dir, (file) => {
      // git shows an untracked folder only when it holds a repository of its own.
      if (file.endsWith('/')) nested.push(file.slice(0, -1));
      else hand(prefix + file, false);
    }),
  ]);
  release();
  if (index === null || others === null) return false;
  // git names them from the top of the work tree (and its files from `dir`).
  for (const m of others.matchAll(UNREADABLE)) unreadable.push(path.join(top, m[1] ?? ''));
  for (const folder of nested) {
    // A submodule that is not checked out is an empty folder.
    if (folder.split('/').some((name) => neverEntered.includes(name)) || !fs.existsSync(path.join(dir, folder, '.git'))) continue;
    const inner = path.join(dir, folder);
    if (!(await listRepository(inner, inner, `${prefix}${folder}/`, run))) return false;
  }
  return true;
}
