import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { namedPlace, treePlace, writeRefusal } from '../src/run/write-guard.js';
import { cli } from './helpers.js';
import { hostileRepo, runIn, SENTINELS, V1_CALL, type Hostile } from './hostile.js';

/**
 * One guard for every write and delete (src/run/write-guard.ts), tried with `..`, an absolute path, a
 * symbolic link and `.git/` against each writer. The journal, its staged files and backups, and the
 * adapter file are tried in test/hostile-repo.test.ts; here: the guard itself, the files a write
 * migrates, the default cache folder, and the outputs the user names (-o, merge-reports -o,
 * --update-baseline, --cache-location), which may lie outside the repository but, named inside it,
 * may not be led out of it.
 */

/** `repo/` with a link to `outside/` and a link to a sentinel, beside `elsewhere/` (a folder the user may name). */
function fixture(): Hostile & { elsewhere: string } {
  const h = hostileRepo(() => ({ 'a.ts': V1_CALL, reports: { link: '../outside' }, planted: { link: '../outside/target.txt' }, gone: { link: '../nowhere' } }));
  const elsewhere = path.join(path.dirname(h.repo), 'elsewhere');
  fs.mkdirSync(elsewhere);
  return { ...h, elsewhere };
}

describe('the guard', () => {
  let h: ReturnType<typeof fixture>;
  beforeAll(() => void (h = fixture()));
  const at = (rel: string): string => path.join(h.repo, rel);

  it('in the tree (what the tool chooses or the repository names): only real paths inside the root, outside .git, never through a symlink', () => {
    const tree = treePlace(h.repo);
    expect(writeRefusal(at('../outside/new.txt'), tree)).toBe(`resolves outside ${h.repo}`);
    expect(writeRefusal(path.join(h.outside, 'new.txt'), tree)).toBe(`resolves outside ${h.repo}`);
    expect(writeRefusal(at('reports/new.txt'), tree)).toBe(`resolves outside ${h.repo} (to ${h.outside}/new.txt)`);
    expect(writeRefusal(at('reports/deeper/new.txt'), tree)).toBe(`resolves outside ${h.repo} (to ${h.outside}/deeper/new.txt)`);
    expect(writeRefusal(at('planted'), tree)).toBe('is a symbolic link (to ../outside/target.txt), and v2-migrate never writes through one');
    expect(writeRefusal(at('gone/new.txt'), tree)).toBe('cannot be resolved (a symbolic link on the way leads nowhere, or a folder on the way cannot be read)');
    expect(writeRefusal(at('.git/hooks/pre-commit'), tree)).toBe('is inside .git');
    expect(writeRefusal(at('vendor/lib/.git/config'), tree)).toBe('is inside .git');
    expect(writeRefusal(at('.GIT/config'), tree)).toBe('is inside .git');
    expect(writeRefusal(at('a.ts'), tree)).toBeNull();
    expect(writeRefusal(at('src/new/deep.ts'), tree)).toBeNull();
    expect(writeRefusal(at('.gitignore'), tree)).toBeNull();
  });

  it('for a path the user named: free outside the root, held to the tree rules inside it', () => {
    const named = namedPlace(h.repo);
    expect(writeRefusal(at('../elsewhere/report.json'), named)).toBeNull();
    expect(writeRefusal(path.join(h.elsewhere, 'report.json'), named)).toBeNull();
    expect(writeRefusal(at('reports/report.json'), named)).toBe(`resolves outside ${h.repo} (to ${h.outside}/report.json)`);
    expect(writeRefusal(at('planted'), named)).toBe('is a symbolic link (to ../outside/target.txt), and v2-migrate never writes through one');
    expect(writeRefusal(at('.git/hooks/pre-commit'), named)).toBe('is inside .git');
    expect(writeRefusal(at('report.json'), named)).toBeNull();
  });
});

const usage = (message: string): string => `v2-migrate: ${message}\nRun v2-migrate --help for usage.\n`;

describe('outputs the user names: outside the repository if named so, never led out of it or into .git by what it holds', () => {
  const writers: Array<{ writer: string; flag: string; args: (out: string, shard: string) => string[]; exit: number }> = [
    { writer: '-o', flag: '--output-file', args: (out) => ['lint', '-o', out], exit: 1 },
    { writer: 'merge-reports -o', flag: '--output-file', args: (out, shard) => ['merge-reports', shard, '-o', out], exit: 1 },
    { writer: '--update-baseline', flag: '--baseline', args: (out) => ['lint', '--baseline', out, '--update-baseline'], exit: 0 },
    { writer: '--cache-location', flag: '--cache-location', args: (out) => ['lint', '--cache', '--cache-location', out], exit: 1 },
  ];
  for (const w of writers) {
    it(`${w.writer}: .. and an absolute path are the user's choice; a symlinked folder, a symlink and .git/ are refused (exit 2)`, () => {
      const h = fixture();
      const shard = path.join(h.elsewhere, 'shard.json');
      fs.writeFileSync(shard, cli(['lint', '--format', 'json'], h.repo).stdout);
      for (const out of ['../elsewhere/out', path.join(h.elsewhere, 'abs')]) {
        const r = runIn(h, w.args(out, shard));
        expect(r.code, `${out}: ${r.stderr}`).toBe(w.exit);
        expect(fs.existsSync(path.resolve(h.repo, out)), out).toBe(true);
      }
      const refused: Array<[string, string]> = [
        ['reports/out', `resolves outside ${h.repo} (to ${h.outside}/out)`],
        ['planted', 'is a symbolic link (to ../outside/target.txt), and v2-migrate never writes through one'],
        ['.git/hooks/pre-commit', 'is inside .git'],
      ];
      for (const [out, why] of refused) {
        const r = runIn(h, w.args(out, shard));
        expect(r.stderr, out).toBe(usage(`${w.flag} ${out}: not written: ${path.join(h.repo, out)} ${why}`));
        expect(r.code, out).toBe(2);
        expect(fs.existsSync(path.join(h.repo, '.git/hooks/pre-commit')), out).toBe(false);
      }
    });
  }
});

describe('what the tool places itself is never led out of the repository', () => {
  it('the default cache folder: a committed symlink by its name, or a node_modules symlinked out, is refused (exit 2)', () => {
    const link = hostileRepo(() => ({ 'a.ts': V1_CALL, '.v2-migrate-cache': { link: '../outside' } }));
    expect(runIn(link, ['lint', '--cache'])).toMatchObject({ code: 2, stderr: usage(`--cache: not written: ${link.repo}/.v2-migrate-cache is a symbolic link (to ../outside), and v2-migrate never writes through one`) });
    const modules = hostileRepo(() => ({ 'a.ts': V1_CALL, node_modules: { link: '../outside' } }));
    expect(runIn(modules, ['lint', '--cache'])).toMatchObject({ code: 2, stderr: usage(`--cache: not written: ${modules.repo}/node_modules/.cache/v2-migrate resolves outside ${modules.repo} (to ${modules.outside}/.cache/v2-migrate)`) });
    expect(fs.readdirSync(modules.outside).sort()).toEqual(Object.keys(SENTINELS));
  });

  it('a migrated file: one named by .., by absolute path, through a symlinked folder or in .git is not written (exit 2, the reason listed)', () => {
    const h = fixture();
    fs.writeFileSync(path.join(h.elsewhere, 'v1.ts'), V1_CALL);
    fs.symlinkSync('../elsewhere', path.join(h.repo, 'elsewhere-link'));
    fs.writeFileSync(path.join(h.repo, '.git', 'v1.ts'), V1_CALL);
    const cases: Array<[string, string]> = [
      ['../elsewhere/v1.ts', `resolves outside ${h.repo}`],
      [path.join(h.elsewhere, 'v1.ts'), `resolves outside ${h.repo}`],
      ['elsewhere-link/v1.ts', `resolves outside ${h.repo} (to ${h.elsewhere}/v1.ts)`],
      ['.git/v1.ts', 'is inside .git'],
    ];
    for (const [named, why] of cases) {
      const r = runIn(h, [named]);
      expect(r.stderr, named).toBe(`v2-migrate: could not write 1 file (left unchanged):\n  ${path.relative(h.repo, path.resolve(h.repo, named))}: not written: it ${why}\n`);
      expect(r.code, named).toBe(2);
    }
    expect(fs.readFileSync(path.join(h.elsewhere, 'v1.ts'), 'utf8')).toBe(V1_CALL);
    expect(fs.readFileSync(path.join(h.repo, '.git', 'v1.ts'), 'utf8')).toBe(V1_CALL);
  });
});
