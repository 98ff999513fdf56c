import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, tempProject } from './helpers.js';

// The built module: its worker thread is dist/src/run/screen-worker.js (npm test builds first).
process.env.V2_MIGRATE_SCREEN_THRESHOLD = '0';
const { NO_MATCH, Screen, screenEach } = (await import(path.join(REPO, 'dist', 'src', 'run', 'screen.js'))) as typeof import('../src/run/screen.js');
const { CLAIMED, LOOK, NOTHING, UNREADABLE } = (await import(path.join(REPO, 'dist', 'src', 'run', 'screen-core.js'))) as typeof import('../src/run/screen-core.js');
const { encodeNeedles } = (await import(path.join(REPO, 'dist', 'src', 'scan', 'prefilter.js'))) as typeof import('../src/scan/prefilter.js');

describe('screenEach (the byte screen of a tree, on two threads)', () => {
  const files: Record<string, string | Buffer> = {
    'hit.ts': "const BASE = 'https://rest.runpod.io/v1';\n",
    'mention.md': 'See runpod.io docs\n',
    'utf16.ts': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("fetch('https://rest.runpod.io/v1/pods')", 'utf16le')]),
    'empty.ts': '',
  };
  for (let i = 0; i < 300; i++) files[`many/f${String(i).padStart(3, '0')}.ts`] = i % 97 === 5 ? `// see api.runpod.io ${i}\n` : `export const x${i} = ${i};\n`;
  const dir = tempProject(files);
  const list = [...Object.keys(files), 'missing.ts'].sort().map((f) => path.join(dir, f));

  const NEEDLES = ['rest.runpod.io', 'api.runpod.io', 'unpod'];
  const screen = async (jobs: number, early: InstanceType<typeof Screen> | null = null, needles = NEEDLES): Promise<string[]> => {
    const seen: string[] = [];
    await screenEach(list, needles, (file, bytes) => void seen.push(`${path.relative(dir, file)} ${bytes === null ? 'unreadable' : bytes === NO_MATCH ? '-' : bytes.toString('latin1').length}`), jobs, early);
    return seen;
  };

  it('hands every file over in order, with its bytes only where a needle or UTF-16 is', async () => {
    const one = await screen(1);
    expect(one).toHaveLength(list.length);
    expect(one).toContain('hit.ts 42');
    expect(one).toContain('mention.md 19');
    expect(one).toContain('missing.ts unreadable');
    expect(one).toContain('empty.ts -');
    expect(one).toContain(`many/f005.ts ${'// see api.runpod.io 5\n'.length}`);
    expect(one).toContain('many/f006.ts -');
    expect(one).toContain(`utf16.ts ${(files['utf16.ts'] as Buffer).length}`);
    expect(one.map((l) => l.split(' ')[0])).toEqual(list.map((f) => path.relative(dir, f)));
  });

  it('gives the same answers with a worker thread screening alongside', async () => {
    expect(fs.existsSync(path.join(REPO, 'dist', 'src', 'run', 'screen-worker.js'))).toBe(true);
    const one = await screen(1);
    for (let i = 0; i < 3; i++) expect(await screen(2)).toEqual(one);
    // The worker's own answers: before settle() only the worker screens, so wait for its first batch.
    const early = Screen.early(NEEDLES, 2, [])!;
    for (const f of list) early.add(f);
    const batch = list.slice(0, 256);
    for (const deadline = Date.now() + 10_000; batch.some((f) => early.code(f) <= CLAIMED) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 5));
    expect(batch.filter((f) => early.code(f) <= CLAIMED)).toEqual([]);
    expect(await screen(2, early)).toEqual(one);
  });

  it('reads answers off a screen fed during discovery, and screens what it lacks or cannot answer', async () => {
    const one = await screen(1);
    for (const needles of [NEEDLES, [...NEEDLES, 'extra-needle'], ['unpod']]) {
      const early = Screen.early([...NEEDLES, 'extra-needle'], 2, [])!;
      expect(early).not.toBeNull();
      for (const f of list.slice(0, 280)) early.add(f); // the walk found some of the files
      const expected = needles === NEEDLES ? one : await screen(1, null, needles);
      expect(await screen(2, early, needles), needles.join()).toEqual(expected);
    }
  });
});

describe('Screen.clearsAll (a group of files with nothing for the engines)', () => {
  const files: Record<string, string | Buffer> = { 'hit.ts': "const B = 'https://rest.runpod.io/v1';\n", 'utf16.ts': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('export {};', 'utf16le')]) };
  for (let i = 0; i < 20; i++) files[`clean/f${i}.ts`] = `export const x${i} = ${i};\n`;
  const dir = tempProject(files);
  const at = (f: string): string => path.join(dir, f);
  const clean = Object.keys(files).filter((f) => f.startsWith('clean/')).map(at);

  it('only for files each screened and holding none of the needles, nor of needles that hold one of its own', async () => {
    const early = Screen.early(['rest.runpod.io', 'unpod'], 2, [])!;
    for (const f of [...Object.keys(files), 'missing.ts'].map(at)) early.add(f);
    await early.settle();
    expect(early.clearsAll(clean, ['unpod'])).toBe(true);
    // A base URL holds its host, a wrapper call `callRunpod(` holds 'unpod': a file with neither has none of them.
    expect(early.clearsAll(clean, ['https://rest.runpod.io/v1', 'callRunpod('])).toBe(true);
    // A needle the screen did not look for (a wrapper declared in a package's config).
    expect(early.clearsAll(clean, ['unpod', 'stopPod('])).toBe(false);
    for (const f of ['hit.ts', 'utf16.ts', 'missing.ts', 'never-added.ts']) expect(early.clearsAll([...clean, at(f)], ['unpod']), f).toBe(false);
  });

  it("takes git grep's answer for held files: those it matched are read, the others hold nothing; with no answer, every one is read", async () => {
    const held = [...Object.keys(files).map(at), at('missing.ts')];
    const answered = async (matched: ReadonlySet<string> | null): Promise<string[]> => {
      const early = Screen.early(['rest.runpod.io', 'unpod'], 2, [])!;
      const holder = early.holder();
      for (const f of held) holder.hold(f);
      holder.answer(matched);
      await early.settle();
      return held.map((f) => `${path.relative(dir, f)} ${early.code(f)}`);
    };
    // git matched hit.ts (it cannot match a UTF-16 file, nor a missing one: those read as clean to it).
    const byGit = await answered(new Set([at('hit.ts')]));
    expect(byGit).toContain(`hit.ts ${LOOK}`);
    expect(byGit.filter((l) => !l.startsWith('hit.ts')).every((l) => l.endsWith(` ${NOTHING}`))).toBe(true);
    // No answer (git failed, or a file spoiled the prescreen): every held file is screened as bytes.
    const read = await answered(null);
    expect(read).toContain(`hit.ts ${LOOK}`);
    expect(read).toContain(`utf16.ts ${LOOK}`);
    expect(read).toContain(`missing.ts ${UNREADABLE}`);
    expect(read).toContain(`clean/f0.ts ${NOTHING}`);
  });

  it("answers each git grep for its own files only (a run of two folders asks two)", async () => {
    const early = Screen.early(['rest.runpod.io', 'unpod'], 2, [])!;
    const [first, second] = [early.holder(), early.holder()];
    first.hold(at('clean/f0.ts'));
    second.hold(at('hit.ts'));
    first.hold(at('clean/f1.ts'));
    // The first folder's git grep matched nothing; the second's has not answered yet.
    first.answer(new Set());
    second.answer(new Set([at('hit.ts')]));
    await early.settle();
    expect([at('clean/f0.ts'), at('clean/f1.ts'), at('hit.ts')].map((f) => early.code(f))).toEqual([NOTHING, NOTHING, LOOK]);
  });
});

describe('import specifiers collected by the screen (the import graph of a run with files to migrate)', () => {
  // One file matches (`m/hit.ts`); the screens go through the others before and after it.
  const files: Record<string, string> = { 'a/before.ts': "import { x } from './x';\n", 'm/hit.ts': "import { y } from './y';\nconst B = 'https://rest.runpod.io/v1';\n", 'notes.md': "import z from './z'\n" };
  for (let i = 0; i < 300; i++) files[`z/f${String(i).padStart(3, '0')}.ts`] = `import { a${i} } from './a${i}';\nexport const b = require("../b${i}");\n`;
  const dir = tempProject(files);
  const list = Object.keys(files).sort().map((f) => path.join(dir, f));
  const specifiersAfter = async (jobs: number): Promise<Record<string, string[] | undefined>> => {
    const of = await screenEach(list, ['rest.runpod.io', 'unpod'], () => {}, jobs, null, ['rest.runpod.io']);
    return Object.fromEntries(list.map((f) => [path.relative(dir, f), of(f)]));
  };

  it('for every JS/TS file once some file matched, on either thread (those screened before it are read again)', async () => {
    const truth = (file: string): string[] => [...files[file]!.matchAll(/from '([^']+)'|require\("([^"]+)"\)/g)].map((m) => (m[1] ?? m[2])!);
    for (const jobs of [1, 2]) {
      const got = await specifiersAfter(jobs);
      expect(got['notes.md']).toBeUndefined();
      for (const file of Object.keys(files).filter((f) => f.endsWith('.ts'))) expect(got[file], `${file}, jobs ${jobs}`).toEqual(truth(file));
    }
  });

  it('collects nothing where no JS/TS file holds a trigger, even where another file mentions RunPod (a lint of such a tree pays nothing)', async () => {
    const clean = list.filter((f) => !f.endsWith('hit.ts'));
    const mention = path.join(dir, 'notes.md');
    fs.writeFileSync(mention, 'Deployed on RunPod: https://rest.runpod.io/v2\n');
    for (const jobs of [1, 2]) {
      const of = await screenEach(clean, ['rest.runpod.io', 'unpod'], () => {}, jobs, null, ['rest.runpod.io']);
      expect(clean.map(of).filter(Boolean)).toEqual([]);
    }
  });
});

describe('encodeNeedles (what the screen searches for)', () => {
  const searched = (needles: string[]): string[] => encodeNeedles(needles).map((b) => b.toString('latin1'));

  it('drops a needle that holds another one: wherever it is, the shorter one is too', () => {
    expect(searched(['rest.runpod.io', 'api.runpod.io', 'unpod', 'UNPOD'])).toEqual(['unpod', 'UNPOD']);
    expect(searched(['proxy.internal', 'rest.runpod.io', 'unpod', 'proxy.internal'])).toEqual(['proxy.internal', 'unpod']);
    expect(searched(['rest.runpod.io', 'api.runpod.io'])).toEqual(['rest.runpod.io', 'api.runpod.io']);
  });
});
