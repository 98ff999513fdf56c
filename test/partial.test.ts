import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, git, tempProject } from './helpers.js';

/**
 * Partial runs (issue 13, items 3 and 4): a run asked about one file, one package folder or the files
 * changed since a ref reads the whole project of its paths, and reports and writes what was asked
 * together with everything that must move with it, so no run leaves a half migration and no lint of
 * a package is green while its calls go through a v1 client package.
 */

/** A single package: base, wrapper and two call sites in four files, committed on main. */
function singlePackage(): string {
  const dir = tempProject({
    'package.json': JSON.stringify({ name: 'dash', private: true }),
    'src/config.ts': "export const RUNPOD = 'https://rest.runpod.io/v1';\n",
    'src/http.ts':
      "import { RUNPOD } from './config';\n\nexport async function call(method: string, route: string, body?: unknown): Promise<unknown> {\n  const res = await fetch(RUNPOD + route, { method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });\n  return res.json();\n}\n",
    'src/pods.ts': "import { call } from './http';\n\nexport const halt = (id: string) => call('POST', `/pods/${id}/stop`);\n",
    'src/volumes.ts': "import { call } from './http';\n\nexport const forget = (id: string) => call('DELETE', `/networkvolumes/${id}`);\n",
    // Unrelated: not reached by imports, so never part of a run asked about the files above.
    'scripts/other.ts': "export const other = () => fetch('https://rest.runpod.io/v1/endpoints/e9', { method: 'DELETE' });\n",
  });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'init');
  return dir;
}

/** npm (or pnpm) workspaces: apps call RunPod only through the workspace client package, which holds the v1 base. */
function workspaces(kind: 'npm' | 'pnpm'): string {
  const dir = tempProject({
    'package.json': JSON.stringify(kind === 'npm' ? { name: 'acme', private: true, workspaces: ['apps/*', 'packages/*'] } : { name: 'acme', private: true }),
    ...(kind === 'pnpm' ? { 'pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n  - 'packages/*'\n" } : {}),
    'packages/runpod-client/package.json': JSON.stringify({ name: '@acme/runpod-client', main: 'dist/index.js' }),
    'packages/runpod-client/src/index.ts':
      "const REST = 'https://rest.runpod.io/v1';\n\nexport async function runpod(method: string, route: string, body?: unknown): Promise<unknown> {\n  const res = await fetch(`${REST}${route}`, { method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });\n  return res.json();\n}\n",
    'apps/web/package.json': JSON.stringify({ name: 'web', dependencies: { '@acme/runpod-client': 'workspace:*' } }),
    'apps/web/src/pods.ts': "import { runpod } from '@acme/runpod-client';\n\nexport const pause = (id: string) => runpod('POST', `/pods/${id}/stop`);\n",
    'apps/admin/package.json': JSON.stringify({ name: 'admin', dependencies: { '@acme/runpod-client': 'workspace:*' } }),
    'apps/admin/src/registries.ts': "import { runpod } from '@acme/runpod-client';\n\nexport const dropAuth = (id: string) => runpod('DELETE', `/containerregistryauth/${id}`);\n",
    // A package with its own client and base: nothing of apps/web moves with it.
    'apps/batch/package.json': JSON.stringify({ name: 'batch' }),
    'apps/batch/src/run.ts': "export const purge = () => fetch('https://rest.runpod.io/v1/templates/t1', { method: 'DELETE' });\n",
    // Sets a variable of the same name as code elsewhere might read, in a folder that serves none of it.
    'apps/batch/.env': 'RUNPOD_API_URL=https://rest.runpod.io/v1\n',
  });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'init');
  return dir;
}

const read = (dir: string, rel: string): string => fs.readFileSync(path.join(dir, rel), 'utf8');
const paths = (stdout: string): string[] => JSON.parse(stdout).files.map((f: { path: string }) => f.path);

/** Nothing left half-migrated: a full dry run afterwards would change nothing and finds no unknown path. */
function settled(dir: string): void {
  const after = JSON.parse(cli(['--dry-run', '--format', 'json'], dir).stdout);
  const rules = after.files.flatMap((f: { findings: Array<{ ruleId: string }> }) => f.findings.map((x) => x.ruleId));
  expect(rules).not.toContain('unknown-path');
  expect(after.files.filter((f: { path: string; changed: boolean }) => f.changed && !f.path.startsWith('scripts/') && !f.path.startsWith('apps/batch/'))).toEqual([]);
}

describe('partial runs are closed over what must move with them', () => {
  it('--changed-since in a write run writes the base and every call site with the changed file', () => {
    const dir = singlePackage();
    git(dir, 'checkout', '-qb', 'feature');
    fs.appendFileSync(path.join(dir, 'src/pods.ts'), "export const wake = (id: string) => call('POST', `/pods/${id}/start`);\n");
    git(dir, 'commit', '-qam', 'wake');
    const write = cli(['--changed-since', 'main'], dir);
    expect(write.code, write.stderr).toBe(1); // written; the pod actions' answers go to callers outside the run (response-field)
    expect(write.stderr).toContain('2 files beyond the files changed since main must move with them');
    expect(read(dir, 'src/config.ts')).toContain("'https://api.runpod.io/v2'");
    expect(read(dir, 'src/pods.ts')).toContain("call('POST', `/pods/${id}/action`, { action: 'start' })");
    expect(read(dir, 'src/volumes.ts')).toContain('`/network-volumes/${id}`');
    expect(read(dir, 'scripts/other.ts')).toContain('rest.runpod.io/v1'); // not asked, not tied to it
    settled(dir);
  }, 30_000);

  it('a write given one file (a call site, or the base) writes everything that must move with it', () => {
    for (const named of ['src/pods.ts', 'src/config.ts']) {
      const dir = singlePackage();
      const dry = cli(['--dry-run', named, '--format', 'json'], dir);
      expect(paths(dry.stdout)).toEqual(['src/config.ts', 'src/pods.ts', 'src/volumes.ts']);
      const write = cli([named], dir);
      expect(write.code, write.stderr).toBe(1); // written; halt()'s answer goes to callers outside the run (response-field)
      expect(read(dir, 'src/config.ts')).toContain("'https://api.runpod.io/v2'");
      expect(read(dir, 'src/volumes.ts')).toContain('`/network-volumes/${id}`');
      settled(dir);
    }
  }, 30_000);

  it('lint of one file reports what its requests need, not a false green', () => {
    const dir = singlePackage();
    const lint = cli(['lint', 'src/pods.ts', '--format', 'json'], dir);
    expect(lint.code).toBe(1);
    expect(paths(lint.stdout)).toEqual(['src/config.ts', 'src/pods.ts', 'src/volumes.ts']);
  }, 30_000);

  it('a write given one workspace package writes its users in the other packages too', () => {
    const dir = workspaces('npm');
    const write = cli(['packages/runpod-client'], dir);
    expect(write.code, write.stderr).toBe(1); // written; pause()'s answer goes to callers outside the run (response-field)
    expect(read(dir, 'packages/runpod-client/src/index.ts')).toContain("'https://api.runpod.io/v2'");
    expect(read(dir, 'apps/web/src/pods.ts')).toContain("runpod('POST', `/pods/${id}/action`, { action: 'stop' })");
    expect(read(dir, 'apps/admin/src/registries.ts')).toContain('`/registries/${id}`');
    expect(read(dir, 'apps/batch/src/run.ts')).toContain('rest.runpod.io/v1');
    expect(read(dir, 'apps/batch/.env')).toContain('rest.runpod.io/v1');
    settled(dir);
  }, 30_000);

  it('a file that must move with what was asked and has uncommitted changes refuses the write, naming it', () => {
    const dir = singlePackage();
    fs.appendFileSync(path.join(dir, 'src/volumes.ts'), '// local edit\n');
    const write = cli(['src/pods.ts'], dir);
    expect(write.code).toBe(2);
    expect(write.stderr).toContain('src/volumes.ts');
    expect(read(dir, 'src/config.ts')).toContain('rest.runpod.io/v1');
    expect(read(dir, 'src/pods.ts')).toContain('/stop');
  }, 30_000);

  it('lint of an app whose only use is a client function whose request is several modules deep is not green', () => {
    const dir = tempProject({
      'package.json': JSON.stringify({ name: 'acme', private: true, workspaces: ['apps/*', 'packages/*'] }),
      'packages/client/package.json': JSON.stringify({ name: '@acme/client', main: 'dist/index.js' }),
      'packages/client/src/config.ts': "export const API = 'https://rest.runpod.io/v1';\n",
      'packages/client/src/http.ts': "import { API } from './config';\n\nexport async function send(method: string, route: string): Promise<unknown> {\n  const res = await fetch(API + route, { method });\n  return res.json();\n}\n",
      'packages/client/src/pods.ts': "import { send } from './http';\n\nexport const stopPod = (id: string) => send('POST', `/pods/${id}/stop`);\n",
      'packages/client/src/index.ts': "export { stopPod } from './pods';\n",
      'apps/web/package.json': JSON.stringify({ name: 'web' }),
      'apps/web/src/page.ts': "import { stopPod } from '@acme/client';\n\nexport async function onClick(id: string) {\n  await stopPod(id);\n}\n",
    });
    const lint = cli(['lint', '--format', 'json'], path.join(dir, 'apps/web'));
    expect(lint.code).toBe(1);
    const rules = JSON.parse(lint.stdout).files.flatMap((f: { findings: Array<{ ruleId: string }> }) => f.findings.map((x) => x.ruleId));
    expect(rules).toEqual(['base-url', 'pod-action']);
  }, 30_000);

  it('shell scripts sourced together: a run given the script that holds the base writes the scripts that use it', () => {
    const dir = tempProject({
      'lib/env.sh': '#!/usr/bin/env bash\nRUNPOD_REST="https://rest.runpod.io/v1"\n',
      'bin/halt.sh': '#!/usr/bin/env bash\nsource "$(dirname "$0")/../lib/env.sh"\ncurl -s -X POST -H "Authorization: Bearer $RUNPOD_API_KEY" "$RUNPOD_REST/pods/$1/stop"\n',
      'tools/purge.sh': '#!/usr/bin/env bash\ncurl -s -X DELETE "https://rest.runpod.io/v1/templates/$1"\n',
    });
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'init');
    const lint = cli(['lint', 'bin/halt.sh', '--format', 'json'], dir);
    expect(lint.code).toBe(1);
    expect(paths(lint.stdout)).toEqual(['bin/halt.sh', 'lib/env.sh']);
    const write = cli(['lib/env.sh'], dir);
    expect(write.code, write.stderr).toBe(0);
    expect(read(dir, 'lib/env.sh')).toContain('https://api.runpod.io/v2');
    expect(read(dir, 'bin/halt.sh')).toContain('/pods/$1/action');
    expect(read(dir, 'tools/purge.sh')).toContain('rest.runpod.io/v1'); // its own base: not tied to what was asked
  }, 30_000);

  for (const kind of ['npm', 'pnpm'] as const) {
    it(`lint inside one app of ${kind} workspaces follows the workspace client package`, () => {
      const dir = workspaces(kind);
      const web = path.join(dir, 'apps/web');
      const lint = cli(['lint', '--format', 'json'], web);
      expect(lint.code).toBe(1);
      const doc = JSON.parse(lint.stdout);
      const byPath = Object.fromEntries(doc.files.map((f: { path: string; findings: Array<{ ruleId: string }> }) => [f.path, f.findings.map((x) => x.ruleId)]));
      // The app's call and the client's base (with the other app on it, which must move with it); never apps/batch.
      // response-field: pause() hands the stop's answer, now the pod, to callers outside the run.
      expect(byPath).toEqual({ '../../packages/runpod-client/src/index.ts': ['base-url'], '../admin/src/registries.ts': ['resource-path'], 'src/pods.ts': ['pod-action', 'response-field'] });
      expect(lint.stderr).toContain('2 files beyond the paths named must move with them');
      // The same findings as a lint of the whole repository, for those files.
      type Listed = { path: string; findings: unknown[] };
      const whole = JSON.parse(cli(['lint', '--format', 'json'], dir).stdout);
      const fromRoot = (files: Listed[], from: string) => Object.fromEntries(files.map((f) => [path.relative(dir, path.join(from, f.path)), f.findings]).filter(([p]) => !String(p).startsWith('apps/batch/')));
      expect(fromRoot(whole.files, dir)).toEqual(fromRoot(doc.files, web));
    }, 30_000);
  }
});
