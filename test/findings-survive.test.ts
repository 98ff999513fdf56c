/**
 * No finding that needs a person is lost by the write, as a property over every fixture (and, when
 * MIRROR_ROOT points at the real clients' snapshots, over every real client of
 * ../shared/real-clients/clients.tsv): every error and warning `lint` reports and cannot fix before the
 * write is still reported by `lint` after it, at the same rule in the same file — through a
 * `TODO(v2-migrate <rule>)` comment or because lint finds it again on the v2 code.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, copyDir, realClientTrees, git, REPO, tempProject } from './helpers.js';

interface JsonFile {
  path: string;
  findings: Array<{ ruleId: string; severity: string; fixable: boolean }>;
}

/** (file, rule) → how many errors and warnings `lint` reports there that no fix settles. */
function needsPerson(dir: string): Map<string, number> {
  const run = cli(['lint', '--format', 'json', '.'], dir);
  expect(run.code, run.stderr).not.toBe(2);
  const counts = new Map<string, number>();
  for (const f of (JSON.parse(run.stdout) as { files: JsonFile[] }).files) {
    for (const x of f.findings) {
      if (x.severity === 'info' || x.fixable) continue;
      const key = `${f.path} ${x.ruleId}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

/** What `lint` no longer reports after `v2-migrate .` wrote the tree at `dir` (a git work tree). */
function lostByTheWrite(dir: string): string[] {
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'base', '--no-verify');
  const before = needsPerson(dir);
  const write = cli(['.'], dir);
  expect(write.code, write.stderr).not.toBe(2);
  const after = needsPerson(dir);
  return [...before].filter(([key, n]) => (after.get(key) ?? 0) < n).map(([key, n]) => `${key}: ${n} before, ${after.get(key) ?? 0} after`);
}

describe('no finding that needs a person is lost by the write', () => {
  it('on every fixture', () => {
    const dir = tempProject({});
    copyDir(path.join(REPO, 'fixtures'), path.join(dir, 'fixtures'));
    expect(lostByTheWrite(dir)).toEqual([]);
  }, 300_000);

  const clients = realClientTrees();
  it.skipIf(!clients)('on every real client (MIRROR_ROOT)', () => {
    const lost: string[] = [];
    for (const { repo, dir } of clients ?? []) lost.push(...lostByTheWrite(dir()).map((l) => `${repo} ${l}`));
    expect(lost).toEqual([]);
  }, 900_000);
});
