import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempProject } from './helpers.js';

/** Monorepos: each package's own config, imports of workspace packages followed, per-package summary. */
function monorepo(): string {
  return tempProject({
    'package.json': JSON.stringify({ private: true, workspaces: ['packages/*'] }),
    'packages/client/package.json': JSON.stringify({ name: '@acme/runpod-client', main: 'dist/index.js' }),
    'packages/client/src/index.ts':
      "const BASE = 'https://rest.runpod.io/v1';\nexport function runpod(method: string, path: string, body?: unknown) {\n  return fetch(`${BASE}${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });\n}\n",
    'packages/app/package.json': JSON.stringify({ name: 'app' }),
    'packages/app/src/jobs.ts':
      "import { runpod } from '@acme/runpod-client';\nexport const stop = (id: string) => runpod('POST', `/pods/${id}/stop`);\nexport const volumes = () => runpod('DELETE', '/networkvolumes/v1');\n",
    'packages/legacy/package.json': JSON.stringify({ name: 'legacy' }),
    'packages/legacy/v2-migrate.config.json': JSON.stringify({ legacyBaseUrls: ['https://runpod-proxy.internal/v1'], ignore: ['src/skip.ts'] }),
    'packages/legacy/src/l.ts': "export const l = () => fetch('https://runpod-proxy.internal/v1/endpoints/e1', { method: 'DELETE' });\n",
    'packages/legacy/src/skip.ts': "export const s = () => fetch('https://rest.runpod.io/v1/endpoints');\n",
  });
}

describe('monorepo', () => {
  it('follows workspace package imports, applies each package’s config, and summarises per package', () => {
    const dir = monorepo();
    const lint = cli(['lint'], dir);
    // Columns on a file's first line are the file's own, whatever its place in the run.
    const doc = JSON.parse(cli(['lint', '--format', 'json'], dir).stdout);
    const base = doc.files.find((f: { path: string }) => f.path === 'packages/client/src/index.ts').findings[0];
    expect(base).toMatchObject({ ruleId: 'base-url', line: 1, column: 14 });
    expect(lint.stdout).toMatch(/package\s+files\s+changed\s+errors\s+warnings\s+fixable/);
    expect(lint.stdout).toMatch(/packages\/legacy\s+1\s+1/);
    const write = cli([], dir);
    expect(write.code, write.stdout).toBe(0);
    const jobs = fs.readFileSync(path.join(dir, 'packages/app/src/jobs.ts'), 'utf8');
    expect(jobs).toContain("runpod('POST', `/pods/${id}/action`, { action: 'stop' })");
    expect(jobs).toContain("runpod('DELETE', '/network-volumes/v1')");
    expect(fs.readFileSync(path.join(dir, 'packages/client/src/index.ts'), 'utf8')).toContain("'https://api.runpod.io/v2'");
    expect(fs.readFileSync(path.join(dir, 'packages/legacy/src/l.ts'), 'utf8')).toContain("'https://api.runpod.io/v2/serverless/e1'");
    // The legacy package's ignore (relative to its config) keeps skip.ts out.
    expect(fs.readFileSync(path.join(dir, 'packages/legacy/src/skip.ts'), 'utf8')).toContain('rest.runpod.io/v1');
    expect(cli(['lint', '--format', 'markdown'], dir).stdout).not.toContain('## Packages');
  }, 30_000);
});
