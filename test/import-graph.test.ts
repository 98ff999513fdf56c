import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportGraph } from '../src/run/import-graph.js';
import { moduleSpecifiers } from '../src/run/imports.js';
import { ModuleResolver, readWorkspaces } from '../src/scan/resolve.js';
import { onDisk } from '../src/util/folders.js';
import { listFiles, tempProject } from './helpers.js';

const code = 'export {};\n';
const importing = (...specs: string[]): string => specs.map((s, i) => `import x${i} from '${s}';\n`).join('');

/**
 * The graph resolves a specifier only where it may name a file asked about (src/scan/resolve.ts,
 * mayNameOneOf). Every way a relative specifier reaches a file under another name is here; the
 * answer must be the one of resolving every specifier.
 */
describe('ImportGraph (importers found without resolving every import)', () => {
  it('finds the same importers as resolving every specifier, for every file', () => {
    const dir = tempProject({
      'src/client.ts': code,
      'src/lib/index.ts': code,
      'src/Mixed/Case.ts': code,
      'src/gen/api.d.ts': 'export declare const x: number;\n',
      'src/util.service.ts': code,
      'pkg/package.json': JSON.stringify({ name: 'pkg', main: './src/entry.ts' }),
      'pkg/src/entry.ts': code,
      'lib2/package.json': JSON.stringify({ name: 'lib2', main: './dist/main.js' }),
      'lib2/src/main.ts': code,
      'ws/package.json': JSON.stringify({ name: '@ws/core', exports: { '.': './src/core.ts' } }),
      'ws/src/core.ts': code,
      'src/a.ts': importing('./client.js', './lib', '../pkg', './gen/api', './util.service'),
      'src/b.ts': importing('./lib/', './lib/index.js', '../lib2', '@ws/core'),
      'src/lib/c.ts': importing('.', '..', '../client'),
      'src/lib/d.ts': importing('./', '../Mixed/Case', '../../pkg/src/entry'),
      'src/e.ts': importing('./missing', 'react', 'node:fs', './client.css'),
    });
    const files = listFiles(dir).filter((f) => /\.[cm]?[jt]sx?$/.test(f)).sort();
    const known = new Set(files);
    const resolver = new ModuleResolver(readWorkspaces([path.join(dir, 'ws')]), onDisk);
    const graph = new ImportGraph(files, resolver, known);
    const rel = (fs_: Iterable<string>): string[] => [...fs_].map((f) => path.relative(dir, f).split(path.sep).join('/'));
    let edges = 0;
    for (const target of files) {
      const everySpecifier = files.filter((f) => moduleSpecifiers(fs.readFileSync(f, 'utf8')).some((s) => resolver.resolve(f, s, (g) => known.has(g)) === target));
      edges += everySpecifier.length;
      // Asked first (nothing resolved yet), and after other questions (answers partly from the file's resolved imports).
      expect(rel(new ImportGraph(files, resolver, known).importersOf(new Set([target]), new Set())), rel([target]).join()).toEqual(rel(everySpecifier));
      expect(rel(graph.importersOf(new Set([target]), new Set()))).toEqual(rel(everySpecifier));
    }
    // The tree exercises the ways in: a `.js` naming a `.ts`, a folder's index (`./lib`, `./lib/`, `.`,
    // `./`), a folder's package.json `main`, a dotted name, a workspace package.
    expect(edges).toBe(11);
    expect(Object.fromEntries(files.map((f) => [rel([f])[0], rel(graph.get(f)!)]))).toMatchObject({
      'src/a.ts': ['src/client.ts', 'src/lib/index.ts', 'pkg/src/entry.ts', 'src/util.service.ts'],
      'src/b.ts': ['src/lib/index.ts', 'ws/src/core.ts'],
      'src/lib/c.ts': ['src/lib/index.ts', 'src/client.ts'],
      'src/lib/d.ts': ['src/lib/index.ts', 'src/Mixed/Case.ts', 'pkg/src/entry.ts'],
    });
  });
});
