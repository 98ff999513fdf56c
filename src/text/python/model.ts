/**
 * What the Python analysis needs beyond tokens, found without a parser: logical lines, `def` / `class`
 * blocks by indentation (with their parameters), simple assignments (`NAME = …`, `self.x = …`,
 * `with … as NAME`), and calls (callee, arguments split at top-level commas).
 */
import { tokenize, type Tok } from './tokenize.js';
import { pushTo } from '../../util/multimap.js';

export interface Line {
  /** Token range, newline excluded. */
  a: number;
  b: number;
  indent: number;
  scope: Scope;
}

export interface Param {
  name: string;
  index: number;
  /** Token range of the default value. */
  def?: [number, number];
  star?: '*' | '**';
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

export interface Arg {
  kind: 'pos' | 'kw' | 'star' | 'dstar';
  name?: string;
  /** Token range of the value. */
  a: number;
  b: number;
}

export interface Call {
  /** Token index of the first callee token and of the `(`. */
  calleeTok: number;
  open: number;
  close: number;
  /** Dotted callee (`requests.post`, `self.session.get`); a call result in the chain reads `…()`. */
  callee: string;
  /** Last name of the callee and its token. */
  member: string;
  memberTok: number;
  /** Everything before the member (`requests`, `self.session`), or '' for a plain function call. */
  receiver: string;
  args: Arg[];
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

function parseParams(toks: readonly Tok[], open: number, close: number): Param[] {
  const params: Param[] = [];
  for (const [a, b] of splitTop(toks, open + 1, close)) {
    let i = a;
    let star: Param['star'];
    if (toks[i]?.type === 'op' && (toks[i]!.value === '*' || toks[i]!.value === '**')) star = toks[i++]!.value as Param['star'];
    const t = toks[i];
    if (!t || t.type !== 'name') continue;
    const eq = toks.slice(i, b).findIndex((x) => x.type === 'op' && x.value === '=');
    params.push({ name: t.value, index: params.length, ...(eq >= 0 ? { def: [i + eq + 1, b] as [number, number] } : {}), ...(star ? { star } : {}) });
  }
  return params;
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

const isOp = (t: Tok | undefined, v: string): boolean => !!t && t.type === 'op' && t.value === v;

/** A dotted target (`x`, `self.x`) written by tokens [a, b), or null. */
function targetName(toks: readonly Tok[], a: number, b: number): string | null {
  // `x: int` (annotated) → x
  const colon = findTop(toks, a, b, (t) => isOp(t, ':'));
  const end = colon >= 0 ? colon : b;
  const parts: string[] = [];
  for (let i = a; i < end; i++) {
    const t = toks[i]!;
    if ((i - a) % 2 === 0) {
      if (t.type !== 'name') return null;
      parts.push(t.value);
    } else if (!isOp(t, '.')) return null;
  }
  if (!parts.length || (end - a) % 2 === 0) return null;
  if (parts.length > 2) return null;
  return parts.join('.');
}

export function buildModule(text: string): Module {
  const toks = tokenize(text);
  const root: Scope = { kind: 'module', name: '<module>', parent: null, params: [], assigns: new Map(), start: 0, end: text.length, headerTok: -1 };
  const scopes: Scope[] = [root];
  const lines: Line[] = [];
  const scopeOfTok: Scope[] = new Array(toks.length);
  const stack: Array<{ scope: Scope; indent: number }> = [];
  let a = 0;
  for (let i = 0; i < toks.length; i++) {
    if (toks[i]!.type !== 'newline') continue;
    const s = a;
    const lineToks = [a, i] as const;
    a = i + 1;
    if (s >= i) {
      for (let k = lineToks[0]; k <= i; k++) scopeOfTok[k] = stack[stack.length - 1]?.scope ?? root;
      continue;
    }
    const first = toks[s]!;
    const ls = text.lastIndexOf('\n', first.start - 1) + 1;
    const indent = first.start - ls;
    while (stack.length && stack[stack.length - 1]!.indent >= indent) {
      const done = stack.pop()!;
      done.scope.end = first.start;
    }
    const parent = stack[stack.length - 1]?.scope ?? root;
    let scope = parent;
    let k = s;
    while (k < i && toks[k]!.type === 'op' && toks[k]!.value === '@') k = i; // decorator line
    if (toks[k]?.type === 'name' && toks[k]!.value === 'async') k++;
    const kw = toks[k];
    if (kw?.type === 'name' && (kw.value === 'def' || kw.value === 'class') && toks[k + 1]?.type === 'name') {
      const open = toks[k + 2];
      const params = kw.value === 'def' && isOp(open, '(') && open!.match! > 0 ? parseParams(toks, k + 2, open!.match!) : [];
      scope = { kind: kw.value === 'def' ? 'def' : 'class', name: toks[k + 1]!.value, parent, params, assigns: new Map(), start: first.start, end: text.length, headerTok: k };
      scopes.push(scope);
      stack.push({ scope, indent });
    }
    const line: Line = { a: s, b: i, indent, scope };
    lines.push(line);
    for (let t = lineToks[0]; t <= i; t++) scopeOfTok[t] = scope;
    recordAssigns(toks, line);
  }
  for (let t = 0; t < toks.length; t++) scopeOfTok[t] ??= root;
  const calls: Call[] = [];
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i]!;
    if (!isOp(t, '(') || !(t.match! > i)) continue;
    const call = callAt(toks, i, scopeOfTok[i]!);
    if (call) calls.push(call);
  }
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

function recordAssigns(toks: readonly Tok[], line: Line): void {
  const { a, b, scope } = line;
  const kw = toks[a]!;
  if (kw.type === 'name' && (kw.value === 'with' || (kw.value === 'async' && toks[a + 1]?.value === 'with'))) {
    const from = kw.value === 'with' ? a + 1 : a + 2;
    const colon = findTop(toks, from, b, (t) => isOp(t, ':'));
    for (const [ia, ib] of splitTop(toks, from, colon < 0 ? b : colon)) {
      const as = findTop(toks, ia, ib, (t) => t.type === 'name' && t.value === 'as');
      if (as < 0 || toks[as + 1]?.type !== 'name') continue;
      add(scope, { name: toks[as + 1]!.value, a: ia, b: as, at: toks[as + 1]!.start, scope });
    }
    return;
  }
  if (kw.type === 'name' && ['def', 'class', 'if', 'elif', 'while', 'for', 'return', 'assert', 'lambda', 'async', 'import', 'from'].includes(kw.value)) return;
  const eqs: number[] = [];
  for (let i = a; i < b; i++) {
    const t = toks[i]!;
    if (t.match !== undefined && t.match > i) {
      i = t.match;
      continue;
    }
    if (isOp(t, '=')) eqs.push(i);
  }
  if (!eqs.length) return;
  const last = eqs[eqs.length - 1]!;
  let from = a;
  for (const eq of eqs) {
    const name = targetName(toks, from, eq);
    if (name) {
      // `self.x = …` in a method belongs to the class: stored under `self.x` in the method's scope.
      add(scope, { name, a: last + 1, b, at: toks[from]!.start, scope });
    }
    from = eq + 1;
  }
}

function add(scope: Scope, assign: Assign): void {
  pushTo(scope.assigns, assign.name, assign);
}

const NOT_CALLEES = new Set(['if', 'in', 'not', 'and', 'or', 'return', 'lambda', 'yield', 'await', 'else', 'elif', 'while', 'for', 'assert', 'del', 'is', 'raise', 'import', 'from', 'with', 'as', 'def', 'class', 'except', 'pass', 'None', 'True', 'False']);

function callAt(toks: readonly Tok[], open: number, scope: Scope): Call | null {
  const memberTok = open - 1;
  const m = toks[memberTok];
  if (m?.type !== 'name' || NOT_CALLEES.has(m.value)) return null;
  const parts: string[] = [m.value];
  let i = memberTok;
  while (isOp(toks[i - 1], '.')) {
    const before = toks[i - 2];
    if (before?.type === 'name') {
      parts.unshift(before.value);
      i -= 2;
      continue;
    }
    if (before && isOp(before, ')') && before.match !== undefined && before.match >= 0) {
      // `requests.Session().get(…)`: the receiver is a call result.
      let j = before.match - 1;
      const inner: string[] = [];
      while (toks[j]?.type === 'name') {
        inner.unshift(toks[j]!.value);
        if (isOp(toks[j - 1], '.') && toks[j - 2]?.type === 'name') j -= 2;
        else break;
      }
      parts.unshift(`${inner.join('.')}()`);
      i = Math.max(j, 0);
    }
    break;
  }
  if (toks[i - 1]?.type === 'name' && toks[i - 1]!.value === 'def') return null;
  const close = toks[open]!.match!;
  return {
    calleeTok: i,
    open,
    close,
    callee: parts.join('.'),
    member: m.value,
    memberTok,
    receiver: parts.slice(0, -1).join('.'),
    args: parseArgs(toks, open, close),
    scope,
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

/** Sub-tokens of an f-string replacement field (offsets are the file's). */
export function fieldTokens(text: string, start: number, end: number): Tok[] {
  return tokenize(text, start, end).filter((t) => t.type !== 'newline');
}
