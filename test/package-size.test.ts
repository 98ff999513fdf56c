import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers.js';

/**
 * What `npm install v2-migrate` puts on a disk: the packed files (`npm pack --dry-run`, of the build
 * the tests run on) plus the installed closure of the runtime dependencies as they sit in this
 * node_modules (the platform binaries npm picked here). Sizes are counted as `du` does, in 4 KiB
 * blocks per file and folder, so the bound holds for what a user sees.
 */
const LIMIT_BYTES = 20 * 1000 * 1000;
/**
 * Native packages (a binary per platform), tinypool (it starts its own worker file) and @babel/types,
 * whose declarations the published ones name (the engine's nodes; no code of it runs); anything else
 * is bundled into dist/lib.
 */
const RUNTIME_DEPENDENCIES = ['@babel/types', 'oxc-parser', 'oxc-resolver', 'tinypool'];

const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  exports: Record<string, string | { types?: string }>;
};
const onDisk = (bytes: number) => Math.ceil(bytes / 4096) * 4096;

function folderBytes(dir: string): number {
  let total = onDisk(1);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(full);
    else if (entry.isFile()) total += onDisk(fs.statSync(full).size);
  }
  return total;
}

/** The folders of `name` and of everything it installs here, each once. */
function installed(name: string, from: string, seen: Map<string, string>): void {
  let manifest: string;
  try {
    manifest = createRequire(path.join(from, 'x.js')).resolve(`${name}/package.json`);
  } catch {
    return; // an optional dependency for another platform
  }
  const dir = path.dirname(fs.realpathSync(manifest));
  if ([...seen.values()].includes(dir)) return;
  seen.set(name, dir);
  const p = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
  for (const dep of Object.keys({ ...p.dependencies, ...p.optionalDependencies })) installed(dep, dir, seen);
}

/** The bare module specifiers the declaration files reachable from `from` import (comments left out). */
function declarationImports(from: string, seen = new Set<string>(), found = new Map<string, string>()): Map<string, string> {
  if (seen.has(from)) return found;
  seen.add(from);
  const text = fs.readFileSync(from, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  for (const [, specifier] of text.matchAll(/(?:^|[\s;])(?:from|import)\s*\(?\s*['"]([^'"\n]+)['"]/gm)) {
    if (specifier!.startsWith('.')) declarationImports(path.resolve(path.dirname(from), specifier!.replace(/\.js$/, '.d.ts')), seen, found);
    else found.set(specifier!, path.relative(REPO, from));
  }
  return found;
}

describe('the installed package', () => {
  it("publishes types that import only what a user has: Node's, the dependencies' and the optional peers'", () => {
    const entries = Object.values(pkg.exports).flatMap((e) => (typeof e === 'object' && e.types ? [path.join(REPO, e.types)] : []));
    expect(entries.length).toBeGreaterThan(0);
    const found = new Map<string, string>();
    for (const entry of entries) declarationImports(entry, new Set(), found);
    const allowed = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)]);
    const packageOf = (s: string) => s.split('/').slice(0, s.startsWith('@') ? 2 : 1).join('/');
    const missing = [...found].filter(([s]) => !s.startsWith('node:') && !builtinModules.includes(s) && !allowed.has(packageOf(s)));
    expect(missing, 'a bundled package (installed only for development) in the published types').toEqual([]);
  });

  it('depends only on the native packages, tinypool and the node types its declarations name; pure-JavaScript code is bundled', () => {
    expect(Object.keys(pkg.dependencies).sort()).toEqual(RUNTIME_DEPENDENCIES);
  });

  it('ships each tree-sitter grammar it reads with, and lists its license among the third-party notices', () => {
    const grammars = fs.readdirSync(path.join(REPO, 'dist', 'grammars')).sort();
    expect(grammars).toEqual(['tree-sitter-bash.wasm', 'tree-sitter-hcl.wasm', 'tree-sitter-python.wasm', 'tree-sitter-toml.wasm', 'web-tree-sitter.wasm']);
    const notices = fs.readFileSync(path.join(REPO, 'dist', 'THIRD-PARTY-NOTICES.md'), 'utf8');
    const listed = [...notices.matchAll(/^## (\S*tree-sitter\S*) /gm)].map((m) => m[1]);
    expect(listed).toEqual(['@tree-sitter-grammars/tree-sitter-hcl', '@tree-sitter-grammars/tree-sitter-toml', 'tree-sitter-bash', 'tree-sitter-python', 'web-tree-sitter']);
  });

  it(`takes at most ${LIMIT_BYTES / 1e6} MB with its dependencies`, () => {
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO, encoding: 'utf8', shell: process.platform === 'win32' });
    expect(r.status, r.stderr).toBe(0);
    const [packed] = JSON.parse(r.stdout) as [{ files: { path: string; size: number }[] }];
    // Nothing of dist/src but its declarations: the code that runs is the bundle.
    expect(packed.files.filter((f) => f.path.startsWith('dist/src/') && !f.path.endsWith('.d.ts'))).toEqual([]);
    const folders = new Set(packed.files.map((f) => path.dirname(f.path)));
    const own = packed.files.reduce((n, f) => n + onDisk(f.size), 0) + folders.size * onDisk(1);
    const dependencies = new Map<string, string>();
    for (const name of RUNTIME_DEPENDENCIES) installed(name, REPO, dependencies);
    const theirs = [...dependencies.values()].reduce((n, dir) => n + folderBytes(dir), 0);
    expect(own + theirs, `v2-migrate ${(own / 1e6).toFixed(1)} MB + ${[...dependencies.keys()].join(', ')} ${(theirs / 1e6).toFixed(1)} MB`).toBeLessThanOrEqual(LIMIT_BYTES);
  }, 60_000);
});
