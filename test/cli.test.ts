import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { BIN, cli, copyDir, git, REPO, tempProject } from './helpers.js';

const V1 = `const BASE = process.env.RUNPOD_REST_URL ?? 'https://rest.runpod.io/v1';
export async function stop(id: string) {
  return fetch(\`\${BASE}/pods/\${id}/stop\`, { method: 'POST', headers: { Authorization: 'Bearer k' } });
}
`;
const RESET = `export const reset = (id: string) => fetch('https://rest.runpod.io/v1/pods/' + id + '/reset', { method: 'POST' });\n`;
const JOB = `export const run = (id: string) => fetch(\`https://api.runpod.ai/v2/\${id}/run\`, { method: 'POST', body: '{}' });\n`;

describe('v2-migrate --dry-run', () => {
  it('prints a git-style diff and the findings, and writes nothing', () => {
    const dir = tempProject({ 'src/a.ts': V1, 'src/job.ts': JOB });
    const r = cli(['--dry-run', 'src'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('--- a/src/a.ts\n+++ b/src/a.ts\n@@');
    expect(r.stdout).toContain("+const BASE = process.env.RUNPOD_REST_URL ?? 'https://api.runpod.io/v2';");
    expect(r.stdout).toContain("body: JSON.stringify({ action: 'stop' })");
    expect(r.stdout).not.toContain('job.ts');
    expect(fs.readFileSync(path.join(dir, 'src/a.ts'), 'utf8')).toBe(V1);
  });
});

describe('v2-migrate (write)', () => {
  it('rewrites in place outside git, and a second run changes nothing', () => {
    const dir = tempProject({ 'a.ts': V1, 'job.ts': JOB });
    const first = cli([], dir);
    expect(first.code).toBe(0);
    const migrated = fs.readFileSync(path.join(dir, 'a.ts'), 'utf8');
    expect(migrated).toContain('/pods/${id}/action');
    expect(fs.readFileSync(path.join(dir, 'job.ts'), 'utf8')).toBe(JOB);
    const second = cli(['--format', 'json'], dir);
    expect(JSON.parse(second.stdout).summary.changed).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'a.ts'), 'utf8')).toBe(migrated);
  });

  it('refuses files with uncommitted changes in a git work tree unless --allow-dirty', () => {
    const dir = tempProject({ 'a.ts': V1 });
    git(dir, 'init', '-q');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'init');
    fs.appendFileSync(path.join(dir, 'a.ts'), '// local edit\n');
    const refused = cli(['.'], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/uncommitted changes[\s\S]*a\.ts/);
    expect(fs.readFileSync(path.join(dir, 'a.ts'), 'utf8')).toBe(V1 + '// local edit\n');
    const allowed = cli(['.', '--allow-dirty'], dir);
    expect(allowed.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'a.ts'), 'utf8')).toContain('api.runpod.io/v2');
  });

  it('writes a clean committed file', () => {
    const dir = tempProject({ 'a.ts': V1 });
    git(dir, 'init', '-q');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'init');
    expect(cli([], dir).code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'a.ts'), 'utf8')).toContain('/action');
  });
});

describe('v2-migrate lint', () => {
  it('exits 1 on v1 usage and 0 once migrated (apart from pod-reset)', () => {
    const dir = tempProject({ 'a.ts': V1, 'r.ts': RESET });
    expect(cli(['lint'], dir).code).toBe(1);
    cli([], dir);
    const after = cli(['lint', '--format', 'json'], dir);
    const findings = JSON.parse(after.stdout).files.flatMap((f: { findings: Array<{ ruleId: string }> }) => f.findings);
    // The reset moved to v2 with its base (v2 answers it 404), so lint finds it there again: its TODO is that same finding.
    expect(findings.map((f: { ruleId: string }) => f.ruleId)).toEqual(['pod-reset']);
    fs.rmSync(path.join(dir, 'r.ts'));
    expect(cli(['lint'], dir).code).toBe(0);
  });

  it('still reports, after the write, the response reads and types and error reads it left for a person', () => {
    const fixture = (rel: string): string => fs.readFileSync(path.join(REPO, 'fixtures', rel), 'utf8');
    const dir = tempProject({ 'pool.ts': fixture('response-field/endpoint-type.input.ts'), 'drop.js': fixture('error-shape/fallback-held.input.js') });
    // What a person must change in the code around the responses: file, the code on the line, column and rule
    // (the write adds TODO lines above some of them, so a finding is named by the code before it on its line, not its line number).
    const left = (): string[] =>
      JSON.parse(cli(['lint', '--format', 'json'], dir).stdout)
        .files.flatMap((f: { path: string; findings: Array<{ ruleId: string; line: number; column: number; fixable: boolean }> }) => {
          const lines = fs.readFileSync(path.join(dir, f.path), 'utf8').split('\n');
          return f.findings.filter((x) => !x.fixable && (x.ruleId === 'response-field' || x.ruleId === 'error-shape')).map((x) => `${f.path}: ${lines[x.line - 1]?.slice(0, x.column - 1).trim()} :${x.column} ${x.ruleId}`);
        })
        .sort();
    const before = left();
    expect(before.map((x) => x.replace(/: .* :/, ':')).sort()).toEqual([
      'drop.js:25 error-shape', 'drop.js:25 error-shape', 'drop.js:25 error-shape', 'drop.js:14 error-shape', 'drop.js:25 error-shape',
      'pool.ts:3 response-field', 'pool.ts:3 response-field', 'pool.ts:3 response-field', 'pool.ts:32 response-field', 'pool.ts:51 response-field', 'pool.ts:3 response-field', 'pool.ts:3 response-field',
    ].sort());
    cli([], dir);
    expect(left()).toEqual(before);
  });

  it('prints exactly one JSON document of the documented shape', () => {
    const dir = tempProject({ 'src/r.ts': RESET });
    const r = cli(['lint', 'src', '--format', 'json'], dir);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.version).toBe(1);
    expect(doc.files[0].path).toBe('src/r.ts');
    expect(doc.files[0].changed).toBe(true);
    const reset = doc.files[0].findings.find((f: { ruleId: string }) => f.ruleId === 'pod-reset');
    expect(reset).toMatchObject({ severity: 'error', line: 1, fixable: false });
    expect(Object.keys(reset).sort()).toEqual(['column', 'fixable', 'line', 'message', 'ruleId', 'severity']);
    expect(doc.summary).toMatchObject({ files: 1, changed: 1, warnings: 0, infos: 0 });
    expect(doc.summary.errors).toBeGreaterThanOrEqual(1);
  });

  it('counts warnings against --max-warnings', () => {
    const dir = tempProject({ 'a.ts': "export const cmd = 'curl https://rest.runpod.io/v1/pods';\n" });
    const gate = cli(['lint'], dir);
    expect(gate.code).toBe(1);
    expect(gate.stdout.trimEnd().split('\n').at(-1)).toBe('Exit code 1: lint fails on 1 warning (more than --max-warnings 0).');
    const passed = cli(['lint', '--max-warnings', '1'], dir);
    expect(passed.code).toBe(0);
    expect(passed.stdout).not.toContain('Exit code');
    // --quiet lists no warnings, but a gate they fail says so instead of exiting 1 in silence.
    const quiet = cli(['lint', '--quiet'], dir);
    expect(quiet.code).toBe(1);
    expect(quiet.stdout).toBe('');
    expect(quiet.stderr).toContain('1 warning (more than --max-warnings 0) fail lint; --quiet does not list warnings');
  });

  it('reports a parse error as a finding and goes on', () => {
    const dir = tempProject({ 'bad.ts': "const x = 'https://rest.runpod.io/v1' +;\n", 'a.ts': V1 });
    const r = cli(['lint', '--format', 'json'], dir);
    const doc = JSON.parse(r.stdout);
    expect(doc.files.map((f: { path: string }) => f.path)).toEqual(['a.ts', 'bad.ts']);
    expect(doc.files[1].findings[0].ruleId).toBe('parse-error');
    expect(r.code).toBe(1);
  });
});

describe('discovery and safety', () => {
  it('honours nested .gitignore files and always-skipped folders', () => {
    const dir = tempProject({
      '.gitignore': 'generated/\n!generated/keep.ts\n',
      'pkg/.gitignore': 'local.ts\ntmp/\n',
      'pkg/local.ts': V1,
      'pkg/kept.ts': V1,
      'pkg/tmp/deep/er/y.ts': V1,
      'pkg/sub/a.gen.ts': V1,
      'pkg/sub/b.ts': V1,
      'pkg/sub/.gitignore': '*.gen.ts\n',
      'generated/x.ts': V1,
      'generated/keep.ts': V1,
      'generated/more/z.ts': V1,
      'node_modules/m/index.js': V1,
      'build/b.js': V1,
      'lib/app.min.js': V1,
    });
    git(dir, 'init', '-q');
    const doc = JSON.parse(cli(['lint', '--format', 'json'], dir).stdout);
    // A file in an excluded folder cannot be re-included (git's rule): the folder is never entered.
    expect(doc.files.map((f: { path: string }) => f.path)).toEqual(['pkg/kept.ts', 'pkg/sub/b.ts']);
  });

  it('excludes the same files as git for every kind of .gitignore pattern (names alone, anchored, folders, negations)', () => {
    // Folders whose rules are names only (no '/' but a trailing one, no '!') are decided by each
    // file's name (src/scan/ignore-rules.ts); the others test the whole path. git is the reference.
    const files = ['a.ts', 'A.log.ts', 'x.gen.ts', 'keep.gen.ts', 'secret.ts', 'Secret.ts', 'src/a.ts', 'src/x.gen.ts', 'src/secret.ts', 'src/out/o.ts', 'out/o.ts', 'src/deep/anchored.ts', 'anchored.ts', 'names/x.gen.ts', 'names/y.ts', 'names/z.tmp.ts', 'names/sub/z.tmp.ts', 'neg/x.gen.ts', 'neg/keep.gen.ts', 'path/only/here.ts', 'path/here.ts', 'other/path/only/here.ts'];
    const dir = tempProject({
      ...Object.fromEntries(files.map((f) => [f, V1])),
      '.gitignore': '# names\n*.gen.ts\nsecret.ts\nout/\n/anchored.ts\n',
      'names/.gitignore': '*.tmp.ts\n',
      'neg/.gitignore': '!keep.gen.ts\n',
      'path/.gitignore': 'only/here.ts\n',
    });
    git(dir, 'init', '-q');
    const gitLists = (): string[] => spawnSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: dir, encoding: 'utf8' }).stdout.split('\n').filter((f) => f.endsWith('.ts')).sort();
    const weList = (): string[] => JSON.parse(cli(['lint', '--format', 'json'], dir).stdout).files.map((f: { path: string }) => f.path);
    const listed = gitLists();
    expect(weList()).toEqual(listed);
    // Outside git the walk matches the .gitignore files itself (in the platform's case rule, which git
    // init also follows), and must agree with git.
    fs.renameSync(path.join(dir, '.git'), path.join(dir, 'git-away'));
    expect(weList()).toEqual(listed);
    fs.renameSync(path.join(dir, 'git-away'), path.join(dir, '.git'));
    expect(listed).toContain('neg/keep.gen.ts');
    expect(listed).not.toContain('names/sub/z.tmp.ts');
    // Case follows git's core.ignoreCase (set by git init on case-insensitive file systems).
    git(dir, 'config', 'core.ignoreCase', String(listed.includes('Secret.ts')));
    const other = gitLists();
    expect(other.includes('Secret.ts')).toBe(!listed.includes('Secret.ts'));
    expect(weList()).toEqual(other);
  });

  it("honours git's info/exclude and the global core.excludesFile, not only .gitignore files", () => {
    const dir = tempProject({ 'kept.ts': V1, 'local.ts': V1, 'mine/private.ts': V1, '.env.local': 'RUNPOD_REST_URL=https://rest.runpod.io/v1\n' });
    git(dir, 'init', '-q');
    fs.writeFileSync(path.join(dir, '.git', 'info', 'exclude'), '# local only\nlocal.ts\n.env.local\n');
    const globalIgnore = path.join(dir, '.git', 'my-global-ignore');
    fs.writeFileSync(globalIgnore, 'mine/\n');
    git(dir, 'config', 'core.excludesFile', globalIgnore);
    const doc = JSON.parse(cli(['lint', '--format', 'json'], dir).stdout);
    expect(doc.files.map((f: { path: string }) => f.path)).toEqual(['kept.ts']);
    cli(['--allow-dirty'], dir);
    expect(fs.readFileSync(path.join(dir, 'kept.ts'), 'utf8')).toContain('api.runpod.io/v2');
    expect(fs.readFileSync(path.join(dir, '.env.local'), 'utf8')).toContain('rest.runpod.io/v1');
  });

  for (const inGit of [false, true]) {
    it(`reports a folder it cannot read, like a file it cannot read (run as an unprivileged user${inGit ? ', in a git work tree' : ''})`, () => {
      if (process.platform === 'win32') return void console.warn('skipped: folder permissions are POSIX-only');
      const dir = tempProject({ 'a.ts': V1, 'locked/b.ts': V1 });
      // Root reads every folder: as root the CLI runs as "nobody", who needs the project readable (and,
      // for git to list it, owned).
      const asRoot = process.getuid?.() === 0;
      if (inGit) git(dir, 'init', '-q');
      if (asRoot && inGit) spawnSync('chown', ['-R', '65534:65534', dir]);
      else if (asRoot) for (const p of [dir, path.join(dir, 'a.ts')]) fs.chmodSync(p, 0o755);
      fs.chmodSync(path.join(dir, 'locked'), 0o000);
      const r = spawnSync(process.execPath, [BIN, 'lint', '--format', 'json'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, ...(asRoot ? { uid: 65534, gid: 65534 } : {}) });
      fs.chmodSync(path.join(dir, 'locked'), 0o755);
      const doc = JSON.parse(r.stdout);
      expect(doc.files.map((f: { path: string; findings: Array<{ ruleId: string }> }) => [f.path, f.findings.map((x) => x.ruleId).join()])).toEqual([
        ['a.ts', 'base-url,pod-action'],
        ['locked', 'skipped-file'],
      ]);
      expect(r.status).toBe(1);
    });
  }

  it('keeps a BOM and CRLF line endings, and skips non-UTF-8 files with a finding', () => {
    const crlf = V1.replace(/\n/g, '\r\n');
    const latin1 = Buffer.concat([Buffer.from("const u = 'https://rest.runpod.io/v1/pods'; // caf"), Buffer.from([0xe9]), Buffer.from('\n')]);
    const dir = tempProject({ 'bom.ts': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(crlf)]), 'latin1.js': latin1 });
    const r = cli(['--format', 'json'], dir);
    const out = fs.readFileSync(path.join(dir, 'bom.ts'));
    expect([...out.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = out.subarray(3).toString('utf8');
    expect(text).toContain('api.runpod.io/v2');
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    expect(fs.readFileSync(path.join(dir, 'latin1.js')).equals(latin1)).toBe(true);
    const skipped = JSON.parse(r.stdout).files.find((f: { path: string }) => f.path === 'latin1.js');
    expect(skipped.findings[0].ruleId).toBe('skipped-file');
  });

  it('exits 2 on usage and config errors', () => {
    const dir = tempProject({ 'a.ts': V1, 'v2-migrate.config.json': '{ "legacyBaseUrls": ["x"], "bogus": 1 }' });
    expect(cli(['--no-such-flag'], dir).code).toBe(2);
    expect(cli(['missing-dir'], dir).code).toBe(2);
    const bad = cli(['lint'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('legacyBaseUrls.0');
    expect(bad.stderr).toMatch(/bogus/);
  });

  it('migrates a proxy base given with --legacy-base-url and writes a custom --base-url', () => {
    const dir = tempProject({ 'a.ts': "export const list = () => fetch('https://runpod-proxy.internal/v1/endpoints');\n" });
    cli(['--legacy-base-url', 'https://runpod-proxy.internal/v1', '--base-url', 'https://runpod-proxy.internal/v2'], dir);
    expect(fs.readFileSync(path.join(dir, 'a.ts'), 'utf8')).toContain("'https://runpod-proxy.internal/v2/serverless'");
  });
});

describe('the bundled example', () => {
  it('dry-run shows base, path, action and /update rewrites and leaves the job API alone', () => {
    const r = cli(['--dry-run', 'examples/'], REPO);
    expect(r.code).toBe(1);
    for (const s of ["+export const RUNPOD_REST_URL = process.env.RUNPOD_REST_URL ?? 'https://api.runpod.io/v2';", "'/serverless'", '/action', "api<Pod>('PATCH', `/pods/${podId}`", '/billing/serverless']) expect(r.stdout).toContain(s);
    expect(r.stdout).not.toContain('inference.ts');
  });

  it('the quick start counts and names what it was asked about, and says what its exit code means', () => {
    const r = cli(['--dry-run', 'examples/'], REPO);
    const [summary, exit] = r.stdout.trimEnd().split('\n').slice(-2);
    // It reads the repository around examples/ (what moves with them may be anywhere in it): a count that grows with the repository.
    // 12 of the warnings: answers the example's library hands to callers outside it (response-field, billing-records).
    expect(summary).toMatch(/^6 files in examples\/ scanned \(\d+ read for context\), 4 files would change: 25 errors, 12 warnings, 0 info \(25 fixable by running v2-migrate\)\.$/);
    expect(exit).toBe('Exit code 1: changes pending (run without --dry-run to write them), and 12 problems need a person.');
    expect(r.code).toBe(1);
    expect(cli(['--dry-run', 'examples/', '--format', 'markdown'], REPO).stdout).toMatch(/^_v2-migrate \S+ · dry run · 6 files in examples\/ scanned \(\d+ read for context\)_$/m);
    const lint = cli(['lint', '--max-warnings', '0', 'examples/runpod-dashboard/src/lib/admin.ts'], REPO);
    expect(lint.stdout.trimEnd().split('\n').slice(-2)).toEqual([expect.stringMatching(/^1 file in examples\/runpod-dashboard\/src\/lib\/admin\.ts scanned \(\d+ read for context\): 9 errors, 3 warnings, 0 info \(9 fixable by running v2-migrate\)\.$/), 'Exit code 1: lint fails on 9 errors and 3 warnings (more than --max-warnings 0).']);
  });

  it('lint exits 1 on the example and only pod-reset and the answers handed outside remain after the codemod ran on a copy', () => {
    const dir = tempProject({});
    copyDir(path.join(REPO, 'examples'), path.join(dir, 'examples'));
    expect(cli(['lint', 'examples'], dir).code).toBe(1);
    expect(cli(['examples'], dir).code).toBe(1); // pod-reset still needs a person
    const doc = JSON.parse(cli(['lint', 'examples', '--format', 'json'], dir).stdout);
    const left = doc.files.flatMap((f: { findings: Array<{ ruleId: string }> }) => f.findings.map((x) => x.ruleId));
    // Left: the reset (on the v2 host now), and the answers the library hands to callers outside the example (their TODOs).
    expect(left.filter((r: string) => r !== 'response-field' && r !== 'billing-records')).toEqual(['pod-reset']);
    expect(left.length).toBe(12);
  });
});

describe('files the tool must not write', () => {
  it('a read-only file keeps its text and gets a finding; the others are written', () => {
    const v1 = "export const list = () => fetch('https://rest.runpod.io/v1/pods');\n";
    const dir = tempProject({ 'ro.ts': v1, 'rw.ts': v1 });
    fs.chmodSync(path.join(dir, 'ro.ts'), 0o444);
    const doc = JSON.parse(cli(['--format', 'json'], dir).stdout);
    expect(fs.readFileSync(path.join(dir, 'ro.ts'), 'utf8')).toBe(v1);
    expect(fs.statSync(path.join(dir, 'ro.ts')).mode & 0o777).toBe(0o444);
    expect(fs.readFileSync(path.join(dir, 'rw.ts'), 'utf8')).toContain('https://api.runpod.io/v2/pods');
    const ro = doc.files.find((f: { path: string }) => f.path === 'ro.ts');
    expect(ro.changed).toBe(false);
    expect(ro.findings.some((f: { ruleId: string; message: string }) => f.ruleId === 'skipped-file' && f.message.includes('read-only'))).toBe(true);
  });
});

describe('config: a rule set to "off"', () => {
  it('neither reports nor fixes: the request that needs its fix is left as it is', () => {
    const src = "const BASE = 'https://rest.runpod.io/v1';\nexport const list = async () => (await fetch(`${BASE}/pods`)).json();\n";
    const dir = tempProject({ 'a.ts': src, 'v2-migrate.config.json': JSON.stringify({ rules: { 'list-envelope': 'off' } }) });
    const doc = JSON.parse(cli(['--dry-run', '--format', 'json'], dir).stdout);
    expect(doc.summary.changed).toBe(0);
    // response-field: the pods are returned to callers outside the run (another rule, still on).
    expect(doc.files.flatMap((f: { findings: Array<{ ruleId: string }> }) => f.findings.map((x) => x.ruleId))).toEqual(['base-url', 'response-field']);
    cli([], dir);
    expect(fs.readFileSync(path.join(dir, 'a.ts'), 'utf8')).toBe(src);
  });

  it('never a v2 path on a v1 base: a request whose rule is off is left as it is and moves with its base unfinished; with base-url off nothing moves', () => {
    const src = "const BASE = 'https://rest.runpod.io/v1';\nexport const stop = (id: string) => fetch(`${BASE}/pods/${id}/stop`, { method: 'POST' });\nexport const nameOf = async (id: string) => (await (await fetch(`${BASE}/pods/${id}`)).json()).name;\n";
    const actionOff = tempProject({ 'a.ts': src, 'v2-migrate.config.json': JSON.stringify({ rules: { 'pod-action': 'off' } }) });
    cli([], actionOff);
    // v2 answers the stop left on its v1 path with a 404: loud, never a v2 path on the v1 host.
    expect(fs.readFileSync(path.join(actionOff, 'a.ts'), 'utf8')).toBe(src.replace('https://rest.runpod.io/v1', 'https://api.runpod.io/v2'));
    const baseOff = tempProject({ 'a.ts': src, 'v2-migrate.config.json': JSON.stringify({ rules: { 'base-url': 'off' } }) });
    cli([], baseOff);
    expect(fs.readFileSync(path.join(baseOff, 'a.ts'), 'utf8')).toBe(src);
  });
});

describe('config: declared wrappers', () => {
  it('migrates calls to a wrapper defined where the tool cannot see it, and a second run changes nothing', () => {
    const src = [
      "import { runpodRequest } from '@acme/runpod-transport';",
      "export const stop = (id: string) => runpodRequest('POST', `/pods/${id}/stop`);",
      "export const eps = () => runpodRequest('GET', '/endpoints');",
      "export const mk = () => runpodRequest('POST', '/networkvolumes', { name: 'v', size: 50, dataCenterId: 'EU-RO-1' });",
      '',
    ].join('\n');
    const dir = tempProject({ 'a.ts': src, 'v2-migrate.config.json': JSON.stringify({ wrappers: [{ name: 'runpodRequest', method: 0, path: 1, body: 2 }] }) });
    expect(cli(['a.ts'], dir).code).toBe(0);
    const out = fs.readFileSync(path.join(dir, 'a.ts'), 'utf8');
    expect(out).toContain("runpodRequest('POST', `/pods/${id}/action`, { action: 'stop' })");
    expect(out).toContain("runpodRequest('GET', '/serverless')");
    expect(out).toContain("runpodRequest('POST', '/network-volumes', { name: 'v', size: 50, dataCenter: 'EU-RO-1' })");
    const again = JSON.parse(cli(['lint', 'a.ts', '--format', 'json'], dir).stdout);
    expect(again.summary).toMatchObject({ changed: 0, errors: 0, warnings: 0 });
  });
});

describe('config: a package config with needles of its own', () => {
  /** `files` beside 30 files without RunPod bytes, all committed: git grep clears most of the tree. */
  const committedTree = (files: Record<string, string>): string => {
    for (let i = 0; i < 30; i++) files[`packages/other/f${i}.ts`] = `export const x${i} = ${i};\n`;
    const dir = tempProject(files);
    git(dir, 'init', '-q');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'tree');
    return dir;
  };

  it("finds a package's declared wrapper in a git tree that otherwise holds no RunPod bytes (the screen of the root's needles does not clear it)", () => {
    const files: Record<string, string> = {
      'packages/app/v2-migrate.config.json': JSON.stringify({ wrappers: [{ name: 'podCall', method: 0, path: 1 }] }),
      'packages/app/a.ts': "import { podCall } from '@acme/transport';\nexport const stop = (id: string) => podCall('POST', `/pods/${id}/stop`);\n",
    };
    const dir = committedTree(files);
    const run = cli(['lint', '--format', 'json', '--jobs', '2'], dir);
    const doc = JSON.parse(run.stdout);
    expect(doc.files.map((f: { path: string }) => f.path)).toEqual(['packages/app/a.ts']);
    expect(doc.summary.errors + doc.summary.warnings).toBeGreaterThan(0);
    expect(run.code).toBe(1);
  });

  it("follows a package.json's own \"v2-migrate\" config in a git tree where no other folder holds one", () => {
    const files: Record<string, string> = {
      'package.json': JSON.stringify({ name: 'root', private: true }),
      'packages/proxied/package.json': JSON.stringify({ name: 'proxied', 'v2-migrate': { legacyBaseUrls: ['https://gateway.internal/runpod/v1'] } }),
      'packages/proxied/pods.ts': "export const pods = () => fetch('https://gateway.internal/runpod/v1/pods');\n",
    };
    const dir = committedTree(files);
    const doc = JSON.parse(cli(['lint', '--format', 'json', '--jobs', '2'], dir).stdout);
    expect(doc.files.map((f: { path: string }) => f.path)).toEqual(['packages/proxied/pods.ts']);
    expect(cli(['--jobs', '2'], dir).code).not.toBe(2);
    expect(fs.readFileSync(path.join(dir, 'packages/proxied/pods.ts'), 'utf8')).toContain("fetch('https://api.runpod.io/v2/pods')");
  });
});

describe('config: maxFileSizeMB', () => {
  const V1_CALL = "export const a = () => fetch('https://rest.runpod.io/v1/endpoints');\n";
  const KB = 1024;
  /** maxFileSizeMB 0.001 (1 KB): hand-written files are parsed up to 4 KB. */
  const config = JSON.stringify({ maxFileSizeMB: 0.001 });
  const rulesOf = (doc: { files: Array<{ path: string; findings: Array<{ ruleId: string }> }> }, file: string): string[] => doc.files.find((f) => f.path === file)!.findings.map((f) => f.ruleId);

  it('tells generated and minified files over the limit apart by content: those are scanned as text only, hand-written ones parsed', () => {
    const handWritten = '// a line of hand-written code, as long as most\n'.repeat(60) + V1_CALL;
    const minified = `${'var a=1,b=2;'.repeat(100)}\n${V1_CALL}`;
    const mapped = `${handWritten}//# sourceMappingURL=mapped.js.map\n`;
    const banner = `// Code generated by openapi-gen. DO NOT EDIT.\n${handWritten}`;
    const huge = '// a line of hand-written code, as long as most\n'.repeat(100) + V1_CALL;
    const dir = tempProject({ 'v2-migrate.config.json': config, 'hand.ts': handWritten, 'min.js': minified, 'mapped.js': mapped, 'banner.ts': banner, 'huge.ts': huge });
    expect(handWritten.length).toBeGreaterThan(2 * KB);
    expect(huge.length).toBeGreaterThan(4 * KB);
    const doc = JSON.parse(cli(['--dry-run', '--format', 'json'], dir).stdout);
    expect(doc.files.filter((f: { changed: boolean }) => f.changed).map((f: { path: string }) => f.path)).toEqual(['hand.ts']);
    for (const file of ['min.js', 'mapped.js', 'banner.ts', 'huge.ts']) expect(rulesOf(doc, file), file).toEqual(['skipped-file', 'embedded-url']);
    const why = (file: string): string => doc.files.find((f: { path: string }) => f.path === file).findings[0].message;
    expect(why('min.js')).toMatch(/^This file is over 0\.001 MB and looks generated or minified \(its lines average \d+ characters\)/);
    expect(why('mapped.js')).toContain('(it ends with a source-map comment)');
    expect(why('banner.ts')).toContain("(its first lines carry a generator's banner: // Code generated by openapi-gen. DO NOT EDIT.)");
    expect(why('huge.ts')).toContain('This file is over 0.004 MB, the limit even for a file that looks hand-written (4 × maxFileSizeMB)');
    cli([], dir);
    expect(fs.readFileSync(path.join(dir, 'mapped.js'), 'utf8')).toBe(mapped);
  });
});

describe('config: where it comes from', () => {
  const PROXY = 'https://proxy.internal/runpod/v1';
  const src = `export const API = '${PROXY}';\nexport const stop = (id: string) => fetch(\`\${API}/pods/\${id}/stop\`, { method: 'POST' });\n`;

  it('--config names the file; a package.json "v2-migrate" key is found like v2-migrate.config.json', () => {
    const dir = tempProject({ 'src/a.ts': src, 'cfg/custom.json': JSON.stringify({ legacyBaseUrls: [PROXY] }) });
    expect(cli(['lint', 'src'], dir).code).toBe(0); // the proxy is not a v1 base without the config
    const named = cli(['lint', '--config', 'cfg/custom.json', 'src'], dir);
    expect(named.code).toBe(1);
    expect(named.stdout).toContain('pod-action');
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', 'v2-migrate': { legacyBaseUrls: [PROXY] } }));
    const fromPackage = cli(['lint', 'src'], dir);
    expect(fromPackage.code).toBe(1);
    expect(fromPackage.stdout).toContain('pod-action');
  });

  it('--version prints the package version', () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
    expect(cli(['--version'], tempProject({})).stdout.trim()).toBe(version);
  });
});
