/**
 * The engine's scopes (src/js/bindings.ts, scope.ts) answer like ast-types' `Scope`, which they
 * replace for speed: for every identifier of every fixture and of the cases below, the scope that
 * declares its name and the identifier that declares it are the same objects in both.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseForTransform } from '../src/js/parse.js';
import { lookupScope, type N, type P } from '../src/js/scope.js';
import { collectPaths } from '../src/js/walk.js';

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

function fixtureFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return fixtureFiles(full);
    return /\.(?:[cm]?[jt]sx?)$/.test(e.name) && !e.name.includes('.output.') ? [full] : [];
  });
}

/** ast-types' answer, with the engine's one rule on top: a `catch {}` without a parameter declares nothing. */
function astTypesLookup(p: P, name: string): { scope: N; declaration: P } | null {
  for (let scope = p.scope; scope; scope = scope.parent) {
    if (scope.node?.type === 'CatchClause' && !scope.node.param) continue;
    if (scope.declares(name)) return { scope: scope.node, declaration: scope.getBindings()[name][0] };
  }
  return null;
}

/** How many identifiers were compared (those ast-types can answer for). */
function compare(source: string, file: string): number {
  let parsed;
  try {
    parsed = parseForTransform(source, file);
  } catch {
    return 0; // parse-error fixtures
  }
  let compared = 0;
  for (const id of collectPaths(parsed.root, (n) => n.type === 'Identifier')) {
    const name: string = id.node.name;
    let expected: ReturnType<typeof astTypesLookup>;
    try {
      expected = astTypesLookup(id, name);
    } catch {
      continue; // ast-types throws on some TypeScript parameter forms; the engine declares nothing there
    }
    const scope = lookupScope(id, name);
    const where = `${file}:${id.node.loc?.start.line} ${name}`;
    expect(scope?.node ?? null, where).toBe(expected?.scope ?? null);
    expect(scope?.declaration(name) ?? null, where).toBe(expected?.declaration ?? null);
    compared++;
  }
  return compared;
}

describe('scopes answer as ast-types does', () => {
  for (const [file, source] of Object.entries(CASES)) {
    it(file, () => {
      expect(compare(source, file)).toBeGreaterThan(10);
    });
  }

  it('on every fixture', () => {
    const files = fixtureFiles(FIXTURES);
    expect(files.length).toBeGreaterThan(100);
    let identifiers = 0;
    for (const file of files) identifiers += compare(readFileSync(file, 'utf8'), file);
    expect(identifiers).toBeGreaterThan(4000);
  });
});
