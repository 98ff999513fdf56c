import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateTree } from '../bench/generate.js';
import { cli, tempDir, tempProject } from './helpers.js';

/**
 * A malformed package.json, .gitignore or config below the root of a run never stops it: the folder
 * is analysed as if the file were not there, and a `malformed-config` warning says so where it can
 * matter. Only the config the run starts from (--config, or the one found from the first path up) is
 * a usage error.
 */
const BROKEN_JSON = '{\n  "name": "fixture",\n  "private": true,\n}\n';
const V1 = "export const stop = (id: string) => fetch(`https://rest.runpod.io/v1/pods/${id}/stop`, { method: 'POST' });\n";

const tree = (opts: Parameters<typeof generateTree>[1]): string => {
  const dir = tempDir('v2-migrate-malformed-');
  generateTree(dir, { ...opts, git: false });
  return dir;
};

type Report = { files: Array<{ path: string; changed: boolean; findings: Array<{ ruleId: string; severity: string; line: number; column: number; message: string }> }> };
const json = (args: string[], cwd: string): Report => JSON.parse(cli([...args, '--format', 'json'], cwd).stdout);
const plant = (dir: string, rel: string, content: string): void => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), content);
};

describe('a malformed file below the root of a run', () => {
  it('in a test fixture folder of the bench tree: lint stays clean and the dry run is unchanged', () => {
    const clean = tree({ packages: 2, files: 40, runpod: false, nodeModules: 20 });
    plant(clean, 'packages/account-0/test/fixtures/broken/package.json', BROKEN_JSON);
    plant(clean, 'packages/account-0/test/fixtures/broken/index.js', 'module.exports = 1;\n');
    const lint = cli(['lint', '.'], clean);
    expect(lint.code, lint.stdout + lint.stderr).toBe(0);
    expect(lint.stdout).toMatch(/0 errors, 0 warnings, 0 info/);

    const v1 = tree({ packages: 2, files: 40, runpod: true, runpodEvery: 1, nodeModules: 20 });
    const before = json(['--dry-run', '.'], v1);
    plant(v1, 'packages/account-0/test/fixtures/broken/package.json', BROKEN_JSON);
    plant(v1, 'packages/billing-1/test/fixtures/bad-config/v2-migrate.config.json', '{ "legacyBaseUrls": [');
    const after = json(['--dry-run', '.'], v1);
    // The fixture package.json governs nothing that mentions RunPod: not reported. A v2-migrate config
    // that does not parse is always reported; every other file's result is as before.
    expect(after.files.filter((f) => f.path.includes('fixtures/'))).toEqual([
      {
        path: 'packages/billing-1/test/fixtures/bad-config/v2-migrate.config.json',
        changed: false,
        findings: [expect.objectContaining({ ruleId: 'malformed-config', severity: 'warning', line: 1, column: 22, message: expect.stringContaining('does not parse (Unexpected end of JSON input)') })],
        suppressed: [],
      },
    ]);
    expect(after.files.filter((f) => !f.path.includes('fixtures/'))).toEqual(before.files);
  });

  it('next to RunPod code: analysed with the config above it, a warning in every format names the file and the parser message', () => {
    const dir = tempProject({
      'v2-migrate.config.json': JSON.stringify({ legacyBaseUrls: ['https://proxy.internal/v1'] }),
      'package.json': JSON.stringify({ name: 'root', private: true }),
      'app/package.json': BROKEN_JSON,
      'app/stop.ts': V1,
      'app/proxy.ts': "export const list = () => fetch('https://proxy.internal/v1/endpoints');\n",
      'lib/package.json': JSON.stringify({ name: 'lib', 'v2-migrate': { legacyBaseUrls: 'not a list' } }),
      'lib/stop.ts': V1,
      'docs/.gitignore/keep': '',
      'docs/stop.ts': V1,
      'quiet/package.json': '{ oops',
      'quiet/x.ts': 'export const x = 1;\n',
    });
    const doc = json(['lint', '.'], dir);
    const malformed = doc.files.filter((f) => f.findings.some((x) => x.ruleId === 'malformed-config'));
    expect(malformed.map((f) => f.path)).toEqual(['app/package.json', 'docs/.gitignore', 'lib/package.json']);
    expect(malformed[0]!.findings[0]).toMatchObject({ line: 4, column: 1, severity: 'warning' });
    expect(malformed[0]!.findings[0]!.message).toContain("does not parse (Expected double-quoted property name in JSON at position");
    expect(malformed[1]!.findings[0]!.message).toMatch(/This \.gitignore cannot be read \(EISDIR/);
    expect(malformed[2]!.findings[0]!.message).toContain('package.json "v2-migrate" config is invalid (legacyBaseUrls: ');
    // The folders are analysed: the root config (the proxy base) still applies under the broken package.json.
    expect(doc.files.find((f) => f.path === 'app/proxy.ts')!.changed).toBe(true);
    expect(doc.files.find((f) => f.path === 'lib/stop.ts')!.changed).toBe(true);
    expect(doc.files.find((f) => f.path === 'docs/stop.ts')!.changed).toBe(true);

    const text = cli(['lint', '.'], dir);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/app\/package\.json\n {2}4:1 {2}warning {2}This package\.json does not parse \(Expected double-quoted property name[^\n]*malformed-config/);
    for (const format of ['sarif', 'github', 'markdown']) {
      const out = cli(['lint', '--format', format, '.'], dir).stdout;
      expect(out, format).toContain('app/package.json');
      expect(out, format).toContain('Expected double-quoted property name');
      expect(out, format).toContain('malformed-config');
    }
    // The rule can be turned off like any other.
    fs.writeFileSync(path.join(dir, 'v2-migrate.config.json'), JSON.stringify({ legacyBaseUrls: ['https://proxy.internal/v1'], rules: { 'malformed-config': 'off' } }));
    expect(json(['lint', '.'], dir).files.flatMap((f) => f.findings).filter((x) => x.ruleId === 'malformed-config')).toEqual([]);
  });

  it('a tsconfig that does not parse: imports resolve as if it were absent, with a warning', () => {
    const dir = tempProject({
      'package.json': JSON.stringify({ name: 'root', private: true }),
      'svc/tsconfig.json': '{ "compilerOptions": { "baseUrl": "." ',
      'svc/base.ts': "export const BASE = 'https://rest.runpod.io/v1';\n",
      'svc/stop.ts': "import { BASE } from './base';\nexport const stop = (id: string) => fetch(`${BASE}/pods/${id}/stop`, { method: 'POST' });\n",
    });
    const doc = json(['--dry-run', '.'], dir);
    const warning = doc.files.find((f) => f.path === 'svc/tsconfig.json')!.findings;
    expect(warning).toEqual([expect.objectContaining({ ruleId: 'malformed-config', severity: 'warning', message: expect.stringMatching(/^This tsconfig\.json cannot be used \(.+\): the imports of the files below it are resolved as if it were not there/) })]);
    // The base moves with the request that reads it across the relative import.
    expect(doc.files.find((f) => f.path === 'svc/base.ts')!.changed).toBe(true);
  });

  it('the config the run starts from, or --config, is a usage error (exit 2)', () => {
    const dir = tempProject({ 'package.json': BROKEN_JSON, 'a.ts': V1, 'sub/v2-migrate.config.json': '{ "bogus": 1 }', 'sub/b.ts': V1, 'bad.json': '{' });
    const root = cli(['lint', '.'], dir);
    expect(root.code).toBe(2);
    expect(root.stderr).toContain('package.json: cannot read config (Expected double-quoted property name');
    expect(cli(['lint', '--config', 'bad.json', 'sub'], dir).code).toBe(2);
    // Started from sub/, its config is the run's own: checked strictly.
    const sub = cli(['lint', 'sub'], dir);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toMatch(/bogus/);
  });
});
