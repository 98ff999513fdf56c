import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, git, tempDir, tempProject } from './helpers.js';

/** --changed-since, --shard + merge-reports, --cache (issue: PR gate for monorepos). */
function monorepo(): string {
  const files: Record<string, string> = {};
  for (const p of ['alpha', 'beta', 'gamma', 'delta', 'epsilon']) {
    files[`packages/${p}/package.json`] = JSON.stringify({ name: p });
    files[`packages/${p}/src/api.ts`] = "export const BASE = 'https://rest.runpod.io/v1';\nexport const call = (path: string) => fetch(BASE + path, { method: 'DELETE' });\n";
    files[`packages/${p}/src/use.ts`] = "import { call } from './api';\nexport const del = (id: string) => call(`/endpoints/${id}`);\n";
  }
  const dir = tempProject(files);
  git(dir, 'init', '-q');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'init');
  return dir;
}

const json = (dir: string, ...args: string[]) => JSON.parse(cli([...args, '--format', 'json'], dir).stdout);

describe('PR gate', () => {
  it('--changed-since reports only changed files, with the files they need still read', () => {
    const dir = monorepo();
    fs.writeFileSync(path.join(dir, 'packages/beta/src/use.ts'), "import { call } from './api';\nexport const del = (id: string) => call(`/networkvolumes/${id}`);\n");
    const doc = json(dir, 'lint', '--changed-since', 'HEAD');
    expect(doc.files.map((f: { path: string }) => f.path)).toEqual(['packages/beta/src/use.ts']);
    expect(doc.files[0].findings.map((f: { ruleId: string }) => f.ruleId)).toContain('resource-path');
    expect(cli(['lint', '--changed-since', 'no-such-ref'], dir).code).toBe(2);
  }, 30_000);

  it('--shard i/n covers every file exactly once, and merge-reports equals a single run', () => {
    const dir = monorepo();
    const single = json(dir, 'lint');
    const reportDir = tempDir('v2-migrate-shard-');
    const reports = [1, 2, 3].map((i) => {
      const file = path.join(reportDir, `shard-${i}.json`);
      fs.writeFileSync(file, cli(['lint', '--shard', `${i}/3`, '--format', 'json'], dir).stdout);
      return file;
    });
    const parts = reports.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')).files.map((x: { path: string }) => x.path));
    const all = parts.flat();
    expect(new Set(all).size).toBe(all.length);
    // Package-aware: a package's files stay together.
    for (const p of parts) for (const f of p) expect(p.filter((g: string) => g.split('/')[1] === f.split('/')[1]).length).toBe(2);
    const merged = cli(['merge-reports', ...reports], dir);
    expect(merged.code).toBe(1);
    expect(JSON.parse(merged.stdout)).toEqual(single);
    expect(cli(['merge-reports', reports[0]!, reports[0]!], dir).code).toBe(2);
    // A missing shard is named, never a green merge over files nobody analysed.
    const missing = cli(['merge-reports', reports[0]!, reports[2]!], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('shard 2/3 missing');
    // --format is honoured: the merged gate as annotations, same findings as one run's.
    const annotations = cli(['merge-reports', '--format', 'github', ...reports], dir);
    expect(annotations.code).toBe(1);
    expect(annotations.stdout).toBe(cli(['lint', '--format', 'github'], dir).stdout);
    expect(cli(['lint', '--shard', '4/3'], dir).code).toBe(2);
  }, 30_000);

  it('--cache gives the same report and notices a changed file', () => {
    const dir = monorepo();
    const cacheDir = tempDir('v2-migrate-cache-');
    fs.appendFileSync(path.join(dir, 'packages/alpha/src/api.ts'), "export const token = 'rp_SECRET_kept_out_of_the_cache';\n");
    const first = cli(['--dry-run', '--cache', '--cache-location', cacheDir], dir).stdout;
    expect(first).toContain('+++ b/packages/alpha/src/api.ts');
    expect(fs.readdirSync(cacheDir).length).toBeGreaterThan(0);
    // The cache holds hashes, findings and the lines a migration writes, never the rest of a file; owner-only files.
    for (const f of fs.readdirSync(cacheDir)) expect(fs.readFileSync(path.join(cacheDir, f), 'utf8')).not.toContain('rp_SECRET');
    if (process.platform !== 'win32') for (const f of fs.readdirSync(cacheDir)) expect(fs.statSync(path.join(cacheDir, f)).mode & 0o077).toBe(0);
    expect(cli(['--dry-run', '--cache', '--cache-location', cacheDir], dir).stdout).toBe(first);
    fs.writeFileSync(path.join(dir, 'packages/alpha/src/use.ts'), "import { call } from './api';\nexport const del = (id: string) => call(`/templates/${id}`);\n");
    const after = cli(['--dry-run', '--cache', '--cache-location', cacheDir], dir).stdout;
    expect(after).not.toContain('+export const del = (id: string) => call(`/serverless/${id}`);\n diff --git a/packages/alpha');
    expect(after).toContain('packages/alpha/src/api.ts');
    expect(after).not.toContain('+++ b/packages/alpha/src/use.ts');
    expect(cli(['--dry-run'], dir).stdout).toBe(after);
  }, 30_000);

  it('--cache-location inside the tree is never walked (its reports would count as scanned files)', () => {
    const dir = monorepo();
    const plain = cli(['lint', '--format', 'json'], dir).stdout;
    cli(['lint', '--cache', '--cache-location', 'v2m-cache'], dir);
    expect(fs.readdirSync(path.join(dir, 'v2m-cache')).length).toBeGreaterThan(0);
    const cached = cli(['lint', '--format', 'json', '--cache', '--cache-location', 'v2m-cache'], dir).stdout;
    expect(JSON.parse(cached).summary).toEqual(JSON.parse(plain).summary);
  }, 30_000);
});
