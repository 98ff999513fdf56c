import fs from 'node:fs';
import path from 'node:path';
import { isCacheFileName } from '../run/cache.js';
import { isAtOrBelow } from '../util/folders.js';
import { UsageError } from './usage.js';

/**
 * `--cache-location <dir>` with `--cache`: a folder of the cache's own, made here if it is new. A run
 * never looks inside its cache folder (it holds the tool's own results), so a folder holding a path
 * the run is asked about, or any file that is not a cache file, would hide those files from it.
 */
export function checkCacheLocation(location: string, paths: readonly string[], cwd: string): void {
  const dir = path.resolve(cwd, location);
  const flag = `--cache-location ${location}`;
  const hidden = paths.find((p) => isAtOrBelow(dir, path.resolve(cwd, p)));
  if (hidden !== undefined) throw new UsageError(`${flag} would hide ${hidden} from the run (it never looks inside its cache folder): choose a folder of its own`);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(dir);
  } catch {
    return; // new: made once the write guard has let it through (makeCacheFolder)
  }
  // A symbolic link is the write guard's to refuse (run/write-guard.ts): it says where it leads.
  if (stat.isSymbolicLink()) return;
  if (!stat.isDirectory()) throw new UsageError(`${flag} is a file, not a folder`);
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch (error) {
    throw new UsageError(`${flag} cannot be read (${messageOf(error)})`);
  }
  const foreign = entries.filter((name) => !isCacheFileName(name)).sort();
  if (foreign.length) {
    const shown = foreign.length > 3 ? [...foreign.slice(0, 3), '…'] : foreign;
    throw new UsageError(`${flag} holds entries that are not v2-migrate cache files (${shown.join(', ')}): the run never looks inside its cache folder, so they would go unchecked; choose an empty or new folder`);
  }
}

/** Make a new `--cache-location` folder (after the write guard let it through: never where it refuses). */
export function makeCacheFolder(location: string, cwd: string): void {
  const dir = path.resolve(cwd, location);
  if (!exists(dir)) makeFolder(dir, `--cache-location ${location}`);
}

/**
 * The first missing folder is made on its own, with a plain mkdir. A file system that answers ENOENT
 * for a child of a folder that exists (/proc, a stale mount) sends Node's recursive mkdir into an
 * endless loop: it reads ENOENT as "parent missing", finds the parent there and tries again. Below a
 * folder just made, the recursive one is safe.
 */
function makeFolder(dir: string, flag: string): void {
  let first = dir;
  while (!exists(path.dirname(first)) && path.dirname(first) !== first) first = path.dirname(first);
  try {
    fs.mkdirSync(first, { mode: 0o700 });
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new UsageError(`${flag} cannot be made (${messageOf(error)})`);
  }
}

/** Whether the entry exists, a symbolic link counting as itself (one to nowhere is not a folder to make). */
function exists(entry: string): boolean {
  try {
    fs.lstatSync(entry);
    return true;
  } catch {
    return false;
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
