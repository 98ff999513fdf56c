import { execFile, spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';

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
    const child = spawn('git', safeArgs(args), { cwd, env: { ...process.env, LC_ALL: 'C', LANGUAGE: '' }, stdio: ['pipe', 'pipe', 'pipe'] });
    const err: Buffer[] = [];
    // A chunk can end inside an entry, or inside a character: bytes after its last NUL wait for the next.
    let rest: Buffer = Buffer.alloc(0);
    child.stdout.on('data', (chunk: Buffer) => {
      const bytes = rest.length ? Buffer.concat([rest, chunk]) : chunk;
      let start = 0;
      for (let end = bytes.indexOf(0); end >= 0; start = end + 1, end = bytes.indexOf(0, start)) onEntry(bytes.toString('utf8', start, end));
      rest = bytes.subarray(start);
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') notFound = true;
      resolve(null);
    });
    child.on('close', (code) => resolve(code !== null && exitCodes.includes(code) ? Buffer.concat(err).toString('utf8') : null));
    // A git that exits before reading its input (an error) must not make the write fail the run.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

const safeArgs = (args: readonly string[]): string[] => ['-c', 'core.fsmonitor=false', ...(args[0] === 'diff' ? ['diff', '--no-ext-diff', '--no-textconv', ...args.slice(1)] : args)];
