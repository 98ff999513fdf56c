/** The folders a run leaves out, by name (discover.ts), in a module of their own: the early git start (run/early-run.ts) needs them before the rest loads. */

/** Folders never scanned: dependencies, git's own, and the tool's cache of its reports. */
export const NEVER_SCANNED_DIRS = ['node_modules', '.git', '.v2-migrate-cache'];
/**
 * Folders skipped unless --no-default-ignore, even when git tracks them: build output, vendored code,
 * Python virtualenvs and byte-code caches, and coding agents' worktrees (`.claude/worktrees/…` are
 * full copies of the repository). The files a run would take there are counted, and the summary says so.
 */
export const DEFAULT_SKIPPED_DIRS = ['dist', 'build', 'coverage', 'vendor', '.venv', '__pycache__', '.tox', '.claude'];
