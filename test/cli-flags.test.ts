/**
 * The flags ESLint, jscodeshift and ast-grep users reach for: -o, --color/--no-color,
 * --ignore-pattern, --stdin with --stdin-filename, --print-config, --rule, the changed files of a
 * write in --format json, and strict checks of flag values (exit 2 with a message naming the flag).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cli, tempProject } from './helpers.js';

const STOP = `const BASE = 'https://rest.runpod.io/v1';
export const stop = (id: string) => fetch(\`\${BASE}/pods/\${id}/stop\`, { method: 'POST' });
`;
const LIST = "export const list = () => fetch('https://rest.runpod.io/v1/endpoints');\n";
const ESC = '\u001b[';

function withStdin(args: string[], cwd: string, input: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, input, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('strict flag values', () => {
  const dir = tempProject({ 'a.ts': LIST });
  const cases: Array<[string[], RegExp]> = [
    [['--base-url', 'ftp://runpod.example/v2'], /--base-url: ftp:\/\/runpod\.example\/v2 is not an http\(s\) URL/],
    [['lint', '--max-warnings', 'abc'], /--max-warnings must be a whole number, or -1 for no limit \(got "abc"\)/],
    [['lint', '--max-warnings', '2.5'], /--max-warnings must be a whole number/],
    [['lint', '--max-warnings='], /--max-warnings needs a value/],
    [['--legacy-base-url', 'https://api.runpod.ai/v2'], /--legacy-base-url: https:\/\/api\.runpod\.ai\/v2 is the serverless job API/],
    [['--legacy-base-url', 'https://api.runpod.io/v2'], /is the REST v2 base/],
    [['--base-url', 'https://rest.runpod.io/v1'], /is the retired REST v1 base/],
    [['--base-url', 'https://api.runpod.io/graphql'], /GraphQL/],
    [['--base-url='], /--base-url needs a value \(got an empty one\)/],
    [['--config', ''], /--config needs a value/],
    [['--base-url'], /Not enough arguments following: base-url/],
    [['lint', '--jobs', 'two'], /--jobs must be a whole number of at least 1/],
    [['--rule', 'pod-acton'], /--rule: unknown rule id "pod-acton"/],
    [['--stdin'], /--stdin needs --stdin-filename/],
    [['--stdin-filename', 'a.ts'], /add --stdin/],
    [['--stdin', '--stdin-filename', 'a.ts', 'src'], /drop the paths/],
    [['lint', '--baseline', 'b.json', '--update-baseline', '--rule', 'base-url'], /--update-baseline records every finding: drop --rule/],
  ];
  for (const [args, message] of cases) {
    it(`${args.join(' ')} is a usage error`, () => {
      const r = cli(args, dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain('Run v2-migrate --help for usage.');
    });
  }

  it('a legacy base in the config that is the job-API host is a config error naming the key', () => {
    const bad = tempProject({ 'a.ts': LIST, 'v2-migrate.config.json': '{ "legacyBaseUrls": ["https://api.runpod.ai/v2"] }' });
    const r = cli(['lint'], bad);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/legacyBaseUrls\.0: https:\/\/api\.runpod\.ai\/v2 is the serverless job API/);
  });
});

describe('-o/--output-file, --color, --no-color', () => {
  it('writes the report to the file (folders made), nothing on stdout, same exit code', () => {
    const dir = tempProject({ 'a.ts': LIST });
    const r = cli(['lint', '--format', 'json', '-o', 'reports/v2.json'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'reports/v2.json'), 'utf8'));
    expect(report.files[0].findings.map((f: { ruleId: string }) => f.ruleId)).toContain('base-url');
    expect(cli(['rules', '--format', 'json', '--output-file', 'rules.json'], dir).stdout).toBe('');
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'rules.json'), 'utf8')).rules.length).toBeGreaterThan(10);
  });

  it('--color colors the text report even into a pipe with NO_COLOR; --no-color never does', () => {
    const dir = tempProject({ 'a.ts': LIST });
    expect(cli(['lint', '--color'], dir).stdout).toContain(ESC);
    expect(cli(['lint', '--no-color'], dir).stdout).not.toContain(ESC);
    expect(cli(['lint', '--color', '-o', 'r.txt'], dir).stdout).toBe('');
    expect(fs.readFileSync(path.join(dir, 'r.txt'), 'utf8')).toContain(ESC);
  });
});

describe('--ignore-pattern', () => {
  it('skips matching files (repeatable, relative to the current directory), added to the config ignore', () => {
    const dir = tempProject({ 'src/a.ts': LIST, 'legacy/b.ts': LIST, 'scripts/c.ts': LIST, 'v2-migrate.config.json': '{ "ignore": ["scripts/**"] }' });
    const r = cli(['lint', '--format', 'json', '--ignore-pattern', 'legacy/**'], dir);
    expect(JSON.parse(r.stdout).files.map((f: { path: string }) => f.path)).toEqual(['src/a.ts']);
    const both = cli(['lint', '--ignore-pattern', 'legacy/**', '--ignore-pattern', 'src/a.ts'], dir);
    expect(both.code).toBe(0);
  });
});

describe('--stdin with --stdin-filename', () => {
  it('lints the text as that file, with its imports read from disk', () => {
    const dir = tempProject({
      'src/http.ts': "const BASE = 'https://rest.runpod.io/v1';\nexport const api = (method: string, p: string) => fetch(BASE + p, { method });\n",
      'src/pods.ts': '// saved version: nothing yet\n',
    });
    const text = "import { api } from './http';\nexport const stop = (id: string) => api('POST', `/pods/${id}/stop`);\n";
    const r = withStdin(['lint', '--stdin', '--stdin-filename', 'src/pods.ts', '--format', 'json'], dir, text);
    const report = JSON.parse(r.stdout);
    expect(report.files.map((f: { path: string }) => f.path)).toEqual(['src/pods.ts']);
    expect(report.files[0].findings.map((f: { ruleId: string; line: number }) => `${f.ruleId}@${f.line}`)).toEqual(['pod-action@2']);
    expect(fs.readFileSync(path.join(dir, 'src/pods.ts'), 'utf8')).toBe('// saved version: nothing yet\n');
  });

  it('a write prints the migrated text on stdout (report on stderr) and writes no file; a second pass changes nothing', () => {
    const dir = tempProject({ 'src/a.ts': '// on disk\n' });
    const first = withStdin(['--stdin', '--stdin-filename', 'src/a.ts'], dir, STOP);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("'https://api.runpod.io/v2'");
    expect(first.stdout).toContain("body: JSON.stringify({ action: 'stop' })");
    expect(first.stderr).toContain('1 file scanned');
    expect(fs.readFileSync(path.join(dir, 'src/a.ts'), 'utf8')).toBe('// on disk\n');
    const second = withStdin(['--stdin', '--stdin-filename', 'src/a.ts'], dir, first.stdout);
    expect(second.stdout).toBe(first.stdout);
    const dry = withStdin(['--dry-run', '--stdin', '--stdin-filename', 'src/a.ts'], dir, STOP);
    expect(dry.code).toBe(1);
    expect(dry.stdout).toContain('--- a/src/a.ts\n+++ b/src/a.ts');
  });

  it('does not apply a change that goes with changes to other files, and says so', () => {
    const dir = tempProject({
      'src/constants.ts': "export const BASE = 'https://rest.runpod.io/v1';\n",
      'src/pods.ts': "import { BASE } from './constants';\nexport const list = () => fetch(`${BASE}/endpoints`);\n",
    });
    const text = fs.readFileSync(path.join(dir, 'src/pods.ts'), 'utf8');
    const r = withStdin(['--stdin', '--stdin-filename', 'src/pods.ts'], dir, text);
    expect(r.stdout).toBe(text);
    expect(r.stderr).toContain('src/pods.ts changes together with src/constants.ts');
    expect(r.code).toBe(1);
  });

  it('reads text-engine files too (by the filename)', () => {
    const dir = tempProject({});
    const r = withStdin(['lint', '--stdin', '--stdin-filename', 'deploy.sh', '--format', 'json'], dir, 'curl -X POST https://rest.runpod.io/v1/pods/abc/stop\n');
    expect(JSON.parse(r.stdout).files[0].path).toBe('deploy.sh');
    expect(r.code).toBe(1);
  });
});

describe('--print-config <file>', () => {
  it("prints the file's merged settings: its package config, the flags, every rule", () => {
    const dir = tempProject({
      'v2-migrate.config.json': '{ "rules": { "v1-default": "off" } }',
      'packages/api/v2-migrate.config.json': '{ "legacyBaseUrls": ["https://proxy.internal/v1"], "rules": { "embedded-url": "error" } }',
      'packages/api/src/a.ts': LIST,
    });
    const r = cli(['--print-config', 'packages/api/src/a.ts', '--base-url', 'https://gw.internal/v2', '--rule', 'embedded-url,base-url'], dir);
    expect(r.code).toBe(0);
    const config = JSON.parse(r.stdout);
    expect(config.configFile).toBe('packages/api/v2-migrate.config.json');
    expect(config.legacyBaseUrls).toEqual(['https://rest.runpod.io/v1', 'https://proxy.internal/v1']);
    expect(config.baseUrl).toBe('https://gw.internal/v2');
    expect(config.rules['embedded-url']).toBe('error');
    expect(config.rules['base-url']).toBe('error');
    expect(config.rules['pod-action']).toBe('off');
  });
});

describe('--rule', () => {
  it('lint reports only the chosen rules', () => {
    const dir = tempProject({ 'a.ts': STOP });
    const report = JSON.parse(cli(['lint', '--format', 'json', '--rule', 'pod-action'], dir).stdout);
    expect(report.files[0].findings.map((f: { ruleId: string }) => f.ruleId)).toEqual(['pod-action']);
  });

  it('applies a change only where every fix in it (and in files whose changes go with it) belongs to the chosen rules', () => {
    // index.ts imports both: one component, but no request spans the two files, so their changes are apart.
    const dir = tempProject({ 'paths.ts': LIST, 'stop.ts': STOP, 'index.ts': "export * from './paths';\nexport * from './stop';\n" });
    const r = cli(['--rule', 'resource-path,base-url', '--format', 'json'], dir);
    const report = JSON.parse(r.stdout);
    expect(report.changedFiles).toEqual(['paths.ts']);
    expect(fs.readFileSync(path.join(dir, 'paths.ts'), 'utf8')).toContain("'https://api.runpod.io/v2/serverless'");
    expect(fs.readFileSync(path.join(dir, 'stop.ts'), 'utf8')).toBe(STOP);
    expect(r.stderr).toContain('--rule left stop.ts unchanged: its change also needs pod-action');
    expect(r.code).toBe(1);
  });
});

describe('a change that needs the generated adapter file (runpod-v2-adapters)', () => {
  // A body built at run time: the fix wraps it in toV2CreatePodBody(…), which lives in a file the run writes.
  const CREATE = "const API = 'https://rest.runpod.io/v1';\nexport const createPod = (spec) => fetch(`${API}/pods`, { method: 'POST', body: JSON.stringify(spec) });\n";
  const MORE = "const API = 'https://rest.runpod.io/v1';\nexport const makePod = (s) => fetch(`${API}/pods`, { method: 'POST', body: JSON.stringify(s) });\n";
  const ADAPTERS = 'src/runpod-v2-adapters.mjs';
  const findingsOf = (stdout: string) => (JSON.parse(stdout).files as Array<{ path: string; findings: Array<{ ruleId: string; line: number; column: number; message: string }> }>).flatMap((f) => f.findings.map((x) => `${f.path}:${x.line}:${x.column} ${x.ruleId} ${x.message}`));

  it('--stdin reports what lint reports, and applies the change only once the adapter file exports the adapter it needs', () => {
    const dir = tempProject({ 'package.json': '{ "type": "module" }', 'src/pods.js': CREATE });
    const lint = findingsOf(cli(['lint', '--format', 'json'], dir).stdout);
    expect(lint.some((f) => / body-adapter /.test(f))).toBe(true);
    expect(findingsOf(withStdin(['lint', '--stdin', '--stdin-filename', 'src/pods.js', '--format', 'json'], dir, CREATE).stdout)).toEqual(lint);
    // The file does not exist yet: standard output carries one file, so nothing is applied.
    const held = withStdin(['--stdin', '--stdin-filename', 'src/pods.js'], dir, CREATE);
    expect(held.stdout).toBe(CREATE);
    expect(held.stderr).toContain(`src/pods.js changes together with ${ADAPTERS}`);
    expect(fs.existsSync(path.join(dir, ADAPTERS))).toBe(false);
    // A run writes it (exit 1: the created pod goes to callers outside the run, a response-field warning);
    // a new file needing the same adapter then migrates alone, as a run would write it.
    expect(cli([], dir).code).toBe(1);
    const adapters = fs.readFileSync(path.join(dir, ADAPTERS), 'utf8');
    const piped = withStdin(['--stdin', '--stdin-filename', 'src/more.js'], dir, MORE);
    expect(piped.stderr).not.toContain('changes together');
    expect(piped.stdout).toContain('JSON.stringify(toV2CreatePodBody(s))');
    fs.writeFileSync(path.join(dir, 'src/more.js'), MORE);
    cli([], dir);
    expect(fs.readFileSync(path.join(dir, 'src/more.js'), 'utf8')).toBe(piped.stdout);
    expect(fs.readFileSync(path.join(dir, ADAPTERS), 'utf8')).toBe(adapters);
  });

  it('--rule writes the adapter file only with the body-adapter fixes that use it', () => {
    const dir = tempProject({ 'package.json': '{ "type": "module" }', 'src/pods.js': CREATE });
    const only = cli(['--rule', 'base-url', '--format', 'json'], dir);
    expect(JSON.parse(only.stdout).changedFiles).toEqual([]);
    expect(only.stderr).toContain('--rule left src/pods.js unchanged: its change also needs body-adapter');
    expect(fs.existsSync(path.join(dir, ADAPTERS))).toBe(false);
    const both = cli(['--rule', 'base-url,body-adapter', '--format', 'json'], dir);
    expect(JSON.parse(both.stdout).changedFiles).toEqual(['src/pods.js', ADAPTERS]);
    expect(fs.readFileSync(path.join(dir, 'src/pods.js'), 'utf8')).toContain('toV2CreatePodBody(spec)');
  });
});

describe('--format json lists the files a write changed', () => {
  it('changedFiles: written files in a write, files that would change in a dry run', () => {
    const dir = tempProject({ 'a.ts': LIST, 'b.ts': "export const x = 'unrelated';\n", 'c.ts': STOP });
    const dry = JSON.parse(cli(['--dry-run', '--format', 'json'], dir).stdout);
    expect(dry.changedFiles).toEqual(['a.ts', 'c.ts']);
    const write = JSON.parse(cli(['--format', 'json'], dir).stdout);
    expect(write.changedFiles).toEqual(['a.ts', 'c.ts']);
    expect(JSON.parse(cli(['--format', 'json'], dir).stdout).changedFiles).toEqual([]);
  });
});
