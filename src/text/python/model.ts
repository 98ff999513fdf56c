/**
 * The module the Python analysis works on, from the grammar's reading (python/syntax.ts): logical
 * lines, `def` / `class` scopes nested as the grammar nests them (with their parameters), the
 * assignments and calls in each scope, and indexes over them.
 */
import { isName, pythonSyntax, type Arg, type CallSyntax, type Param, type Tok } from './syntax.js';
import { pushTo } from '../../util/multimap.js';

export type { Arg, Param, Tok } from './syntax.js';

export interface Line {
  /** Token range, newline excluded. */
  a: number;
  b: number;
  indent: number;
  scope: Scope;
}

export interface Assign {
  /** `x`, or `self.x` for attributes assigned in methods. */
  name: string;
  /** Token range of the value (or of the `with` item expression). */
  a: number;
  b: number;
  /** Offset of the target (for "nearest assignment before the use"). */
  at: number;
  scope: Scope;
}

export interface Scope {
  kind: 'module' | 'def' | 'class';
  name: string;
  parent: Scope | null;
  params: Param[];
  assigns: Map<string, Assign[]>;
  /** Offsets the block spans (module: the whole file). */
  start: number;
  end: number;
  /** Token index of the `def` / `class` keyword. */
  headerTok: number;
}

/** A call as the grammar reads it, in the scope it is made in. */
export interface Call extends CallSyntax {
  scope: Scope;
}

export interface Module {
  text: string;
  toks: Tok[];
  lines: Line[];
  root: Scope;
  scopes: Scope[];
  calls: Call[];
  /** Scope of each token (by index). */
  scopeOfTok: Scope[];
  /** Evaluation steps left: pathological files (values built from themselves) stop resolving, not the run. */
  budget: number;
  /** Indexes (big files must not make lookups quadratic). */
  defsByName: Map<string, Scope[]>;
  classesByName: Map<string, Scope>;
  childScopes: Map<Scope, Scope[]>;
  callsByMember: Map<string, Call[]>;
  callByCalleeTok: Map<number, Call>;
  linesByScope: Map<Scope, Line[]>;
  assignsByName: Map<string, Assign[]>;
  /** Index into `lines` of the line holding each token. */
  lineOfTok: Int32Array;
  /** Name references read while evaluating a request's URL (offsets of the reading tokens), when recording. */
  recorder: Set<number> | null;
  /** Values of assignments evaluated without parameter bindings (they do not depend on a caller). */
  memo: Map<number, { pieces: import('../plan.js').TPiece[]; used: string[]; refs: number[] }>;
  /** Names imported from other modules of the project (`NAME`, `alias.NAME`) → their values there. */
  foreign: ReadonlyMap<string, import('../plan.js').TPiece[]>;
}

/** Split a token range at top-level commas (bracket groups are skipped via their match). */
export function splitTop(toks: readonly Tok[], a: number, b: number, sep = ','): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = a;
  for (let i = a; i < b; i++) {
    const t = toks[i]!;
    if (t.match !== undefined && t.match > i) {
      i = t.match;
      continue;
    }
    if (t.type === 'op' && t.value === sep) {
      out.push([start, i]);
      start = i + 1;
    }
  }
  if (start < b) out.push([start, b]);
  return out;
}

export function parseArgs(toks: readonly Tok[], open: number, close: number): Arg[] {
  return splitTop(toks, open + 1, close)
    .filter(([a, b]) => b > a)
    .map(([a, b]): Arg => {
      const t = toks[a]!;
      if (t.type === 'op' && t.value === '*') return { kind: 'star', a: a + 1, b };
      if (t.type === 'op' && t.value === '**') return { kind: 'dstar', a: a + 1, b };
      if (t.type === 'name' && toks[a + 1]?.type === 'op' && toks[a + 1]!.value === '=' && b > a + 2) return { kind: 'kw', name: t.value, a: a + 2, b };
      return { kind: 'pos', a, b };
    });
}

/** Index of the first top-level token in [a, b) satisfying `pred`, or -1. */
export function findTop(toks: readonly Tok[], a: number, b: number, pred: (t: Tok) => boolean): number {
  for (let i = a; i < b; i++) {
    const t = toks[i]!;
    if (pred(t)) return i;
    if (t.match !== undefined && t.match > i) i = t.match;
  }
  return -1;
}

export function buildModule(text: string): Module {
  const syntax = pythonSyntax(text);
  const toks = syntax.toks;
  const root: Scope = { kind: 'module', name: '<module>', parent: null, params: [], assigns: new Map(), start: 0, end: text.length, headerTok: -1 };
  // Scopes nest as the definitions do: outermost first, each inside the last one still open.
  const scopes: Scope[] = [root];
  const open: Scope[] = [root];
  const top = (): Scope => open[open.length - 1] ?? root;
  for (const d of [...syntax.definitions].sort((x, y) => x.start - y.start || y.end - x.end)) {
    while (open.length > 1 && top().end <= d.start) open.pop();
    const scope: Scope = { kind: d.kind, name: d.name, parent: top(), params: d.params, assigns: new Map(), start: d.start, end: d.end, headerTok: d.headerTok };
    scopes.push(scope);
    open.push(scope);
  }
  // The scope of each token: the innermost definition holding it.
  const scopeOfTok: Scope[] = new Array<Scope>(toks.length);
  open.length = 1;
  let next = 1;
  toks.forEach((t, i) => {
    for (;;) {
      while (open.length > 1 && t.start >= top().end) open.pop();
      const s = scopes[next];
      if (!s || s.start > t.start) break;
      while (open.length > 1 && s.start >= top().end) open.pop();
      open.push(s);
      next++;
    }
    scopeOfTok[i] = top();
  });
  const lines: Line[] = [];
  let a = 0;
  toks.forEach((t, i) => {
    if (t.type !== 'newline') return;
    const first = toks[a];
    if (first && a < i) lines.push({ a, b: i, indent: first.start - (text.lastIndexOf('\n', first.start - 1) + 1), scope: scopeOfTok[a] ?? root });
    a = i + 1;
  });
  for (const as of [...syntax.assignments].sort((x, y) => x.at - y.at)) {
    const scope = scopeOfTok[as.a] ?? root;
    pushTo(scope.assigns, as.name, { ...as, scope });
  }
  const calls: Call[] = syntax.calls.map((call) => ({ ...call, scope: scopeOfTok[call.open] ?? root }));
  const defsByName = new Map<string, Scope[]>();
  const classesByName = new Map<string, Scope>();
  const childScopes = new Map<Scope, Scope[]>();
  const assignsByName = new Map<string, Assign[]>();
  for (const s of scopes) {
    if (s.kind === 'def') pushTo(defsByName, s.name, s);
    if (s.kind === 'class' && !classesByName.has(s.name)) classesByName.set(s.name, s);
    if (s.parent) pushTo(childScopes, s.parent, s);
    for (const [name, list] of s.assigns) for (const as of list) pushTo(assignsByName, name, as);
  }
  const callsByMember = new Map<string, Call[]>();
  const callByCalleeTok = new Map<number, Call>();
  for (const c of calls) {
    pushTo(callsByMember, c.member, c);
    if (!callByCalleeTok.has(c.calleeTok)) callByCalleeTok.set(c.calleeTok, c);
  }
  const linesByScope = new Map<Scope, Line[]>();
  const lineOfTok = new Int32Array(toks.length).fill(-1);
  lines.forEach((l, i) => {
    pushTo(linesByScope, l.scope, l);
    for (let t = l.a; t <= l.b && t < toks.length; t++) lineOfTok[t] = i;
  });
  return {
    text,
    toks,
    lines,
    root,
    scopes,
    calls,
    scopeOfTok,
    defsByName,
    classesByName,
    childScopes,
    callsByMember,
    callByCalleeTok,
    linesByScope,
    assignsByName,
    lineOfTok,
    budget: 200_000 + toks.length * 20,
    recorder: null,
    memo: new Map(),
    foreign: new Map(),
  };
}

/** The innermost class a scope is (or is inside). */
export function classOf(scope: Scope): Scope | null {
  for (let s: Scope | null = scope; s; s = s.parent) if (s.kind === 'class') return s;
  return null;
}

/** The innermost function scope (or the module). */
export function fnOf(scope: Scope): Scope {
  for (let s: Scope | null = scope; s; s = s.parent) if (s.kind !== 'class') return s;
  return scope;
}

/** Token indexes of the `return` keywords of a function (not of functions nested in it). */
export function returnStarts(m: Module, fn: Scope): number[] {
  return (m.linesByScope.get(fn) ?? []).filter((l) => isName(m.toks[l.a], 'return')).map((l) => l.a);
}
