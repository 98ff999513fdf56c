import { ChildProcess, spawn } from 'node:child_process';
import { Socket } from 'node:net';

/**
 * Run git without letting the checkout run anything: a repository can name a command in its own
 * config (`core.fsmonitor` runs on `git status`; an external diff driver on `git diff`), and the tool
 * runs on code it was not asked to trust.
 */
export const safeArgs = (args: readonly string[]): string[] => ['-c', 'core.fsmonitor=false', ...(args[0] === 'diff' ? ['diff', '--no-ext-diff', '--no-textconv', ...args.slice(1)] : args)];

/** How a git process ended: its exit code (null: it could not run, or was killed), its stderr, and whether git is not installed. */
export interface GitEnd {
  code: number | null;
  stderr: string;
  missing: boolean;
}

/** A git process whose output is kept until it is read. */
export interface GitRun {
  /** Hands over standard output, what is already out first, then how the process ended. Once. */
  read(onChunk: (chunk: Buffer) => void, onEnd: (end: GitEnd) => void): void;
}

/**
 * Starts `git` (safe arguments added) in `cwd` with `input` on its standard input, in the C locale so
 * its warnings read the same whatever the user's language. `held`: the process does not keep this
 * one alive until it is read (an early start the run may never ask for, see startEarly).
 */
function startGit(args: readonly string[], cwd: string, input: Buffer | undefined, held: boolean): GitRun & { child: ChildProcess } {
  const child = spawn('git', safeArgs(args), { cwd, env: { ...process.env, LC_ALL: 'C', LANGUAGE: '' }, stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let onChunk: ((chunk: Buffer) => void) | null = null;
  let onEnd: ((end: GitEnd) => void) | null = null;
  let end: GitEnd | null = null;
  const finish = (e: GitEnd): void => {
    if (end) return;
    end = e;
    onEnd?.(e);
  };
  child.stdout.on('data', (chunk: Buffer) => (onChunk ? onChunk(chunk) : out.push(chunk)));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  child.on('error', (error: NodeJS.ErrnoException) => finish({ code: null, stderr: '', missing: error.code === 'ENOENT' }));
  child.on('close', (code) => finish({ code, stderr: Buffer.concat(err).toString('utf8'), missing: false }));
  // A git that exits before reading its input (an error) must not make the run fail.
  child.stdin.on('error', () => {});
  child.stdin.end(input);
  // Pipes are sockets: unreferenced, like the process, they do not keep this one alive.
  const keepAlive = (keep: boolean): void => {
    for (const handle of [child, child.stdout, child.stderr]) if (handle instanceof ChildProcess || handle instanceof Socket) (keep ? handle.ref() : handle.unref());
  };
  if (held) keepAlive(false);
  return {
    child,
    read(chunkTo, endTo) {
      if (held) keepAlive(true);
      for (const chunk of out.splice(0)) chunkTo(chunk);
      onChunk = chunkTo;
      onEnd = endTo;
      if (end) endTo(end);
    },
  };
}

/** git processes started early, by what they were asked (keyOf), not yet taken by the run. */
const early = new Map<string, GitRun & { child: ChildProcess }>();
const keyOf = (args: readonly string[], cwd: string, input: Buffer | undefined): string => JSON.stringify([args, cwd, input?.toString('latin1') ?? null]);

/**
 * Starts a git command before the run asks for it (bin/v2-migrate.js starts a run's listing and
 * search while the CLI's modules load, ~60 ms of every start). The run takes it over only when it
 * asks exactly the same thing in the same folder; one it never asks for is killed when the process exits.
 */
export function startEarly(args: readonly string[], cwd: string, input?: Buffer): void {
  const key = keyOf(args, cwd, input);
  if (early.has(key)) return;
  if (!early.size) process.once('exit', () => early.forEach((run) => run.child.kill()));
  early.set(key, startGit(args, cwd, input, true));
}

/** How many early git commands the run took over (tests check that a default run takes all of them). */
let adopted = 0;
export const earlyGitAdopted = (): number => adopted;

/** Kills the git processes started early that the run has not taken (once it has asked all it will). */
export function dropEarly(): void {
  early.forEach((run) => run.child.kill());
  early.clear();
}

/** The git process for a question: the one started early for it, or a new one. */
export function gitRun(args: readonly string[], cwd: string, input?: Buffer): GitRun {
  const key = keyOf(args, cwd, input);
  const started = early.get(key);
  if (!started) return startGit(args, cwd, input, false);
  early.delete(key);
  adopted++;
  return started;
}
