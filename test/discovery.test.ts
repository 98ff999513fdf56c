import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, git, tempProject } from './helpers.js';
import { loadSettings } from '../src/config.js';
import { run } from '../src/run/runner.js';
import { earlyCommands, startRunEarly } from '../src/run/early-run.js';
import { earlyGitAdopted } from '../src/run/git-process.js';
import { listingCommands } from '../src/scan/git-files.js';
import { grepCommand } from '../src/scan/git-grep.js';
import { NEVER_SCANNED_DIRS } from '../src/scan/skipped-dirs.js';
import { screenNeedles } from '../src/run/project.js';
import { discoverFiles } from '../src/scan/discover.js';

const V1 = "export const stop = (id: string) => fetch(`https://rest.runpod.io/v1/pods/${id}/stop`, { method: 'POST' });\n";
const ENV_V1 = 'RUNPOD_REST_URL=https://rest.runpod.io/v1\n';
const paths = (r: { stdout: string }): string[] => JSON.parse(r.stdout).files.map((f: { path: string }) => f.path);

/** A git work tree holding `files`, all committed (ignored ones too, as `git add -f` does). */
function committed(files: Record<string, string>, ignoreRules: string): string {
  const dir = tempProject(files);
  git(dir, 'init', '-q');
  fs.writeFileSync(path.join(dir, '.gitignore'), ignoreRules);
  git(dir, 'add', '-f', '.');
  git(dir, 'commit', '-q', '-m', 'init');
  return dir;
}

describe('in a git work tree, the files are the ones git lists', () => {
  it('scans a tracked file under a .gitignore rule (a generated client added with git add -f): git applies no ignore rule to tracked files', () => {
    const dir = committed({ 'src/app.ts': 'export const x = 1;\n', 'generated/client.ts': V1 }, 'generated/\n');
    fs.writeFileSync(path.join(dir, 'generated', 'local.ts'), V1);
    const r = cli(['lint', '--format', 'json'], dir);
    expect(paths(r)).toEqual(['generated/client.ts']);
    expect(r.code).toBe(1);
  });

  it("scans a tracked .env that .git/info/exclude matches, and still skips an untracked one it matches", () => {
    const dir = committed({ '.env': ENV_V1 }, '');
    fs.writeFileSync(path.join(dir, '.git', 'info', 'exclude'), '.env\n.env.local\n');
    fs.writeFileSync(path.join(dir, '.env.local'), ENV_V1);
    const r = cli(['lint', '--format', 'json'], dir);
    expect(paths(r)).toEqual(['.env']);
    expect(r.code).toBe(1);
  });

  it('leaves out a tracked file deleted from the work tree, and takes untracked files git does not ignore', () => {
    const dir = committed({ 'gone.ts': V1, 'kept.ts': 'export const x = 1;\n' }, '*.log.ts\n');
    fs.rmSync(path.join(dir, 'gone.ts'));
    fs.writeFileSync(path.join(dir, 'new.ts'), V1);
    fs.writeFileSync(path.join(dir, 'debug.log.ts'), V1);
    const r = cli(['lint', '--format', 'json'], dir);
    expect(paths(r)).toEqual(['new.ts']);
    expect(JSON.parse(r.stdout).summary.files).toBe(2);
  });

  it('lists a nested repository and a submodule by their own rules', () => {
    const lib = committed({ 'lib.ts': V1 }, 'out/\n');
    const dir = committed({ 'app.ts': 'export const x = 1;\n' }, '');
    git(dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'deps/lib');
    git(dir, 'commit', '-q', '-m', 'submodule');
    fs.mkdirSync(path.join(dir, 'deps', 'lib', 'out'));
    fs.writeFileSync(path.join(dir, 'deps', 'lib', 'out', 'built.ts'), V1);
    // A repository of its own inside the tree, not a submodule: git shows it as one untracked folder.
    const nested = path.join(dir, 'tools', 'nested');
    fs.mkdirSync(nested, { recursive: true });
    git(nested, 'init', '-q');
    fs.writeFileSync(path.join(nested, '.gitignore'), 'tmp.ts\n');
    fs.writeFileSync(path.join(nested, 'tool.ts'), V1);
    fs.writeFileSync(path.join(nested, 'tmp.ts'), V1);
    expect(paths(cli(['lint', '--format', 'json'], dir))).toEqual(['deps/lib/lib.ts', 'tools/nested/tool.ts']);
  });
});

describe('git grep before the byte screen (a tracked file it finds no needle in is not read)', () => {
  const utf16 = (text: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

  it('finds what the screen finds: a v1 URL in a UTF-16 file, in a Python file while no JS/TS file holds one, in a file a tracked symbolic link points to', () => {
    const dir = committed({ 'a.ts': 'export const x = 1;\n', 'tools/job.py': "BASE = 'https://rest.runpod.io/v1'\n", 'wide.ts': '' }, '');
    fs.writeFileSync(path.join(dir, 'wide.ts'), utf16("export const u = 'https://rest.runpod.io/v1/pods';\n"));
    fs.mkdirSync(path.join(dir, 'outside'));
    fs.writeFileSync(path.join(dir, 'outside', 'real.ts'), V1);
    fs.symlinkSync(path.join(dir, 'outside', 'real.ts'), path.join(dir, 'link.ts'));
    git(dir, 'add', '-A', 'wide.ts', 'link.ts');
    git(dir, 'commit', '-q', '-m', 'more');
    for (const jobs of ['1', '2']) expect(paths(cli(['lint', '--jobs', jobs, '--format', 'json'], dir)), `--jobs ${jobs}`).toEqual(['link.ts', 'outside/real.ts', 'tools/job.py', 'wide.ts']);
  });

  it('reads every file when a JS/TS file holds a needle, so imports across the tree are followed', () => {
    const dir = committed({ 'lib/base.ts': "export const BASE = 'https://rest.runpod.io/v1';\n", 'app/use.ts': "import { BASE } from '../lib/base';\nexport const stop = (id: string) => fetch(`${BASE}/pods/${id}/stop`, { method: 'POST' });\n" }, '');
    const r = cli(['lint', '--jobs', '2', '--format', 'json'], dir);
    expect(paths(r)).toEqual(['app/use.ts', 'lib/base.ts']);
  });
});

describe('folders skipped by default', () => {
  const files = { 'src/app.ts': 'export const x = 1;\n', 'build/client.js': V1, 'vendor/sdk/api.ts': V1, 'vendor/sdk/README.md': 'no code\n', 'node_modules/dep/index.js': V1 };

  for (const inGit of [true, false]) {
    it(`${inGit ? 'in git (tracked)' : 'outside git'}: counted in the summary, never silently; --no-default-ignore scans them, never node_modules`, () => {
      const dir = inGit ? committed(files, '') : tempProject(files);
      const r = cli(['lint'], dir);
      expect(r.stdout).toBe('1 file scanned: 0 errors, 0 warnings, 0 info (0 fixable by running v2-migrate); 3 files under build/, vendor/ not scanned (skipped by default: --no-default-ignore scans them).\n');
      expect(r.code).toBe(0);
      const all = cli(['lint', '--no-default-ignore', '--format', 'json'], dir);
      expect(paths(all)).toEqual(['build/client.js', 'vendor/sdk/api.ts']);
      expect(JSON.parse(all.stdout).summary.files).toBe(4);
      expect(all.code).toBe(1);
    });
  }

  it('scans such a folder when it, or a folder in it, is named', () => {
    const dir = committed(files, '');
    const r = cli(['lint', 'vendor/sdk'], dir);
    expect(r.stdout.split('\n').slice(-3)).toEqual([
      '2 files in vendor/sdk scanned (3 read for context): 2 errors, 0 warnings, 0 info (2 fixable by running v2-migrate); 1 file under build/ not scanned (skipped by default: --no-default-ignore scans them).',
      'Exit code 1: lint fails on 2 errors.',
      '',
    ]);
    expect(r.stdout).toMatch(/^vendor\/sdk\/api\.ts\n/);
  });

  it('says nothing when those folders hold nothing the run would take, and --help lists the flag', () => {
    const dir = tempProject({ 'src/app.ts': 'export const x = 1;\n', 'dist/logo.png': 'png' });
    expect(cli(['lint'], dir).stdout).toBe('1 file scanned: 0 errors, 0 warnings, 0 info (0 fixable by running v2-migrate).\n');
    const help = cli(['--help'], dir).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--default-ignore Skip dist, build, coverage, vendor, .venv, __pycache__, .tox and .claude folders, even where git tracks them (the summary counts what they hold); --no-default-ignore scans them. node_modules and .git are never scanned [boolean] [default: true]');
  });
});

describe('git started before the CLI loads (bin/v2-migrate.js, run/early-run.ts)', () => {
  const lint = async (dir: string): Promise<string[]> => (await run(['.'], dir, loadSettings({ searchFrom: dir }), { jobs: 2 })).results.map((r) => r.path);

  it('asks what a run of the folder with the default settings asks', () => {
    const dir = committed({ 'a.ts': 'export const x = 1;\n' }, '');
    const { index, others } = listingCommands(NEVER_SCANNED_DIRS);
    expect(earlyCommands()).toEqual([{ args: index }, { args: others }, grepCommand(screenNeedles(loadSettings({ searchFrom: dir })))]);
  });

  it('a run of the folder takes the listing over, also once git has finished, and answers as without it', async () => {
    const dir = committed({ 'src/use.ts': V1, 'src/other.ts': 'export const x = 1;\n' }, '');
    fs.writeFileSync(path.join(dir, 'untracked.ts'), V1);
    const alone = await lint(dir);
    const before = earlyGitAdopted();
    startRunEarly(dir);
    // git is done and its output waits for the run.
    await new Promise((r) => setTimeout(r, 300));
    expect(await lint(dir)).toEqual(alone);
    // The listing's two questions (the search is asked by the screen of a built CLI: tests run from source).
    expect(earlyGitAdopted() - before).toBe(2);
    expect(alone).toEqual(['src/use.ts', 'untracked.ts']);
  });

  it('a run of another folder asks its own, and the early ones are dropped', async () => {
    const dir = committed({ 'pkg/use.ts': V1 }, '');
    const before = earlyGitAdopted();
    startRunEarly(dir);
    const pkg = path.join(dir, 'pkg');
    expect((await discoverFiles(['.'], { cwd: pkg })).files).toEqual([path.join(pkg, 'use.ts')]);
    expect(earlyGitAdopted()).toBe(before);
    // Dropped: a second run of the folder starts its own.
    await lint(dir);
    expect(earlyGitAdopted()).toBe(before);
  });
});

describe('config and package.json lookups in a git work tree', () => {
  it('answer from git\'s listing: a file git ignores is not there, one it does not list (node_modules) is asked of the disk', async () => {
    const dir = committed({ 'pkg/package.json': '{}\n', 'pkg/a.ts': 'export const x = 1;\n', 'node_modules/dep/package.json': '{}\n' }, 'gen/\nnode_modules/\n');
    fs.mkdirSync(path.join(dir, 'gen'));
    fs.writeFileSync(path.join(dir, 'gen', 'package.json'), '{}\n');
    fs.writeFileSync(path.join(dir, 'pkg', 'local.json'), '{}\n');
    const { has } = await discoverFiles(['.'], { cwd: dir, accepts: (f) => f.endsWith('.json') || f.endsWith('.ts') });
    expect(has(path.join(dir, 'pkg'), 'package.json')).toBe(true);
    expect(has(path.join(dir, 'pkg'), 'local.json')).toBe(true);
    expect(has(path.join(dir, 'pkg'), 'missing.json')).toBe(false);
    expect(has(path.join(dir, 'gen'), 'package.json')).toBe(false);
    expect(has(path.join(dir, 'node_modules', 'dep'), 'package.json')).toBe(true);
    // Names the run does not take, and folders above the listing, from the disk.
    expect(has(dir, '.gitignore')).toBe(true);
    expect(has(path.dirname(dir), path.basename(dir))).toBe(true);
  });
});
