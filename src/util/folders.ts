import fs from 'node:fs';
import path from 'node:path';

/** What a folder's direct entries start with: the folder and a separator (a root already ends with one). */
export const folderPrefix = (dir: string): string => (dir.endsWith(path.sep) ? dir : dir + path.sep);

/** A separator doubled, a `.` or `..` name, or a trailing separator: a path that resolving would change. */
const NOT_NORMAL = /[\\/]\.{0,2}(?:[\\/]|$)/;

/** `p` as an absolute, normalized path: `p` itself when it is one already (a run's files are: it asks for thousands), else resolved. */
export const absolutePath = (p: string): string => (path.isAbsolute(p) && !NOT_NORMAL.test(p) ? p : path.resolve(p));

/** The file at `rel` (relative, with '/', as git prints it) in the folder `dir`. */
export const fileIn = path.sep === '/' ? (dir: string, rel: string): string => folderPrefix(dir) + rel : (dir: string, rel: string): string => folderPrefix(dir) + rel.split('/').join(path.sep);

/** `file` as written from the folder of `from`, with '/' (`../lib/http.sh`). */
export const relativeFrom = (from: string, file: string): string => path.relative(path.dirname(from), file).split(path.sep).join('/');

/** Whether `p` is `dir` itself or anywhere below it. */
export const isAtOrBelow = (dir: string, p: string): boolean => p === dir || p.startsWith(folderPrefix(dir));

/** Whether `file` is directly in the folder `prefix` starts (no string is made: this runs once per file of a tree). */
export const directlyIn = (file: string, prefix: string): boolean => file.startsWith(prefix) && file.indexOf(path.sep, prefix.length) < 0;

/**
 * The git work tree root above `dir` (the nearest folder holding `.git`), or null outside git.
 * `cache` remembers the answer for every folder walked through.
 */
export function workTreeRoot(dir: string, cache = new Map<string, string | null>()): string | null {
  const seen: string[] = [];
  let cur = dir;
  for (;;) {
    if (cache.has(cur)) return remember(cache.get(cur)!);
    seen.push(cur);
    if (fs.existsSync(path.join(cur, '.git'))) return remember(cur);
    const parent = path.dirname(cur);
    if (parent === cur) return remember(null);
    cur = parent;
  }
  function remember(root: string | null): string | null {
    for (const d of seen) cache.set(d, root);
    return root;
  }
}

/** Answers "does folder `dir` hold an entry `name`?" (from a walk's listings where it has them). */
export type HasEntry = (dir: string, name: string) => boolean;

/** The file system's answer. */
export const onDisk: HasEntry = (dir, name) => fs.existsSync(path.join(dir, name));

/** The file system's answer, asked once per folder and name (a run asks for each folder's package.json and config). */
export function onDiskOnce(): HasEntry {
  const known = new Map<string, boolean>();
  return (dir, name) => {
    const entry = folderPrefix(dir) + name;
    let exists = known.get(entry);
    if (exists === undefined) known.set(entry, (exists = fs.existsSync(entry)));
    return exists;
  };
}
