import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, cli, git, listFiles } from './helpers.js';
import { hostileRepo, MODES, runIn, V1_CALL, type FixtureFile, type Hostile } from './hostile.js';

/**
 * A repository is untrusted input (README "Safety"): a clone nobody has read, linted in CI, must not
 * make the tool write or delete outside it, into .git, or over a file it did not create. Each case is
 * a hostile repository beside a folder of sentinel files, run with `lint`, `--dry-run` and the write.
 */

const JOURNAL = '.v2-migrate-journal.json';
const PWNED = 'PWNED\n';

/**
 * A journal entry as a staging run writes it, set up so that an unchecked recovery acts on it: an
 * in-place write whose file no longer has its `before` text is "restored" from `backup` (a file the
 * run created, with `backup` null, is deleted).
 */
const entry = (file: string, backup: string | null, n: number) => ({ group: 'g', file, tmp: path.join(path.dirname(file), `.v2m-4242-${n}.tmp`), backup, inPlace: true, before: 'x', after: 'y' });
const journal = (...entries: ReturnType<typeof entry>[]): string => JSON.stringify({ version: 1, state: 'staging', entries });

/** The line a run prints for a journal it does not act on (`file` and `why` make up the reason). */
const notActedOn = (file: string, why: string, write: boolean): string =>
  `v2-migrate: ${file}${why}, so it is not acted on: nothing it names was touched. If an interrupted v2-migrate run left it, check the files it lists, then remove it${write ? '; until then v2-migrate writes nothing here' : ''}.\n`;

interface JournalCase {
  name: string;
  committed: (h: Hostile) => Record<string, FixtureFile>;
  untracked?: (h: Hostile) => Record<string, FixtureFile>;
  /** The file the message names (default: the journal) and why it is not acted on. */
  file?: (h: Hostile) => string;
  why: (h: Hostile) => string;
}

const CASES: JournalCase[] = [
  {
    name: 'a committed journal that rolls a file outside back to PWNED and deletes another (the issue)',
    committed: () => ({ 'a.ts': V1_CALL, '.v2m-4242-1.old': PWNED, [JOURNAL]: journal(entry('../outside/target.txt', '.v2m-4242-1.old', 2), entry('../outside/precious.txt', null, 3)) }),
    why: () => ' is tracked by git (an interrupted run leaves a journal git does not track)',
  },
  {
    name: 'the same journal left untracked: a relative path',
    committed: () => ({ 'a.ts': V1_CALL, '.v2m-4242-1.old': PWNED }),
    untracked: () => ({ [JOURNAL]: journal(entry('../outside/target.txt', '.v2m-4242-1.old', 2), entry('../outside/precious.txt', null, 3)) }),
    why: () => ' (entry 1) names "../outside/target.txt", not an absolute path',
  },
  {
    name: 'absolute paths outside the work tree',
    committed: () => ({ 'a.ts': V1_CALL, '.v2m-4242-1.old': PWNED }),
    untracked: (h) => ({ [JOURNAL]: journal(entry(path.join(h.outside, 'target.txt'), path.join(h.repo, '.v2m-4242-1.old'), 2), entry(path.join(h.outside, 'precious.txt'), null, 3)) }),
    why: (h) => ` (entry 1) names "${h.outside}/target.txt", which resolves outside ${h.repo}`,
  },
  {
    name: 'a path through a committed symlink to a folder outside',
    committed: () => ({ 'a.ts': V1_CALL, '.v2m-4242-1.old': PWNED, link: { link: '../outside' } }),
    untracked: (h) => ({ [JOURNAL]: journal(entry(path.join(h.repo, 'link/target.txt'), path.join(h.repo, '.v2m-4242-1.old'), 2)) }),
    why: (h) => ` (entry 1) names "${h.repo}/link/target.txt", which resolves outside ${h.repo} (to ${h.outside}/target.txt)`,
  },
  {
    name: 'a git hook to "roll back" into .git',
    committed: () => ({ 'a.ts': V1_CALL, '.v2m-4242-1.old': '#!/bin/sh\necho PWNED\n' }),
    untracked: (h) => ({ [JOURNAL]: journal(entry(path.join(h.repo, '.git/hooks/pre-commit'), path.join(h.repo, '.v2m-4242-1.old'), 2)) }),
    why: (h) => ` (entry 1) names "${h.repo}/.git/hooks/pre-commit", which is inside .git`,
  },
  {
    name: 'a committed file listed as one the run created, to delete it',
    committed: () => ({ 'a.ts': V1_CALL }),
    untracked: (h) => ({ [JOURNAL]: journal(entry(path.join(h.repo, 'a.ts'), null, 1)) }),
    why: (h) => ` (entry 1) lists "${h.repo}/a.ts", which git tracks, as a file the run created`,
  },
  {
    name: 'a file outside named as the backup of a file inside (its bytes copied in, then it is deleted)',
    committed: () => ({ 'a.ts': V1_CALL }),
    untracked: (h) => ({ [JOURNAL]: journal(entry(path.join(h.repo, 'a.ts'), path.join(h.outside, 'secret.txt'), 1)) }),
    why: (h) => ` (entry 1) lists "${h.outside}/secret.txt" as a staged file of "${h.repo}/a.ts": not a name v2-migrate gives one`,
  },
  {
    name: 'a committed journal that is a symlink to a secret outside',
    committed: () => ({ 'a.ts': V1_CALL, [JOURNAL]: { link: '../outside/secret.txt' } }),
    why: () => ' is a symbolic link (to ../outside/secret.txt), and v2-migrate never writes through one',
  },
  {
    name: 'a committed partial journal that is a symlink to a file outside (a write would fill it)',
    committed: () => ({ 'a.ts': V1_CALL, [`${JOURNAL}.partial`]: { link: '../outside/precious.txt' } }),
    file: (h) => path.join(h.repo, `${JOURNAL}.partial`),
    why: () => ' is a symbolic link (to ../outside/precious.txt), and v2-migrate never writes through one',
  },
  {
    name: 'a journal that is not JSON',
    committed: () => ({ 'a.ts': V1_CALL }),
    untracked: () => ({ [JOURNAL]: 'PWNED {' }),
    why: () => ' is not JSON',
  },
  {
    name: 'JSON that is not a journal',
    committed: () => ({ 'a.ts': V1_CALL }),
    untracked: () => ({ [JOURNAL]: '{"version":1,"state":"committing","entries":"all"}' }),
    why: () => ' is not a v2-migrate journal (entries: Invalid input: expected array, received string)',
  },
];

describe('a journal the repository holds is never acted on: reported, and lint goes on', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const h = hostileRepo(c.committed, c.untracked);
      const before = Object.fromEntries(listFiles(h.repo).filter((f) => !f.includes(`${path.sep}.git${path.sep}`)).map((f) => [f, fs.lstatSync(f).isSymbolicLink() ? fs.readlinkSync(f) : fs.readFileSync(f, 'latin1')]));
      const file = c.file ? c.file(h) : path.join(h.repo, JOURNAL);
      for (const { mode, args } of MODES) {
        const r = runIn(h, args);
        expect(r.stderr, mode).toBe(notActedOn(file, c.why(h), mode === 'write'));
        // lint and the dry run still report the v1 call; the write refuses to start.
        expect(r.code, mode).toBe(mode === 'write' ? 2 : 1);
        if (mode !== 'write') expect(r.stdout, mode).toMatch(/scanned.*: 3 errors/);
        for (const [f, text] of Object.entries(before)) expect(fs.lstatSync(f).isSymbolicLink() ? fs.readlinkSync(f) : fs.readFileSync(f, 'latin1'), `${mode}: ${f}`).toBe(text);
      }
    });
  }

  it('a journal an interrupted write left in a git work tree (untracked, naming its own files) is still recovered', () => {
    const create = "export async function createPod(input: Record<string, unknown>) {\n  return fetch('https://rest.runpod.io/v1/pods', { method: 'POST', body: JSON.stringify(input) });\n}\n";
    const h = hostileRepo(() => ({ 'a.ts': V1_CALL, 'c.ts': create }));
    const killed = spawnSync(process.execPath, [BIN], { cwd: h.repo, encoding: 'utf8', env: { ...process.env, V2_MIGRATE_TEST_FAULT: 'kill-at-rename:3' } });
    expect(killed.signal).toBe('SIGKILL');
    // Renames in path order: a.ts, c.ts, then the adapter file the run creates.
    expect(fs.readFileSync(path.join(h.repo, 'c.ts'), 'utf8')).not.toBe(create);
    const r = runIn(h, ['lint']);
    expect(r.stderr).toBe('v2-migrate: an earlier run was interrupted while writing files.\nCompleted (every file of their group had its new text):\n  a.ts\nRolled back to their text before that run:\n  c.ts\n  runpod-v2-adapters.ts\n');
    expect(fs.readFileSync(path.join(h.repo, 'c.ts'), 'utf8')).toBe(create);
    expect(fs.existsSync(path.join(h.repo, 'runpod-v2-adapters.ts'))).toBe(false);
    expect(listFiles(h.repo).filter((f) => /\.v2m-|v2-migrate-journal|v2-migrate\.lock/.test(f))).toEqual([]);
  });
});

const CREATE_POD = "export async function createPod(input: Record<string, unknown>) {\n  return fetch('https://rest.runpod.io/v1/pods', { method: 'POST', body: JSON.stringify(input) });\n}\n";

describe('adapters.file in a repository config: inside the work tree, outside .git, never a file the tool did not generate', () => {
  const cases: Array<{ name: string; file: (h: Hostile) => string; extra?: Record<string, FixtureFile>; problem: (h: Hostile) => string }> = [
    { name: '../ out of the work tree', file: () => '../outside/victim.ts', problem: (h) => `${h.outside}/victim.ts resolves outside ${h.repo}` },
    { name: 'an absolute path', file: (h) => path.join(h.outside, 'abs.ts'), problem: (h) => `${h.outside}/abs.ts resolves outside ${h.repo}` },
    { name: 'a folder that is a committed symlink to outside', file: () => 'link/victim.ts', extra: { link: { link: '../outside' } }, problem: (h) => `${h.repo}/link/victim.ts resolves outside ${h.repo} (to ${h.outside}/victim.ts)` },
    { name: 'a git hook', file: () => '.git/hooks/pre-commit', problem: (h) => `${h.repo}/.git/hooks/pre-commit.ts is inside .git` },
    { name: 'the file being migrated', file: () => 'c.ts', problem: (h) => `${h.repo}/c.ts exists and is not an adapter file v2-migrate generated (the adapter module would replace it)` },
  ];
  for (const c of cases) {
    it(`${c.name}: a config error (exit 2) naming the key, in every mode, and nothing written`, () => {
      let value = '';
      const h = hostileRepo((h) => {
        value = c.file(h);
        return { 'c.ts': CREATE_POD, 'v2-migrate.config.json': JSON.stringify({ adapters: { file: value } }), ...c.extra };
      });
      for (const { mode, args } of MODES) {
        const r = runIn(h, args);
        expect(r.stderr, mode).toBe(`v2-migrate: ${h.repo}/v2-migrate.config.json: adapters.file: ${JSON.stringify(value)}: ${c.problem(h)}\nRun v2-migrate --help for usage.\n`);
        expect(r.code, mode).toBe(2);
        expect(fs.readFileSync(path.join(h.repo, 'c.ts'), 'utf8'), mode).toBe(CREATE_POD);
      }
    });
  }

  it('a new file inside is written, and regenerated on a later run (its own generated file is not "another file")', () => {
    const h = hostileRepo(() => ({ 'c.ts': CREATE_POD, 'lib/index.ts': '', 'v2-migrate.config.json': JSON.stringify({ adapters: { file: 'lib/adapters.ts' } }) }));
    expect(runIn(h, []).code).toBe(1); // written; the created pod goes to callers outside the run (response-field)
    const adapters = path.join(h.repo, 'lib/adapters.ts');
    expect(fs.readFileSync(adapters, 'utf8')).toContain('export function toV2CreatePodBody');
    git(h.repo, 'add', '.');
    git(h.repo, 'commit', '-qm', 'migrated');
    fs.writeFileSync(path.join(h.repo, 'e.ts'), CREATE_POD.replace('createPod', 'createEndpoint').replace('/pods', '/endpoints'));
    git(h.repo, 'add', '.');
    git(h.repo, 'commit', '-qm', 'more');
    // Exit 1: the wrapped call sites of the first run carry their body-adapter warnings.
    expect(runIn(h, [])).toMatchObject({ code: 1, stderr: '' });
    expect(fs.readFileSync(adapters, 'utf8')).toMatch(/export function toV2CreateEndpointBody[^]*export function toV2CreatePodBody/);
  });

  it('a file of the project where the adapter file goes by default is never replaced: its importers are held with a finding', () => {
    const mine = 'export const mine = 1;\n';
    const h = hostileRepo(() => ({ 'c.ts': CREATE_POD, 'runpod-v2-adapters.ts': mine }));
    const r = runIn(h, ['--format', 'json']);
    expect(r.code).toBe(1);
    expect(fs.readFileSync(path.join(h.repo, 'runpod-v2-adapters.ts'), 'utf8')).toBe(mine);
    expect(fs.readFileSync(path.join(h.repo, 'c.ts'), 'utf8')).toBe(CREATE_POD);
    const doc = JSON.parse(r.stdout);
    const skipped = (rel: string): string[] => doc.files.find((f: { path: string }) => f.path === rel).findings.filter((f: { ruleId: string }) => f.ruleId === 'skipped-file').map((f: { message: string }) => f.message);
    expect(skipped('runpod-v2-adapters.ts')).toEqual(['Not rewritten: a file v2-migrate did not generate is where its adapter file goes, and it is never replaced by one (rename it, or set adapters.file in the config).']);
    expect(skipped('c.ts')).toEqual(['Not rewritten: it must move with runpod-v2-adapters.ts, which v2-migrate cannot write (see the finding there).']);
    expect(doc.summary.changed).toBe(0);
    expect(cli(['lint'], h.repo).code).toBe(1);
  });
});
