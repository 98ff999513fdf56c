import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSharedImportTree, generateTree } from '../bench/generate.js';
import type { ComponentOutcome, ComponentTask } from '../src/run/component.js';
import { analyseInGroups, splitComponent } from '../src/run/groups.js';
import { cli, tempDir, tempProject } from './helpers.js';

/**
 * A large import-connected component is analysed in groups cut at the helpers its files share
 * (src/run/groups.ts). That is an optimisation only: with every set of files in its own group
 * (V2_MIGRATE_GROUP_BYTES=1) every report and diff must be byte-identical to the whole component's.
 */
const SPLIT = { V2_MIGRATE_GROUP_BYTES: '1' };

function expectSameWhenSplit(dir: string): void {
  for (const args of [['--dry-run', '.'], ['--dry-run', '--format', 'json', '.'], ['lint', '--format', 'sarif', '.']]) {
    const whole = cli(args, dir);
    const split = cli(args, dir, SPLIT);
    expect(split.code, args.join(' ')).toBe(whole.code);
    expect(split.stdout, args.join(' ')).toBe(whole.stdout);
  }
}

describe('groups of a component', () => {
  it('cut at helpers that import only helpers; a helper that reaches a caller joins its importers', () => {
    const importsOf = new Map([
      ['a.ts', ['log.ts', 'types.ts']],
      ['b.ts', ['log.ts']],
      ['c.ts', ['bridge.ts']],
      ['d.ts', ['bridge.ts']],
      ['bridge.ts', ['b.ts']],
      ['types.ts', ['log.ts']],
    ]);
    const files = ['a.ts', 'b.ts', 'bridge.ts', 'c.ts', 'd.ts', 'log.ts', 'types.ts'];
    const callers = new Set(['a.ts', 'b.ts', 'c.ts', 'd.ts']);
    const split = (bytes: number) => splitComponent({ files, importsOf, isCaller: (f) => callers.has(f), bytesOf: (f) => (f === 'log.ts' || f === 'types.ts' ? 100 : bytes) });
    // bridge.ts imports a caller: not a pure helper, so b, c and d are one set; log and types are copied.
    expect(split(1024 * 1024)).toEqual([
      ['a.ts', 'log.ts', 'types.ts'],
      ['b.ts', 'bridge.ts', 'c.ts', 'd.ts', 'log.ts'],
    ]);
    // Small components stay whole.
    expect(split(100)).toBeNull();
  });

  it('merges the groups that share a file something looked past, and writes the component’s quote', async () => {
    const runs: string[][] = [];
    const runTasks = async (tasks: ComponentTask[]): Promise<Map<ComponentTask, ComponentOutcome>> =>
      new Map(
        tasks.map((t) => {
          runs.push(t.inputs.map((i) => `${i.file}${i.shared ? '*' : ''}${t.options.quote ?? ''}`));
          const files = t.inputs.map((i) => i.file);
          // c.ts asks who calls into shared.ts; a.ts is all double quotes, the others single.
          return [t, { results: files.map((f) => [f, { output: null, findings: [] }]), crossTalk: files.includes('c.ts') && files.length === 2 ? ['shared.ts'] : [], quotes: files.map((f) => [f, f === 'a.ts' ? 0 : 3, f === 'a.ts' ? 5 : 0]) }];
        }),
      );
    const makeTask = (files: readonly string[], shared: ReadonlySet<string>, quote: string | undefined): ComponentTask => ({ inputs: files.map((file) => ({ file, source: '', ...(shared.has(file) ? { shared: true } : {}) })), options: { bases: { legacy: [], target: '' }, ...(quote ? { quote } : {}) } });
    const groups = [
      ['a.ts', 'helper.ts'],
      ['b.ts', 'helper.ts', 'shared.ts'],
      ['c.ts', 'shared.ts'],
    ];
    const results = await analyseInGroups([['a.ts', 'b.ts', 'c.ts', 'helper.ts', 'shared.ts']], () => groups, makeTask, runTasks);
    expect([...results.keys()].sort()).toEqual(['a.ts', 'b.ts', 'c.ts', 'helper.ts', 'shared.ts']);
    expect(runs).toEqual([
      ['a.ts', 'helper.ts*'],
      ['b.ts', 'helper.ts*', 'shared.ts*'],
      ['c.ts', 'shared.ts*'],
      // shared.ts was looked past: b and c together (helper.ts is still shared with a).
      ['b.ts', 'c.ts', 'helper.ts*', 'shared.ts'],
      // a.ts alone would choose ", the component's literals choose '.
      ["a.ts'", "helper.ts*'"],
    ]);
  });

  it('a shared helper that requests go through (conflicting pod actions) is analysed with all its importers', () => {
    const dir = tempProject({
      'src/http.ts': "export async function post(url: string, key: string) {\n  const res = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${key}` } });\n  return res.json();\n}\nexport const count = (xs: unknown[]) => xs.length;\n",
      'src/a.ts': "import { post } from './http';\nconst BASE = 'https://rest.runpod.io/v1';\nexport const stop = (id: string, key: string) => post(`${BASE}/pods/${id}/stop`, key);\n",
      'src/b.ts': "import { post } from './http';\nconst BASE = 'https://rest.runpod.io/v1';\nexport const start = (id: string, key: string) => post(`${BASE}/pods/${id}/start`, key);\n",
      'src/c.ts': "import { count } from './http';\nexport async function pods(key: string) {\n  const res = await fetch('https://rest.runpod.io/v1/pods', { headers: { Authorization: `Bearer ${key}` } });\n  return count(await res.json());\n}\n",
    });
    expect(cli(['--dry-run', '.'], dir).stdout).toContain('the same code also builds another request');
    expectSameWhenSplit(dir);
  });

  it('new strings take the quote of the whole component', () => {
    const dir = tempProject({
      'src/log.ts': 'export const log = (...a: unknown[]) => console.log(...a);\n',
      'src/a.ts': 'import { log } from "./log";\nconst BASE = "https://rest.runpod.io/v1";\nexport async function stop(id: string, key: string) {\n  log("stop", "pod", "now");\n  return fetch(`${BASE}/pods/${id}/stop`, { method: "POST", headers: { Authorization: `Bearer ${key}` } });\n}\n',
      'src/b.ts': "import { log } from './log';\nconst BASE = 'https://rest.runpod.io/v1';\nexport async function start(id: string, key: string) {\n  log('start', 'pod', 'now', 'x', 'y', 'z', 'w');\n  return fetch(`${BASE}/pods/${id}/start`, { method: 'POST', headers: { Authorization: `Bearer ${key}` } });\n}\n",
    });
    expect(cli(['--dry-run', '.'], dir).stdout).toContain("body: JSON.stringify({ action: 'stop' })");
    expectSameWhenSplit(dir);
  });

  it('the shared-import tree and the bench tree give the same results in groups', () => {
    const shared = tempDir('v2-migrate-groups-');
    generateSharedImportTree(path.join(shared, 'tree'), { files: 30 });
    expectSameWhenSplit(path.join(shared, 'tree'));
    const bench = tempDir('v2-migrate-groups-');
    generateTree(bench, { packages: 2, files: 30, runpod: true, runpodEvery: 1, nodeModules: 20, git: false });
    expectSameWhenSplit(bench);
  });
});
