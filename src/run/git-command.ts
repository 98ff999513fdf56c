import { execFile, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { gitRun, safeArgs } from './git-process.js';

/**
 * Whether this process asked git something and found no git on PATH. A run without git goes on as
 * outside a work tree where it can (the walk then has only the .gitignore files), and says so once.
 */
let notFound = false;
export const gitNotFound = (): boolean => notFound;

/**
 * Run git without letting the checkout run anything: a repository can name a command in its own
 * config (`core.fsmonitor` runs on `git status`; an external diff driver on `git diff`), and the tool
 * runs on code it was not asked to trust.
 */
export function git(args: readonly string[], cwd: string, maxBuffer = 256 * 1024 * 1024): SpawnSyncReturns<string> {
  const r = spawnSync('git', safeArgs(args), { cwd, encoding: 'utf8', maxBuffer });
  if (gitMissing(r)) notFound = true;
  return r;
}

/** `git` without waiting: for questions asked together (each process costs ~15 ms to start). Null when git fails or is absent. */
export function gitOutput(args: readonly string[], cwd: string): Promise<string | null> {
  return new Promise((resolve) =>
    execFile('git', safeArgs(args), { cwd, encoding: 'utf8' }, (error, stdout) => {
      if (error?.code === 'ENOENT') notFound = true;
      resolve(error ? null : stdout);
    }),
  );
}

/** git could not answer, said in one line for the user: git's own message, or what to do without git. */
export class GitError extends Error {}

/** Whether git could not run at all: there is no `git` on PATH. */
export const gitMissing = (r: SpawnSyncReturns<string>): boolean => r.error !== undefined && 'code' in r.error && r.error.code === 'ENOENT';

/** The first line of git's answer on stderr (its `fatal: …`; hints follow on other lines). */
export const firstLine = (text: string | null | undefined): string => (text ?? '').trim().split('\n')[0] ?? '';

/**
 * Hands each NUL-separated entry `git` prints for `args` (a `-z` listing, of any size) to `onEntry` as
 * soon as it arrives, so the caller can start on them while git goes on. `input` goes to git's standard
 * input; `exitCodes` are the codes that mean success (`git grep` exits 1 when nothing matched).
 * Resolves to git's stderr, in the C locale so its warnings read the same whatever the user's
 * language; null when git fails or is absent.
 */
export function gitEntries(args: readonly string[], cwd: string, onEntry: (entry: string) => void, { input, exitCodes = [0] }: { input?: Buffer; exitCodes?: readonly number[] } = {}): Promise<string | null> {
  return new Promise((resolve) => {
    // A chunk can end inside an entry, or inside a character: bytes after its last NUL wait for the next.
    let rest: Buffer = Buffer.alloc(0);
    gitRun(args, cwd, input).read(
      (chunk) => {
        const bytes = rest.length ? Buffer.concat([rest, chunk]) : chunk;
        const last = bytes.lastIndexOf(0);
        // One string per chunk, split at the NULs: a listing of a large tree is tens of thousands of entries.
        if (last >= 0) for (const entry of bytes.toString('utf8', 0, last).split('\0')) onEntry(entry);
        rest = bytes.subarray(last + 1);
      },
      ({ code, stderr, missing }) => {
        if (missing) notFound = true;
        resolve(code !== null && exitCodes.includes(code) ? stderr : null);
      },
    );
  });
}
