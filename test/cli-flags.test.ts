/**
 * The flags ESLint, jscodeshift and ast-grep users reach for: -o, --color/--no-color,
 * --ignore-pattern, --stdin with --stdin-filename, --print-config, --rule, the changed files of a
 * write in --format json, and strict checks of flag values (exit 2 with a message naming the flag).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cli, git, tempDir, tempProject } from './helpers.js';

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

  it('a base URL with a query string or a fragment is refused, from a flag or the config', () => {
    const tail = ': request paths are appended to a base, so it cannot carry one\nRun v2-migrate --help for usage.\n';
    const query = cli(['--dry-run', '--base-url', 'https://gw.internal/v2?token=x', 'a.ts'], dir);
    expect([query.code, query.stdout, query.stderr]).toEqual([2, '', `v2-migrate: --base-url: https://gw.internal/v2?token=x has a query string (?token=x)${tail}`]);
    const fragment = cli(['lint', '--legacy-base-url', 'https://proxy.internal/v1#api', 'a.ts'], dir);
    expect([fragment.code, fragment.stderr]).toEqual([2, `v2-migrate: --legacy-base-url: https://proxy.internal/v1#api has a fragment (#api)${tail}`]);
    const bare = cli(['lint', '--base-url', 'https://gw.internal/v2?'], dir);
    expect(bare.stderr).toBe(`v2-migrate: --base-url: https://gw.internal/v2? has a query string (?)${tail}`);
    const configured = tempProject({ 'a.ts': LIST, 'v2-migrate.config.json': '{ "baseUrl": "https://gw.internal/v2?key=1" }' });
    const r = cli(['lint'], configured);
    expect([r.code, r.stderr]).toEqual([2, `v2-migrate: ${path.join(configured, 'v2-migrate.config.json')}: baseUrl: https://gw.internal/v2?key=1 has a query string (?key=1)${tail}`]);
  });

  it('a config key naming an object prototype is refused, never dropped: rules.__proto__, gpuPools.__proto__', () => {
    const cases: Array<[string, string]> = [
      ['{ "rules": { "__proto__": "off" } }', 'rules.__proto__: unknown rule id "__proto__"'],
      ['{ "rules": { "constructor": "off", "base-url": "warning" } }', 'rules.constructor: unknown rule id "constructor"'],
      ['{ "gpuPools": { "__proto__": "ADA_24" } }', 'gpuPools.__proto__: a key named "__proto__" is not allowed (JavaScript reads it as the object\'s prototype)'],
    ];
    for (const [config, issue] of cases) {
      const project = tempProject({ 'a.ts': LIST, 'v2-migrate.config.json': config });
      const r = cli(['lint'], project);
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `v2-migrate: ${path.join(project, 'v2-migrate.config.json')}: ${issue}\nRun v2-migrate --help for usage.\n`]);
    }
  });

  it('a legacy base in the config that is the job-API host is a config error naming the key', () => {
    const bad = tempProject({ 'a.ts': LIST, 'v2-migrate.config.json': '{ "legacyBaseUrls": ["https://api.runpod.ai/v2"] }' });
    const r = cli(['lint'], bad);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/legacyBaseUrls\.0: https:\/\/api\.runpod\.ai\/v2 is the serverless job API/);
  });
});

describe('a repeatable flag takes one value: the words after it are paths', () => {
  const PROXY_LIST = "export const list = () => fetch('https://proxy.internal/v1/endpoints');\n";
  const filesOf = (stdout: string): string[] => (JSON.parse(stdout).files as Array<{ path: string }>).map((f) => f.path);
  const rulesOf = (stdout: string): string[] => (JSON.parse(stdout).files as Array<{ findings: Array<{ ruleId: string }> }>).flatMap((f) => f.findings.map((x) => x.ruleId));

  it('--legacy-base-url URL src/ migrates that base in src/ only', () => {
    const dir = tempProject({ 'src/a.ts': PROXY_LIST, 'other/b.ts': PROXY_LIST });
    const r = cli(['lint', '--format', 'json', '--legacy-base-url', 'https://proxy.internal/v1', 'src/'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(filesOf(r.stdout)).toEqual(['src/a.ts']);
    expect(rulesOf(r.stdout)).toContain('base-url');
    const two = cli(['lint', '--format', 'json', '--legacy-base-url', 'https://proxy.internal/v1', '--legacy-base-url', 'https://mirror.internal/v1', 'src/'], dir);
    expect(filesOf(two.stdout)).toEqual(['src/a.ts']);
  });

  it('--ignore-pattern GLOB src skips the glob and runs on src', () => {
    const dir = tempProject({ 'src/a.ts': LIST, 'src/legacy/b.ts': LIST, 'other/c.ts': LIST });
    const r = cli(['lint', '--format', 'json', '--ignore-pattern', 'src/legacy/**', 'src'], dir);
    expect(r.code).toBe(1);
    expect(filesOf(r.stdout)).toEqual(['src/a.ts']);
  });

  it('--rule ID src runs that rule on src', () => {
    const dir = tempProject({ 'src/a.ts': STOP, 'other/b.ts': STOP });
    const r = cli(['lint', '--format', 'json', '--rule', 'pod-action', 'src'], dir);
    expect(r.code).toBe(1);
    expect(filesOf(r.stdout)).toEqual(['src/a.ts']);
    expect(rulesOf(r.stdout)).toEqual(['pod-action']);
  });
});

describe('--cache-location: a folder of its own', () => {
  const usage = (message: string): string => `v2-migrate: ${message}\nRun v2-migrate --help for usage.\n`;

  it.runIf(fs.existsSync('/proc/self'))('a folder that cannot be made (/proc/nope) is a usage error, not a hang', () => {
    const dir = tempProject({ 'src/a.ts': LIST });
    const r = spawnSync(process.execPath, [BIN, 'lint', '--cache', '--cache-location', '/proc/nope', 'src'], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
    expect(r.signal).toBe(null);
    expect([r.status, r.stdout, r.stderr]).toEqual([2, '', usage("--cache-location /proc/nope cannot be made (ENOENT: no such file or directory, mkdir '/proc/nope')")]);
  });

  it('a folder the run is asked about (or above it) is refused: its files would go unchecked', () => {
    const dir = tempProject({ 'src/a.ts': LIST });
    const same = cli(['lint', '--cache', '--cache-location', 'src', 'src'], dir);
    expect([same.code, same.stdout, same.stderr]).toEqual([2, '', usage('--cache-location src would hide src from the run (it never looks inside its cache folder): choose a folder of its own')]);
    const above = cli(['lint', '--cache', '--cache-location', '.', 'src/a.ts'], dir);
    expect([above.code, above.stderr]).toEqual([2, usage('--cache-location . would hide src/a.ts from the run (it never looks inside its cache folder): choose a folder of its own')]);
  });

  it('a folder holding anything but cache files, or a file, is refused', () => {
    const dir = tempProject({ 'src/a.ts': LIST, 'lib/b.ts': LIST, 'lib/README.md': '# lib\n', 'notes.txt': 'x\n' });
    const lib = cli(['lint', '--cache', '--cache-location', 'lib'], dir);
    expect([lib.code, lib.stdout, lib.stderr]).toEqual([2, '', usage('--cache-location lib holds entries that are not v2-migrate cache files (README.md, b.ts): the run never looks inside its cache folder, so they would go unchecked; choose an empty or new folder')]);
    const file = cli(['lint', '--cache', '--cache-location', 'notes.txt'], dir);
    expect([file.code, file.stderr]).toEqual([2, usage('--cache-location notes.txt is a file, not a folder')]);
  });

  it('a new folder is made owner-only, and a run on the same tree is reused from it', () => {
    const dir = tempProject({ 'src/a.ts': LIST });
    const first = cli(['lint', '--format', 'json', '--cache', '--cache-location', '.cache/v2-migrate'], dir);
    expect(first.code).toBe(1);
    expect(fs.statSync(path.join(dir, '.cache/v2-migrate')).mode & 0o777).toBe(0o700);
    const again = cli(['lint', '--format', 'json', '--cache', '--cache-location', '.cache/v2-migrate'], dir);
    expect([again.code, again.stdout]).toEqual([1, first.stdout]);
  });
});

describe('git missing, or without what --changed-since compares', () => {
  const usage = (message: string): string => `v2-migrate: ${message}\nRun v2-migrate --help for usage.\n`;
  const NO_GIT_NOTE = "v2-migrate: git is not on PATH, so git's own ignore settings (.git/info/exclude, core.excludesFile) were not applied; .gitignore files were.\n";
  /** A committed work tree, and a PATH on which there is node and no git. */
  const committed = (): { dir: string; noGit: Record<string, string> } => {
    const dir = tempProject({ 'src/a.ts': LIST });
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'init');
    const bin = tempDir();
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    return { dir, noGit: { PATH: bin } };
  };

  it('no git on PATH: --changed-since and a write stop with one line; lint goes on with a note', () => {
    const { dir, noGit } = committed();
    const changed = cli(['lint', '--changed-since', 'main'], dir, noGit);
    expect([changed.code, changed.stdout, changed.stderr]).toEqual([2, '', usage('--changed-since main needs git, which is not on PATH: install git, or drop --changed-since')]);
    const write = cli([], dir, noGit);
    expect([write.code, write.stdout, write.stderr]).toEqual([2, '', usage('refusing to rewrite files in a git work tree: git is not on PATH, so v2-migrate cannot tell which have uncommitted changes (install git, or pass --allow-dirty)')]);
    expect(fs.readFileSync(path.join(dir, 'src/a.ts'), 'utf8')).toBe(LIST);
    const lint = cli(['lint', '--format', 'json'], dir, noGit);
    expect([lint.code, lint.stderr]).toEqual([1, NO_GIT_NOTE]);
    expect(JSON.parse(lint.stdout).files.map((f: { path: string }) => f.path)).toEqual(['src/a.ts']);
    const forced = cli(['--allow-dirty', '--format', 'json'], dir, noGit);
    expect([forced.code, JSON.parse(forced.stdout).changedFiles, forced.stderr]).toEqual([1, ['src/a.ts'], NO_GIT_NOTE]);
  });

  it('a ref git does not know, or one that is an option, is named in one line', () => {
    const { dir } = committed();
    const unknown = cli(['lint', '--changed-since', 'no-such-ref'], dir);
    expect([unknown.code, unknown.stdout, unknown.stderr]).toEqual([2, '', usage('--changed-since no-such-ref: no commit no-such-ref in this repository (a branch, tag or commit it has; fetch a remote branch first)')]);
    const option = cli(['lint', '--changed-since=--output=diff.txt'], dir);
    expect([option.code, option.stderr]).toEqual([2, usage('--changed-since --output=diff.txt: not a git ref')]);
    // git diff would have read it as its --output option and written diff.txt...HEAD.
    expect(fs.readdirSync(dir).sort()).toEqual(['.git', 'src']);
  });

  it('a shallow clone without the ref, or without the commit HEAD branched from, says to fetch the history', () => {
    const { dir: origin } = committed();
    fs.writeFileSync(path.join(origin, 'b.ts'), 'export {};\n');
    git(origin, 'add', '.');
    git(origin, 'commit', '-qm', 'second');
    git(origin, 'checkout', '-qb', 'feature');
    fs.writeFileSync(path.join(origin, 'c.ts'), 'export {};\n');
    git(origin, 'add', '.');
    git(origin, 'commit', '-qm', 'feature');
    const clone = path.join(tempDir(), 'clone');
    git(origin, 'clone', '-q', '--depth', '1', '--branch', 'feature', `file://${origin}`, clone);
    const missing = cli(['lint', '--changed-since', 'origin/main'], clone);
    expect([missing.code, missing.stdout, missing.stderr]).toEqual([2, '', usage('--changed-since origin/main: origin/main is not in this shallow clone: in GitHub Actions check out with fetch-depth: 0; elsewhere fetch the history (git fetch --unshallow) and the branch')]);
    git(clone, 'fetch', '-q', '--depth', '1', 'origin', 'main:refs/remotes/origin/main');
    const apart = cli(['lint', '--changed-since', 'origin/main'], clone);
    expect([apart.code, apart.stderr]).toEqual([2, usage('--changed-since origin/main: this shallow clone does not reach the commit HEAD branched from origin/main: in GitHub Actions check out with fetch-depth: 0; elsewhere fetch the history (git fetch --unshallow)')]);
    git(clone, 'fetch', '-q', '--unshallow', 'origin');
    const full = cli(['lint', '--format', 'json', '--changed-since', 'origin/main'], clone);
    expect([full.code, full.stderr, JSON.parse(full.stdout).files]).toEqual([0, '', []]);
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

describe('--rule makes the fixes of its rules, without planning again', () => {
  it("a file's other requests keep their text: a fix is made when every finding it carries is of a chosen rule", () => {
    const DELETE = "export const del = (id: string) => fetch('https://rest.runpod.io/v1/pods/' + id, { method: 'DELETE' });\n";
    const dir = tempProject({ 'a.ts': STOP + DELETE });
    const r = cli(['--rule', 'base-url', '--format', 'json'], dir);
    expect(JSON.parse(r.stdout).changedFiles).toEqual(['a.ts']);
    // STOP's base moves only with its path (base-url and pod-action share one fix): it stays, and stderr says why.
    expect(fs.readFileSync(path.join(dir, 'a.ts'), 'utf8')).toBe(STOP + DELETE.replace('https://rest.runpod.io/v1', 'https://api.runpod.io/v2'));
    expect(r.stderr).toContain('v2-migrate: --rule left part of a.ts unchanged: those fixes also need pod-action (add that rule to apply them together).\n');
    const report = JSON.parse(cli(['lint', '--format', 'json'], dir).stdout);
    expect(report.files[0].findings.map((f: { ruleId: string; line: number; fixable: boolean }) => [f.ruleId, f.line, f.fixable])).toEqual([
      ['base-url', 1, true],
      ['pod-action', 2, true],
    ]);
  });
});

describe('--rule in the text engine', () => {
  it("a request's facts go together: its base moves only with its path, another request's fix is made alone", () => {
    const SCRIPT = 'curl -X POST https://rest.runpod.io/v1/pods/abc/stop\ncurl https://rest.runpod.io/v1/endpoints\n';
    const dir = tempProject({ 'deploy.sh': SCRIPT });
    const r = cli(['--rule', 'resource-path,base-url', '--format', 'json'], dir);
    expect(fs.readFileSync(path.join(dir, 'deploy.sh'), 'utf8')).toBe('curl -X POST https://rest.runpod.io/v1/pods/abc/stop\ncurl https://api.runpod.io/v2/serverless\n');
    expect(r.stderr).toContain('v2-migrate: --rule left part of deploy.sh unchanged: those fixes also need pod-action (add that rule to apply them together).\n');
    expect(JSON.parse(r.stdout).files[0].findings.map((f: { ruleId: string; line: number; fixable: boolean }) => [f.ruleId, f.line, f.fixable])).toEqual([
      ['base-url', 1, false],
      ['resource-path', 2, true],
      ['base-url', 2, true],
    ]);
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
