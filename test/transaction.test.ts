import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, listFiles, tempProject } from './helpers.js';

/**
 * The write transaction (README "Safety"): files that must move together (a base and the files whose
 * requests it serves) are written together or not at all, with faults injected through
 * V2_MIGRATE_TEST_FAULT (src/run/faults.ts) rather than timing.
 */

const BASE = "export const BASE = 'https://rest.runpod.io/v1';\n";
const CALLS = "import { BASE } from './base';\nexport const stop = (id: string) => fetch(`${BASE}/pods/${id}/stop`, { method: 'POST' });\n";
// Not connected to the two above: a group of its own.
const OTHER = "export const eps = async () => (await fetch('https://rest.runpod.io/v1/endpoints')).json();\n";
const PROJECT = { 'api/base.ts': BASE, 'api/calls.ts': CALLS, 'other.ts': OTHER };
const GROUP = ['api/base.ts', 'api/calls.ts'];

// Root writes into any folder: as root, the permission test runs the CLI as "nobody", owner of its project.
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const NOBODY = 65534;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) {
    if (fs.existsSync(path.join(d, 'api'))) fs.chmodSync(path.join(d, 'api'), 0o755);
    fs.rmSync(d, { recursive: true, force: true });
  }
});

function project(): string {
  const dir = tempProject(PROJECT);
  dirs.push(dir);
  return dir;
}

function cli(args: string[], cwd: string, fault?: string, asNobody = false) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  if (fault) env.V2_MIGRATE_TEST_FAULT = fault;
  else delete env.V2_MIGRATE_TEST_FAULT;
  const r = spawnSync(process.execPath, [BIN, '--allow-dirty', ...args], { cwd, encoding: 'utf8', env, ...(asNobody ? { uid: NOBODY, gid: NOBODY } : {}) });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

const text = (dir: string, rel: string): string => fs.readFileSync(path.join(dir, rel), 'utf8');
const isOld = (dir: string, rel: string): boolean => text(dir, rel) === PROJECT[rel as keyof typeof PROJECT];
const isNew = (dir: string, rel: string): boolean => !isOld(dir, rel);
/** The tool's own litter: temporary and backup files, the journal. */
const litter = (dir: string): string[] => listFiles(dir).map((f) => path.relative(dir, f)).filter((f) => /(^|\/)\.v2m-|v2-migrate-journal/.test(f));

describe('write transaction: a group of files is written whole or not at all', () => {
  it('a clean run writes every group and counts exactly what it wrote', () => {
    const dir = project();
    const doc = JSON.parse(cli(['--format', 'json'], dir).stdout);
    for (const f of [...GROUP, 'other.ts']) expect(isNew(dir, f), f).toBe(true);
    expect(doc.summary.changed).toBe(3);
    expect(litter(dir)).toEqual([]);
  });

  it('a read-only file in a group holds the whole group (a finding on each), while other groups are written', () => {
    const dir = project();
    fs.chmodSync(path.join(dir, 'api/calls.ts'), 0o444);
    const doc = JSON.parse(cli(['--format', 'json'], dir).stdout);
    for (const f of GROUP) expect(isOld(dir, f), f).toBe(true);
    expect(isNew(dir, 'other.ts')).toBe(true);
    expect(doc.summary.changed).toBe(1);
    const messages = (rel: string): string[] => doc.files.find((f: { path: string }) => f.path === rel).findings.map((f: { message: string }) => f.message);
    expect(messages('api/calls.ts').some((m) => m.includes('read-only'))).toBe(true);
    expect(messages('api/base.ts').some((m) => m.includes('must move with api/calls.ts'))).toBe(true);
    expect(litter(dir)).toEqual([]);
  });

  it('a folder that cannot take a temporary file fails its group at staging: nothing of it is written, and the summary says so', () => {
    const dir = project();
    if (isRoot) for (const f of [dir, ...listFiles(dir), path.join(dir, 'api')]) fs.chownSync(f, NOBODY, NOBODY);
    fs.chmodSync(path.join(dir, 'api'), 0o555);
    const r = cli(['--format', 'json'], dir, undefined, isRoot);
    fs.chmodSync(path.join(dir, 'api'), 0o755);
    expect(r.code).toBe(2);
    for (const f of GROUP) expect(isOld(dir, f), f).toBe(true);
    expect(isNew(dir, 'other.ts')).toBe(true);
    expect(JSON.parse(r.stdout).summary.changed).toBe(1);
    expect(r.stderr).toContain('could not write 2 files');
    expect(r.stderr).toMatch(/api\/base\.ts: EACCES/);
    expect(r.stderr).toContain('api/calls.ts: not written: it moves with api/base.ts');
    expect(litter(dir)).toEqual([]);
  });

  it('a rename that fails midway rolls its group back to fully old; the other group is written and counted', () => {
    const dir = project();
    // Renames go group by group in path order: 1 is api/base.ts, 2 is api/calls.ts.
    const r = cli(['--format', 'json'], dir, 'fail-rename:2');
    expect(r.code).toBe(2);
    for (const f of GROUP) expect(isOld(dir, f), f).toBe(true);
    expect(isNew(dir, 'other.ts')).toBe(true);
    expect(JSON.parse(r.stdout).summary.changed).toBe(1);
    expect(r.stderr).toContain('api/calls.ts: EIO');
    expect(litter(dir)).toEqual([]);
  });

  it('keeps mode and hard links, and a failed rename puts a hard-linked file back in place', () => {
    const dir = project();
    fs.chmodSync(path.join(dir, 'api/base.ts'), 0o640);
    fs.linkSync(path.join(dir, 'api/base.ts'), path.join(dir, 'base-link.txt'));
    cli([], dir, 'fail-rename:2');
    expect(text(dir, 'base-link.txt')).toBe(BASE);
    expect(isOld(dir, 'api/base.ts')).toBe(true);
    expect(fs.statSync(path.join(dir, 'api/base.ts')).nlink).toBe(2);
    cli([], dir);
    expect(isNew(dir, 'api/base.ts')).toBe(true);
    expect(text(dir, 'base-link.txt')).toBe(text(dir, 'api/base.ts'));
    expect(fs.statSync(path.join(dir, 'api/base.ts')).nlink).toBe(2);
    expect(fs.statSync(path.join(dir, 'api/base.ts')).mode & 0o777).toBe(0o640);
    expect(litter(dir)).toEqual([]);
  });
});

describe('write transaction: a generated adapter file joins the groups that use it', () => {
  const create = (name: string, path: string) => `export async function ${name}(input: Record<string, unknown>) {\n  return fetch('https://rest.runpod.io/v1/${path}', { method: 'POST', body: JSON.stringify(input) });\n}\n`;
  const files = { 'a.ts': create('createPod', 'pods'), 'b.ts': create('createEndpoint', 'endpoints') };

  it('a failed rename of the adapter file leaves both of its (otherwise unconnected) callers old and creates nothing', () => {
    const dir = tempProject(files);
    dirs.push(dir);
    // Renames in path order: a.ts, b.ts, then the adapter file.
    const r = cli(['--format', 'json'], dir, 'fail-rename:3');
    expect(r.code).toBe(2);
    expect(text(dir, 'a.ts')).toBe(files['a.ts']);
    expect(text(dir, 'b.ts')).toBe(files['b.ts']);
    expect(fs.existsSync(path.join(dir, 'runpod-v2-adapters.ts'))).toBe(false);
    expect(JSON.parse(r.stdout).summary.changed).toBe(0);
    expect(litter(dir)).toEqual([]);
    cli([], dir);
    expect(text(dir, 'b.ts')).toContain('toV2CreateEndpointBody(');
    expect(fs.existsSync(path.join(dir, 'runpod-v2-adapters.ts'))).toBe(true);
  });
});

describe('write transaction: the text engine', () => {
  it("writes a config's text-engine files as one group (it links them without saying how): a read-only script holds a module", () => {
    const py = 'import requests\nBASE = "https://rest.runpod.io/v1"\ndef pods():\n    return requests.get(f"{BASE}/pods").json()\n';
    const dir = tempProject({ 'client.py': py, 'list.sh': '#!/bin/sh\ncurl -s https://rest.runpod.io/v1/endpoints\n' });
    dirs.push(dir);
    fs.chmodSync(path.join(dir, 'list.sh'), 0o444);
    const doc = JSON.parse(cli(['--format', 'json'], dir).stdout);
    expect(text(dir, 'client.py')).toBe(py);
    expect(doc.summary.changed).toBe(0);
    const client = doc.files.find((f: { path: string }) => f.path === 'client.py');
    expect(client.findings.some((f: { message: string }) => f.message.includes('must move with list.sh'))).toBe(true);
  });
});

describe('write transaction: a run killed while writing', () => {
  it('killed between stage and rename: a 0600 journal is left, and the next run (lint) rolls back and removes every temporary file', () => {
    const dir = project();
    const killed = cli([], dir, 'kill-after-stage');
    expect(killed.signal).toBe('SIGKILL');
    expect(litter(dir).filter((f) => f.endsWith('.tmp')).length).toBe(3);
    expect(fs.statSync(path.join(dir, '.v2-migrate-journal.json')).mode & 0o777).toBe(0o600);
    for (const f of [...GROUP, 'other.ts']) expect(isOld(dir, f), f).toBe(true);
    const next = cli(['lint'], dir);
    expect(next.stderr).toContain('an earlier run was interrupted');
    expect(next.stderr).toContain('Rolled back');
    for (const f of [...GROUP, 'other.ts']) expect(isOld(dir, f), f).toBe(true);
    expect(litter(dir)).toEqual([]);
  });

  it('killed between two renames of a group: the next run rolls the group back, then writes it whole', () => {
    const dir = project();
    expect(cli([], dir, 'kill-at-rename:2').signal).toBe('SIGKILL');
    // Half-migrated on disk: the base moved, its call site did not.
    expect(isNew(dir, 'api/base.ts')).toBe(true);
    expect(isOld(dir, 'api/calls.ts')).toBe(true);
    const next = cli(['--format', 'json'], dir);
    expect(next.stderr).toMatch(/Rolled back[^]*api\/base\.ts/);
    for (const f of [...GROUP, 'other.ts']) expect(isNew(dir, f), f).toBe(true);
    expect(JSON.parse(next.stdout).summary.changed).toBe(3);
    expect(litter(dir)).toEqual([]);
  });

  it('killed after every rename, before the journal is removed: the next run completes it (a dry run, which changes nothing else)', () => {
    const dir = project();
    expect(cli([], dir, 'kill-after-commit').signal).toBe('SIGKILL');
    expect(fs.existsSync(path.join(dir, '.v2-migrate-journal.json'))).toBe(true);
    const next = cli(['--dry-run'], dir);
    expect(next.stderr).toContain('Completed');
    for (const f of [...GROUP, 'other.ts']) expect(isNew(dir, f), f).toBe(true);
    expect(litter(dir)).toEqual([]);
  });
});
