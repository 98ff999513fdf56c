import fs from 'node:fs';
import path from 'node:path';
import { gitEntries } from '../run/git-command.js';
import { onDisk, type HasEntry } from '../util/folders.js';

/** What git lists below a folder of a work tree: the files a run there takes, by git's own rules. */
export interface GitListing {
  /**
   * Paths relative to the folder, with '/': tracked files still on disk (ignore rules do not apply to
   * them: a generated client added with `git add -f` is listed), and untracked files git does not
   * ignore. The files of a nested repository or a checked-out submodule are listed by that repository.
   * Each was handed to `onFile` (see gitListing).
   */
  files: Set<string>;
  /**
   * What git ignores there (relative, with '/'): files, and folders (ending with '/') whose content it
   * did not look at. With `files`, every entry of every folder git entered.
   */
  ignored: string[];
  /** Folders git could not open (absolute): what is untracked in them is unknown. */
  unreadable: string[];
}

/** A submodule's entry in the index. */
const GITLINK_MODE = '160000';
/** `ls-files -t`: a tracked file outside a sparse checkout (not on disk). */
const SKIP_WORKTREE = 'S';
/** `ls-files -t -d`: a tracked file deleted from the work tree (listed after its entry). */
const DELETED = 'R';
// An index entry is `<tag> <mode> <object> <stage>\t<path>`; a deleted file comes again, tagged, after its entry.
const pathOf = (entry: string): string => entry.slice(entry.indexOf('\t') + 1);
/** A file on disk: neither deleted, outside the sparse checkout, nor a submodule. */
const isTrackedFile = (entry: string): boolean => entry[0] !== DELETED && entry[0] !== SKIP_WORKTREE && !entry.startsWith(`${GITLINK_MODE} `, 2);
const UNREADABLE = /^warning: could not open directory '(.*)\/': Permission denied$/gm;

/**
 * Git's list of the files below `dir` (inside the work tree whose root is `top`), or null when git
 * cannot give it (not installed, a repository it refuses): then the caller walks. Three `ls-files`
 * run at the same time per repository: the index, each entry with its mode (to tell submodules) and
 * the deleted ones tagged (git checks each on disk); the untracked files; and the ignored ones, so
 * that the listing answers "does this folder hold a package.json?" without asking the disk.
 * `neverEntered`: folder names whose untracked files are not even listed (node_modules): listed as
 * ignored folders. `onFile` is told each file as git prints it, before the listing is complete (a
 * tracked file deleted since comes too: the listing leaves it out).
 */
export async function gitListing(dir: string, top: string, neverEntered: readonly string[], onFile: (file: string) => void = () => {}): Promise<GitListing | null> {
  const excluded = neverEntered.flatMap((name) => ['-x', `${name}/`]);
  const [index, others, ignored] = await Promise.all([
    gitEntries(['ls-files', '-z', '-t', '-s', '-d'], dir, (entry) => {
      if (isTrackedFile(entry)) onFile(pathOf(entry));
    }),
    gitEntries(['ls-files', '-z', '-o', '--exclude-standard', ...excluded], dir, (file) => {
      if (!file.endsWith('/')) onFile(file);
    }),
    gitEntries(['ls-files', '-z', '-o', '-i', '--directory', '--exclude-standard', ...excluded], dir),
  ]);
  if (!index || !others || !ignored) return null;
  const files = new Set<string>();
  const nested: string[] = [];
  for (const file of others.entries) {
    // git shows an untracked folder only when it holds a repository of its own.
    if (file.endsWith('/')) nested.push(file.slice(0, -1));
    else files.add(file);
  }
  for (const entry of index.entries) {
    if (entry[0] === DELETED) files.delete(pathOf(entry));
    else if (isTrackedFile(entry)) files.add(pathOf(entry));
    else if (entry[0] !== SKIP_WORKTREE) nested.push(pathOf(entry));
  }
  // git names them from the top of the work tree (and its files from `dir`).
  const unreadable = [...others.stderr.matchAll(UNREADABLE)].map((m) => path.join(top, m[1] ?? ''));
  for (const folder of nested) {
    // A submodule that is not checked out is an empty folder.
    if (folder.split('/').some((name) => neverEntered.includes(name)) || !fs.existsSync(path.join(dir, folder, '.git'))) continue;
    const inner = await gitListing(path.join(dir, folder), path.join(dir, folder), neverEntered, (f) => onFile(`${folder}/${f}`));
    if (!inner) return null;
    for (const f of inner.files) files.add(`${folder}/${f}`);
    ignored.entries.push(...inner.ignored.map((f) => `${folder}/${f}`));
    unreadable.push(...inner.unreadable);
  }
  return { files, ignored: ignored.entries, unreadable };
}

const toNative = path.sep === '/' ? (p: string): string => p : (p: string): string => p.split('/').join(path.sep);

/**
 * "Does folder `dir` hold an entry `name`?" answered from a listing of `dir` (git's files and ignored
 * entries: complete for every folder git entered), and from the disk for folders it did not enter.
 */
export function listedEntries(dir: string, listing: GitListing): HasEntry {
  const names = new Map<string, Set<string>>();
  const add = (entry: string): void => {
    // The entry, then each folder above it, until a folder already known.
    for (let rel = entry.endsWith('/') ? entry.slice(0, -1) : entry; rel; ) {
      const slash = rel.lastIndexOf('/');
      const folder = slash < 0 ? dir : dir + path.sep + toNative(rel.slice(0, slash));
      const name = rel.slice(slash + 1);
      const known = names.get(folder) ?? new Set<string>();
      if (known.has(name)) return;
      names.set(folder, known.add(name));
      rel = slash < 0 ? '' : rel.slice(0, slash);
    }
  };
  for (const f of listing.files) add(f);
  for (const f of listing.ignored) add(f);
  return (folder, name) => {
    const known = names.get(folder);
    return known ? known.has(name) : onDisk(folder, name);
  };
}
