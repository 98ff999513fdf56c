/**
 * The engine answers as ast-types does without loading it (src/js/ast-defs.ts, node-types.ts,
 * path.ts, bindings.ts, scope.ts replace it for speed):
 * - src/js/ast-defs.ts is ast-types' node type definitions written out. This test writes that file
 *   from the installed ast-types and fails when the committed one differs: after an ast-types
 *   upgrade, rewrite it with `npx vitest run test/ast-types-parity.test.ts -u` and review the diff.
 * - For every node of every fixture, the engine's path and ast-types' path to it name the same
 *   node and the same parent.
 * - For every identifier of every fixture and of the cases below, the scope that declares its name
 *   and the identifier that declares it are the same nodes in both.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseForTransform } from '../src/js/parse.js';
import type { N, P, t } from '../src/js/ast.js';
import { lookupScope } from '../src/js/scope.js';
import { pathsMatching } from '../src/js/walk.js';
import { listFiles } from './helpers.js';

const require = createRequire(import.meta.url);
const astTypes: typeof import('ast-types') = require('ast-types');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AstTypesPath = any;

// ast-types' exports do not include its package.json; its main module is lib/main.js.
const { version } = JSON.parse(readFileSync(path.join(path.dirname(require.resolve('ast-types')), '..', 'package.json'), 'utf8')) as { version: string };

function defsModule(): string {
  const rows = Object.keys(astTypes.namedTypes)
    .sort()
    .map((name) => {
      const bases = astTypes.Type.def(name).baseNames.join(' ');
      const fields = astTypes
        .getFieldNames({ type: name })
        .filter((f: string) => f !== 'type' && f !== 'loc' && f !== 'comments')
        .join(' ');
      return `  ${name}: [${JSON.stringify(bases)}, ${JSON.stringify(fields)}],`;
    });
  return [
    `// Written by test/ast-types-parity.test.ts from ast-types ${version}: do not edit by hand.`,
    '// Each node type ast-types defines: its direct base types, and the fields its definition gives the',
    '// type (without type, loc and comments) in ast-types\' order, both space-separated.',
    'export const AST_DEFS: Readonly<Record<string, readonly [bases: string, fields: string]>> = {',
    ...rows,
    '};',
    '',
  ].join('\n');
}

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

const CASES: Record<string, string> = {
  'hoisting.js': `
    function outer(a, { b, c: [d, ...e] = [] }, ...f) {
      if (a) { var v = 1; let l = 2; const k = 3; }
      for (let i = 0; i < 3; i++) { function inner() { return i + v + l; } }
      for (const key in f) label: while (key) break label;
      switch (a) { case 1: var s = 1; break; default: { let t = s; } }
      return [b, d, e, k, inner, s, t];
    }
    const g = function named(x = named) { return x + named; };
    const arrow = (p, q = p) => p + q + arrow;
    class K { m(z) { return z + K; } }
    export default function () { return outer; }
    export const exported = 1, { y } = {};
  `,
  'catch.js': `
    function f() {
      try { var before = 1; } catch (e) { var e = 2; var inCatch = e; let scoped = 3; }
      try {} catch ({ message }) { var hidden = message; }
      try {} catch { var bare = 1; }
      return [before, inCatch, hidden, bare, e];
    }
    var e;
  `,
  'imports.ts': `
    import def, { a as b, c } from './m';
    import * as ns from './ns';
    import type { T } from './t';
    namespace N { export const inner = 1; }
    enum E { A }
    declare function declared(x: number): void;
    interface I<U> { u: U }
    type Alias<V> = V;
    class C<W> { constructor(private readonly base: string, public other = base) {} go<X>(w: W, x: X) { return this.base + b + c + ns + def; } }
    export function generic<G>(g: G, ...rest: G[]): G { const local: T = g as T; return local ?? rest[0]!; }
  `,
  'jsx.tsx': `
    export function App({ items }: { items: string[] }) {
      const [state, setState] = useState(0);
      return <ul>{items.map((item, i) => <li key={i} onClick={() => setState(state + i)}>{item}</li>)}</ul>;
    }
  `,
};

/** The JS/TS fixture sources (inputs, and files of fixture projects), not the expected outputs. */
const fixtureFiles = (dir: string): string[] => listFiles(dir).filter((f) => /\.(?:[cm]?[jt]sx?)$/.test(f) && !path.basename(f).includes('.output.'));

/** ast-types' answer, with the engine's one rule on top: a `catch {}` without a parameter declares nothing. */
function astTypesLookup(p: AstTypesPath, name: string): { scope: N; declaration: AstTypesPath } | null {
  for (let scope = p.scope; scope; scope = scope.parent) {
    if (scope.node?.type === 'CatchClause' && !scope.node.param) continue;
    if (scope.declares(name)) return { scope: scope.node, declaration: scope.getBindings()[name][0] };
  }
  return null;
}

/** A file's engine paths, or null for a parse-error fixture. */
function parse(source: string, file: string): P | null {
  try {
    return parseForTransform(source, file).root;
  } catch {
    return null;
  }
}

/** ast-types' path to the same place as an engine path. */
function astTypesPaths(root: P): (p: P) => AstTypesPath {
  const astTypesRoot: AstTypesPath = new astTypes.NodePath(root.value);
  return (p) => {
    const names: Array<string | number> = [];
    for (let q = p; q.parentPath; q = q.parentPath) names.unshift(q.name!);
    return astTypesRoot.get(...names);
  };
}

/** How many paths were compared: every node's, and every array's that holds nodes. */
function comparePaths(source: string, file: string): number {
  const root = parse(source, file);
  if (!root) return 0;
  const astTypesPath = astTypesPaths(root);
  let compared = 0;
  for (const p of pathsMatching(root, () => true)) {
    for (const q of [p, p.parentPath]) {
      if (!q) continue;
      const expected = astTypesPath(q);
      const where = `${file}:${p.node.loc?.start.line} ${p.node.type} ${String(q.name)}`;
      expect(q.node, where).toBe(expected.node);
      expect(q.parent?.value ?? null, where).toBe(expected.parent?.value ?? null);
      compared++;
    }
    // A path is made once: asked again, by the same name or its string form, it is the same object.
    if (p.parentPath) expect(p.parentPath.get(String(p.name))).toBe(p);
  }
  return compared;
}

/** How many identifiers were compared (those ast-types can answer for). */
function compareScopes(source: string, file: string): number {
  const parsed = parse(source, file);
  if (!parsed) return 0;
  const astTypesPath = astTypesPaths(parsed);
  let compared = 0;
  for (const id of pathsMatching(parsed, (n): n is t.Identifier => n.type === 'Identifier')) {
    const name: string = id.node.name;
    let expected: ReturnType<typeof astTypesLookup>;
    try {
      expected = astTypesLookup(astTypesPath(id), name);
    } catch {
      continue; // ast-types throws on some TypeScript parameter forms; the engine declares nothing there
    }
    const scope = lookupScope(id, name);
    const where = `${file}:${id.node.loc?.start.line} ${name}`;
    expect(scope?.node ?? null, where).toBe(expected?.scope ?? null);
    expect(scope?.declaration(name)?.value ?? null, where).toBe(expected?.declaration.value ?? null);
    compared++;
  }
  return compared;
}

describe('scopes answer as ast-types does', () => {
  for (const [file, source] of Object.entries(CASES)) {
    it(file, () => {
      expect(compareScopes(source, file)).toBeGreaterThan(10);
    });
  }

  it('on every fixture', () => {
    const files = fixtureFiles(FIXTURES);
    expect(files.length).toBeGreaterThan(100);
    let identifiers = 0;
    for (const file of files) identifiers += compareScopes(readFileSync(file, 'utf8'), file);
    expect(identifiers).toBeGreaterThan(4000);
  });
});

it('src/js/ast-defs.ts is what the installed ast-types defines', async () => {
  await expect(defsModule()).toMatchFileSnapshot('../src/js/ast-defs.ts');
});

it('paths answer as ast-types\' do, on every fixture', () => {
  let paths = 0;
  for (const file of fixtureFiles(FIXTURES)) paths += comparePaths(readFileSync(file, 'utf8'), file);
  expect(paths).toBeGreaterThan(20_000);
});
