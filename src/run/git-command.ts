import { execFile, spawnSync, type SpawnSyncReturns } from 'node:child_process';

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

const safeArgs = (args: readonly string[]): string[] => ['-c', 'core.fsmonitor=false', ...(args[0] === 'diff' ? ['diff', '--no-ext-diff', '--no-textconv', ...args.slice(1)] : args)];
