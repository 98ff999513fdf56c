import { spawnSync, type SpawnSyncReturns } from 'node:child_process';

/**
 * Run git without letting the checkout run anything: a repository can name a command in its own
 * config (`core.fsmonitor` runs on `git status`; an external diff driver on `git diff`), and the tool
 * runs on code it was not asked to trust.
 */
export function git(args: readonly string[], cwd: string, maxBuffer = 256 * 1024 * 1024): SpawnSyncReturns<string> {
  const safe = ['-c', 'core.fsmonitor=false', ...(args[0] === 'diff' ? ['diff', '--no-ext-diff', '--no-textconv', ...args.slice(1)] : args)];
  return spawnSync('git', safe, { cwd, encoding: 'utf8', maxBuffer });
}
