/**
 * Migrated TypeScript must still compile: every TypeScript fixture's expected output (single-file
 * cases, and the expected/ tree of each fixture project) type-checks without an error its input did
 * not have. Both sides are compiled by the project's own `tsc` (strict), packages left unresolved, so
 * only what the rewrite changed can make a difference. Errors are compared per file by code and
 * message (line numbers move with the edits).
 *
 * Except packages whose types decide what a rewrite may write: `node-fetch` resolves to the real
 * node-fetch 3 and `undici` to undici's own types (undici-types), both dev dependencies, whose `json()`
 * is `Promise<unknown>`, so an unwrap of their parsed body must compile on `unknown` as it would in a
 * project that installed them.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyDir, listFiles, REPO } from './helpers.js';

const FIXTURES = path.join(REPO, 'fixtures');
const TSC = path.join(REPO, 'node_modules', '.bin', process.platform === 'win32' ? 'tsc.cmd' : 'tsc');
const TS_FILE = /\.(m|c)?tsx?$/;
/** Cannot find module / its types: packages are not installed next to the fixtures. */
const UNRESOLVED = new Set(['TS2307', 'TS2792', 'TS7016']);

/** Packages the fixtures compile against with their real types: import name → the dev dependency that types it. */
const TYPED_PACKAGES: Record<string, string> = { 'node-fetch': 'node-fetch', undici: 'undici-types' };

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noImplicitAny: false,
    noEmit: true,
    skipLibCheck: true,
    target: 'es2022',
    module: 'esnext',
    moduleResolution: 'bundler',
    moduleDetection: 'force',
    jsx: 'preserve',
    lib: ['es2022', 'dom'],
    types: ['node'],
    typeRoots: [path.join(REPO, 'node_modules', '@types')],
    paths: Object.fromEntries(Object.entries(TYPED_PACKAGES).map(([name, types]) => [name, [path.join(REPO, 'node_modules', types)]])),
  },
  include: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'],
};

/** Write both sides: one folder per case, so each keeps its own file names and relative imports. */
function stage(root: string): void {
  for (const side of ['input', 'output']) fs.mkdirSync(path.join(root, side), { recursive: true });
  for (const rule of fs.readdirSync(FIXTURES)) {
    const dir = path.join(FIXTURES, rule);
    if (rule === 'projects') {
      for (const name of fs.readdirSync(dir)) {
        copyDir(path.join(dir, name, 'input'), path.join(root, 'input', `projects-${name}`));
        copyDir(path.join(dir, name, 'expected'), path.join(root, 'output', `projects-${name}`));
      }
      continue;
    }
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const file of listFiles(dir)) {
      const m = /^(.+)\.input\.((?:m|c)?tsx?)$/.exec(path.relative(dir, file));
      const output = m && path.join(dir, `${m[1]}.output.${m[2]}`);
      if (!m || !fs.existsSync(output!)) continue;
      const name = `case.${m[2]}`;
      const folder = `${rule}-${m[1]!.split(path.sep).join('-')}`;
      for (const [side, from] of [['input', file], ['output', output!]] as const) {
        fs.mkdirSync(path.join(root, side, folder), { recursive: true });
        fs.copyFileSync(from, path.join(root, side, folder, name));
      }
    }
  }
  for (const side of ['input', 'output']) fs.writeFileSync(path.join(root, side, 'tsconfig.json'), JSON.stringify(TSCONFIG));
}

/** `file → ['TS2339: Property …', …]` for one side. */
function typeErrors(dir: string): Map<string, string[]> {
  const r = spawnSync(TSC, ['-p', '.', '--pretty', 'false'], { cwd: dir, encoding: 'utf8' });
  const out = new Map<string, string[]>();
  for (const line of `${r.stdout}${r.stderr}`.split('\n')) {
    const m = /^(.+?)\(\d+,\d+\): error (TS\d+): (.*)$/.exec(line.trim());
    if (!m || UNRESOLVED.has(m[2]!)) continue;
    const file = path.relative(dir, path.resolve(dir, m[1]!)).split(path.sep).join('/');
    out.set(file, [...(out.get(file) ?? []), `${m[2]}: ${m[3]}`]);
  }
  return out;
}

describe('fixture outputs type-check', () => {
  it('add no type error to their inputs', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'v2-migrate-types-'));
    try {
      stage(root);
      const staged = listFiles(path.join(root, 'output')).filter((f) => TS_FILE.test(f));
      expect(staged.length, 'no TypeScript fixture outputs found').toBeGreaterThan(10);
      const before = typeErrors(path.join(root, 'input'));
      const after = typeErrors(path.join(root, 'output'));
      const added: string[] = [];
      for (const [file, errors] of after) {
        const pool = [...(before.get(file) ?? [])];
        for (const e of errors) {
          const i = pool.indexOf(e);
          if (i >= 0) pool.splice(i, 1);
          else added.push(`${file}: ${e}`);
        }
      }
      expect(added).toEqual([]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
