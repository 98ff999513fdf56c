import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cli, git, tempProject } from './helpers.js';

/**
 * Concurrent runs (README "Safety"): a write holds a lock file, created exclusively, holding its pid;
 * a second write refuses while that pid lives. A lock whose process is gone is stale and taken over.
 */

const V1 = "export const eps = async () => (await fetch('https://rest.runpod.io/v1/endpoints')).json();\n";

function repo(): string {
  const dir = tempProject({ 'a.ts': V1 });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'init');
  return dir;
}

const lockIn = (dir: string): string => path.join(dir, '.git', 'v2-migrate.lock');
const heldBy = (lock: string, pid: number): string => `v2-migrate: another v2-migrate run (pid ${pid}) is writing in this work tree: ${lock} is its lock (wait for it to finish; if no such process is a v2-migrate run, remove the lock)`;
/** A pid no process has any more: a child that has exited. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '']).pid;
const text = (dir: string): string => fs.readFileSync(path.join(dir, 'a.ts'), 'utf8');

describe('the write lock', () => {
  it('a write refuses while another run holds the lock (exit 2, naming the lock and its pid); lint and a dry run do not need it', () => {
    const dir = repo();
    const lock = lockIn(dir);
    fs.writeFileSync(lock, `${process.pid}\n`);
    const write = cli([], dir);
    expect(write.stderr).toBe(`${heldBy(lock, process.pid)}.\n`);
    expect(write.code).toBe(2);
    expect(text(dir)).toBe(V1);
    expect(fs.readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);
    expect(cli(['--dry-run'], dir)).toMatchObject({ code: 1, stderr: '' });
    expect(cli(['lint'], dir)).toMatchObject({ code: 1, stderr: '' });
  });

  it('a lock whose process is gone is stale: the write takes it over, and removes it when done', () => {
    const dir = repo();
    fs.writeFileSync(lockIn(dir), `${deadPid()}\n`);
    // Exit 1: written, and eps() hands the endpoints to callers outside the run (a response-field warning).
    expect(cli([], dir)).toMatchObject({ code: 1, stderr: '' });
    expect(text(dir)).toContain('https://api.runpod.io/v2/serverless');
    expect(fs.existsSync(lockIn(dir))).toBe(false);
  });

  it('the lock lives in .git, so it never makes the tree dirty for the next run', () => {
    const dir = repo();
    expect(cli([], dir).code).toBe(1); // written, with eps()'s response-field warning
    const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=all', '--ignored'], { cwd: dir, encoding: 'utf8' }).stdout;
    expect(status).toBe(' M a.ts\n');
  });

  it('a file by the lock\'s name that holds no pid is not taken for a lock: the write refuses and says to remove it', () => {
    const dir = repo();
    fs.writeFileSync(lockIn(dir), 'not a pid\n');
    const write = cli([], dir);
    expect(write.stderr).toBe(`v2-migrate: ${lockIn(dir)} is in the way of the lock v2-migrate takes to write: it holds no pid, so v2-migrate did not write it (remove it).\n`);
    expect(write.code).toBe(2);
    expect(text(dir)).toBe(V1);
  });

  it('outside git the lock is .v2-migrate.lock in the folder the run writes in', () => {
    const dir = tempProject({ 'a.ts': V1 });
    const lock = path.join(dir, '.v2-migrate.lock');
    fs.writeFileSync(lock, `${process.pid}\n`);
    expect(cli([], dir)).toMatchObject({ code: 2, stderr: `${heldBy(lock, process.pid)}.\n` });
    expect(text(dir)).toBe(V1);
  });

  it("lint leaves a running write's journal to it (never rolls back files a live run is writing), and recovers it once that run is gone", () => {
    const dir = repo();
    const killed = spawnSync(process.execPath, [BIN], { cwd: dir, encoding: 'utf8', env: { ...process.env, V2_MIGRATE_TEST_FAULT: 'kill-after-stage' } });
    expect(killed.signal).toBe('SIGKILL');
    const journal = path.join(dir, '.v2-migrate-journal.json');
    expect(fs.existsSync(journal)).toBe(true);
    // As if that run were still writing: its pid is alive.
    fs.writeFileSync(lockIn(dir), `${process.pid}\n`);
    const lint = cli(['lint'], dir);
    expect(lint.stderr).toBe(`${heldBy(lockIn(dir), process.pid)}; the journal it writes is left to it.\n`);
    expect(lint.code).toBe(1);
    expect(fs.existsSync(journal)).toBe(true);
    fs.writeFileSync(lockIn(dir), `${deadPid()}\n`);
    const next = cli(['lint'], dir);
    expect(next.stderr).toBe('v2-migrate: an earlier run was interrupted while writing files.\nRolled back to their text before that run:\n  a.ts\n');
    expect(fs.existsSync(journal)).toBe(false);
    expect(fs.existsSync(lockIn(dir))).toBe(false);
    expect(text(dir)).toBe(V1);
  });
});
