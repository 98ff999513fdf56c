import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { cli, git, listFiles, tempDir, type CliRun } from './helpers.js';

/**
 * A hostile repository: a git work tree `repo/` whose committed files (and untracked ones, as a
 * checkout step or an earlier job could leave) are built to steer the tool, beside a folder `outside/`
 * of sentinel files that no run may change (README "Safety": what a repository cannot make it do).
 */
export interface Hostile {
  repo: string;
  outside: string;
}

/** A symbolic link, as a fixture file's content: `target` as written (relative to the link's folder). */
export interface Link {
  link: string;
}
export type FixtureFile = string | Link;

export const SENTINELS: Readonly<Record<string, string>> = { 'precious.txt': 'precious\n', 'secret.txt': 'SECRET-TOKEN\n', 'target.txt': 'original\n' };

/** A v1 call the run reports (lint and dry run exit 1) and rewrites. */
export const V1_CALL = "export const eps = async () => (await fetch('https://rest.runpod.io/v1/endpoints')).json();\n";

function plant(dir: string, files: Readonly<Record<string, FixtureFile>>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    if (typeof content === 'string') fs.writeFileSync(abs, content);
    else fs.symlinkSync(content.link, abs);
  }
}

/** `committed` (a function of the paths, for files that name them) in one commit; `untracked` planted after it. */
export function hostileRepo(committed: (h: Hostile) => Record<string, FixtureFile>, untracked: (h: Hostile) => Record<string, FixtureFile> = () => ({})): Hostile {
  const root = tempDir('v2-migrate-hostile-');
  const h = { repo: path.join(root, 'repo'), outside: path.join(root, 'outside') };
  plant(h.outside, SENTINELS);
  fs.mkdirSync(h.repo);
  plant(h.repo, committed(h));
  git(h.repo, 'init', '-q', '-b', 'main');
  git(h.repo, 'add', '.');
  git(h.repo, 'commit', '-qm', 'hostile');
  plant(h.repo, untracked(h));
  return h;
}

/** Every file below `dir` (symbolic links as `-> target`), by path relative to it. */
export function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of listFiles(dir)) {
    const stat = fs.lstatSync(file);
    out[path.relative(dir, file)] = stat.isSymbolicLink() ? `-> ${fs.readlinkSync(file)}` : fs.readFileSync(file, 'latin1');
  }
  return out;
}

/** The three runs CI and a user make: `lint`, `--dry-run` and the write. */
export const MODES: ReadonlyArray<{ mode: 'lint' | 'dry run' | 'write'; args: string[] }> = [
  { mode: 'lint', args: ['lint'] },
  { mode: 'dry run', args: ['--dry-run'] },
  { mode: 'write', args: [] },
];

/**
 * Run `args` in the repository and check what it left: nothing outside changed or appeared, no hook
 * appeared in .git, and stderr holds no stack trace and no sentinel's bytes.
 */
export function runIn(h: Hostile, args: readonly string[]): CliRun {
  const hooks = contents(path.join(h.repo, '.git', 'hooks'));
  const r = cli([...args], h.repo);
  expect(contents(h.outside), 'outside/').toEqual(SENTINELS);
  expect(contents(path.join(h.repo, '.git', 'hooks')), '.git/hooks').toEqual(hooks);
  expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  expect(r.stdout + r.stderr).not.toContain('SECRET-TOKEN');
  return r;
}
