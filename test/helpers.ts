import AjvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = path.join(REPO, 'bin', 'v2-migrate.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the built CLI (npm test builds first) in `cwd`, with `env` added to the environment. */
export function cli(args: string[], cwd: string, env: Record<string, string> = {}): CliRun {
  // Reports of a whole fixture tree run past spawnSync's default 1 MB buffer.
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file below `dir` (absolute paths), each folder's entries in name order, depth first. */
export function listFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

const temps: string[] = [];

/**
 * A new folder under the system temp folder, removed after the test file has run (test/setup.ts):
 * a full test run leaves nothing behind.
 */
export function tempDir(prefix = 'v2-migrate-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/** Remove every folder tempDir made (a test that made a file unreadable has restored it, or runs as root). */
export function removeTempDirs(): void {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A temp folder holding `files` (path → content). */
export function tempProject(files: Record<string, string | Buffer>): string {
  const dir = tempDir();
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
  return dir;
}

export function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

export function copyDir(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true });
}

// Both are CommonJS: under NodeNext the default import is `module.exports`, whose `.default` is the export.
const Ajv = (AjvDraft04 as unknown as { default?: typeof AjvDraft04.default }).default ?? (AjvDraft04 as unknown as typeof AjvDraft04.default);
const addFormats = (ajvFormats as unknown as { default?: typeof ajvFormats.default }).default ?? (ajvFormats as unknown as typeof ajvFormats.default);

/** A validator for the official SARIF 2.1.0 schema (test/schemas/). */
export function sarifValidator() {
  const schema = JSON.parse(fs.readFileSync(path.join(REPO, 'test/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as object;
  // The official schema has a pattern that is invalid as a unicode RegExp; ajv must compile it without the u flag.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

/**
 * The real clients of ../shared/real-clients/clients.tsv, each extracted at its pinned commit into a
 * temporary folder, when MIRROR_ROOT points at their snapshots (null otherwise: the test skips).
 */
export function realClientTrees(): Array<{ repo: string; dir: () => string }> | null {
  const mirror = process.env.MIRROR_ROOT;
  const tsv = path.join(REPO, '..', 'shared', 'real-clients', 'clients.tsv');
  if (!mirror || !fs.existsSync(tsv)) return null;
  const rows = fs.readFileSync(tsv, 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t'));
  const out: Array<{ repo: string; dir: () => string }> = [];
  for (const key of new Set(rows.filter((r) => r[4] === 'yes').map((r) => `${r[0]}@${r[1]}`))) {
    const [repo = '', commit = ''] = key.split('@');
    const gitDir = path.join(mirror, repo.replace('/', '+'), 'repo');
    if (!fs.existsSync(gitDir)) continue;
    out.push({
      repo,
      dir: () => {
        const dir = tempProject({});
        spawnSync('bash', ['-c', `git --git-dir="${gitDir}" archive ${commit} | tar -x -C "${dir}"`], { stdio: 'ignore' });
        return dir;
      },
    });
  }
  return out;
}
