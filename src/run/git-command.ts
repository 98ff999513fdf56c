import { execFile, spawnSync, type SpawnSyncReturns } from 'node:child_process';

/**
 * Run git without letting the checkout run anything: a repository can name a command in its own
 * config (`core.fsmonitor` runs on `git status`; an external diff driver on `git diff`), and the tool
 * runs on code it was not asked to trust.
 */
export function git(args: readonly string[], cwd: string, maxBuffer = 256 * 1024 * 1024): SpawnSyncReturns<string> {
  return spawnSync('git', safeArgs(args), { cwd, encoding: 'utf8', maxBuffer });
}

/** `git` without waiting: for questions asked together (each process costs ~15 ms to start). Null when git fails or is absent. */
export function gitOutput(args: readonly string[], cwd: string): Promise<string | null> {
  return new Promise((resolve) => execFile('git', safeArgs(args), { cwd, encoding: 'utf8' }, (error, stdout) => resolve(error ? null : stdout)));
}

const safeArgs = (args: readonly string[]): string[] => ['-c', 'core.fsmonitor=false', ...(args[0] === 'diff' ? ['diff', '--no-ext-diff', '--no-textconv', ...args.slice(1)] : args)];
