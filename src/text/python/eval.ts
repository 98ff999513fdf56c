/**
 * Python string values as URL pieces: string literals (escapes and `{{`/`}}` become uneditable pieces),
 * f-strings, `+`, `%`, `.format`, `"/".join([...])`, `os.environ.get("X", default)` / `os.getenv`,
 * names resolved to the nearest assignment in scope, `self.x` to the class's assignments, function
 * parameters to the arguments of a known caller (wrappers) or to their defaults, and calls to small
 * helpers whose body is a single `return <expr>`.
 */
import { holePiece, type TPiece, type TextOrigin } from '../plan.js';
import { classOf, findTop, fnOf, parseArgs, splitTop, type Arg, type Assign, type Call, type Module, type Scope } from './model.js';
import { isName, isOp, type StringInfo, type Tok } from './syntax.js';

/** A parameter's value at a call: the argument tokens, evaluated in the caller's context. */
export type Binding = { toks: readonly Tok[]; a: number; b: number; ctx: Ctx } | 'missing' | 'opaque';

export interface Ctx {
  m: Module;
  /** Lexical scope of the code being evaluated. */
  scope: Scope;
  /** The function whose parameters `env` binds. */
  fn: Scope;
  env: Map<string, Binding> | null;
  /** Parameters of `fn` read while no binding was known (the code is a wrapper over them). */
  used: Set<string>;
  depth: number;
}

export function makeCtx(m: Module, scope: Scope, env: Map<string, Binding> | null = null, depth = 0): Ctx {
  return { m, scope, fn: fnOf(scope), env, used: new Set(), depth };
}

function srcOf(m: Module, toks: readonly Tok[], a: number, b: number): string {
  if (a >= b) return '';
  return m.text.slice(toks[a]!.start, toks[b - 1]!.end).replace(/\s+/g, ' ');
}

function hole(m: Module, toks: readonly Tok[], a: number, b: number): TPiece[] {
  return [holePiece(srcOf(m, toks, a, b) || '?', toks[a]?.start ?? 0)];
}

function slice(p: TPiece & { kind: 'text' }, from: number, to: number): TPiece {
  return { kind: 'text', text: p.text.slice(from, to), origin: { ...p.origin, start: p.origin.start + (p.origin.editable ? from : 0) } };
}

function opaqueText(text: string, start: number, literal: number): TPiece {
  return { kind: 'text', text, origin: { start, editable: false, literal, local: false } };
}

/** Python escape sequences → their characters (enough for URLs: anything unusual just stays opaque). */
function decodeEscape(seq: string): string {
  const simple: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', v: '\v', '0': '\0', '\n': '', '\r\n': '' };
  const body = seq.slice(1);
  const plain = Object.hasOwn(simple, body) ? simple[body] : undefined;
  if (plain !== undefined) return plain;
  if (/^x[0-9a-fA-F]{2}$/.test(body) || /^u[0-9a-fA-F]{4}$/.test(body) || /^U[0-9a-fA-F]{8}$/.test(body)) return String.fromCodePoint(parseInt(body.slice(1), 16));
  if (/^[0-7]{1,3}$/.test(body)) return String.fromCharCode(parseInt(body, 8));
  return seq;
}

/**
 * Literal runs of a string body between `from` and `to`: verbatim runs are editable, escape sequences
 * (where the grammar found them) and f-string `{{` / `}}` are not.
 */
function decodeRuns(text: string, from: number, to: number, s: StringInfo, literal: number): TPiece[] {
  const out: TPiece[] = [];
  let run = from;
  const flush = (end: number): void => {
    if (end > run) out.push({ kind: 'text', text: text.slice(run, end), origin: { start: run, editable: true, literal, local: false } });
  };
  const escapes = s.escapes.filter(([a]) => a >= from && a < to);
  let k = 0;
  let i = from;
  while (i < to) {
    const esc = escapes[k];
    if (esc && esc[0] === i) {
      flush(i);
      out.push(opaqueText(decodeEscape(text.slice(esc[0], esc[1])), i, literal));
      i = esc[1];
      run = i;
      k++;
    } else if (s.f && (text.startsWith('{{', i) || text.startsWith('}}', i))) {
      flush(i);
      out.push(opaqueText(text.charAt(i), i, literal));
      i += 2;
      run = i;
    } else i++;
  }
  flush(Math.min(i, to));
  return out;
}

/** The pieces of one string token (an f-string's fields are evaluated in `ctx`). */
export function stringPieces(tok: Tok, ctx: Ctx): TPiece[] {
  const s = tok.str;
  if (!s) return [holePiece(tok.value, tok.start)];
  const text = ctx.m.text;
  if (!s.f) return decodeRuns(text, s.bodyStart, s.bodyEnd, s, tok.start);
  const out: TPiece[] = [];
  let at = s.bodyStart;
  for (const f of s.fields) {
    append(out, decodeRuns(text, at, f.start, s, tok.start));
    append(out, f.toks.length ? evalRange(f.toks, 0, f.toks.length, ctx) : [holePiece('', f.start)]);
    at = f.end;
  }
  append(out, decodeRuns(text, at, s.bodyEnd, s, tok.start));
  return out;
}

const ENV_GETTERS = new Set(['os.environ.get', 'os.getenv', 'environ.get', 'getenv', 'os.environ.setdefault', 'environ.setdefault']);

/** The environment variable a getter call reads, and its default argument. */
export function envLookup(m: Module, toks: readonly Tok[], callee: string, args: readonly Arg[]): { name: string | null; def: Arg | undefined } | null {
  if (!ENV_GETTERS.has(callee)) return null;
  const key = args.find((a) => a.kind === 'pos' || a.name === 'key');
  const def = args.filter((a) => a.kind === 'pos')[1] ?? args.find((a) => a.kind === 'kw' && a.name === 'default');
  const keyTok = key && key.b === key.a + 1 ? toks[key.a] : undefined;
  const name = keyTok?.type === 'string' && !keyTok.str!.f ? m.text.slice(keyTok.str!.bodyStart, keyTok.str!.bodyEnd) : null;
  return { name, def };
}

function withEnvVar(pieces: TPiece[], name: string | null): TPiece[] {
  if (!name) return pieces;
  return pieces.map((p) => (p.kind === 'text' ? { ...p, origin: { ...p.origin, envVar: name } as TextOrigin } : p));
}

function splitWord(toks: readonly Tok[], a: number, b: number, word: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = a;
  for (let i = a; i < b; i++) {
    const t = toks[i]!;
    if (t.match !== undefined && t.match > i) {
      i = t.match;
      continue;
    }
    if (isName(t, word)) {
      out.push([start, i]);
      start = i + 1;
    }
  }
  out.push([start, b]);
  return out;
}

function append(out: TPiece[], more: readonly TPiece[]): void {
  for (const p of more) out.push(p);
}

const hasHole = (pieces: readonly TPiece[]): boolean => pieces.some((p) => p.kind === 'hole');

/** Most pieces a value may have: beyond that it is not a URL anyone wrote, and copying it gets expensive. */
const MAX_PIECES = 64;

/** Evaluate tokens [a, b) as a string value. */
export function evalRange(toks: readonly Tok[], a: number, b: number, ctx: Ctx): TPiece[] {
  const m = ctx.m;
  if (a >= b) return [holePiece('?', toks[a]?.start ?? 0)];
  if (ctx.depth > 16 || --m.budget < 0) return hole(m, toks, a, b);
  const out = evalInner(toks, a, b, ctx);
  return out.length > MAX_PIECES ? hole(m, toks, a, b) : out;
}

function evalInner(toks: readonly Tok[], a: number, b: number, ctx: Ctx): TPiece[] {
  const m = ctx.m;
  if (isOp(toks[a], '(') && toks[a]!.match === b - 1) {
    const inner = splitTop(toks, a + 1, b - 1);
    if (inner.length === 1) return evalRange(toks, a + 1, b - 1, ctx);
    return hole(m, toks, a, b);
  }
  const ors = splitWord(toks, a, b, 'or');
  if (ors.length > 1) {
    // `os.environ.get("X") or "https://…"`: the first operand that is fully known, tagged with the variable.
    let envName: string | null = null;
    for (const [x, y] of ors) {
      const v = evalRange(toks, x, y, ctx);
      if (!hasHole(v)) return withEnvVar(v, envName);
      const h = v[0];
      if (v.length === 1 && h?.kind === 'hole' && h.label.startsWith('$')) envName = h.label.slice(1);
    }
    return hole(m, toks, a, b);
  }
  const cond = conditional(toks, a, b, ctx);
  if (cond) return cond;
  if (findTop(toks, a, b, (t) => isName(t, 'if') || isName(t, 'and') || isName(t, 'not') || isName(t, 'lambda') || isName(t, 'for')) >= 0) return hole(m, toks, a, b);
  const plus = splitTop(toks, a, b, '+');
  if (plus.length > 1) return plus.flatMap(([x, y]) => evalRange(toks, x, y, ctx));
  const pct = splitTop(toks, a, b, '%');
  if (pct.length === 2) return percent(toks, pct[0]!, pct[1]!, ctx);
  return primary(toks, a, b, ctx);
}

/** `X if C else Y` with both values known: a hole that is one of them (a rollback flag choosing the base). */
function conditional(toks: readonly Tok[], a: number, b: number, ctx: Ctx): TPiece[] | null {
  if (findTop(toks, a, b, (t) => isName(t, 'lambda') || isName(t, 'for')) >= 0) return null;
  const at = findTop(toks, a, b, (t) => isName(t, 'if'));
  const otherwise = at < 0 ? -1 : findTop(toks, at, b, (t) => isName(t, 'else'));
  if (at <= a || otherwise < 0) return null;
  const yes = evalRange(toks, a, at, ctx);
  const no = evalRange(toks, otherwise + 1, b, ctx);
  const known = (v: TPiece[]): TPiece[][] | null => (!hasHole(v) ? [v] : v.length === 1 && v[0]!.kind === 'hole' && v[0].either ? (v[0].either as TPiece[][]) : null);
  const ys = known(yes);
  const ns = known(no);
  if (!ys || !ns) return null;
  return [{ ...hole(ctx.m, toks, a, b)[0]!, either: [...ys, ...ns] } as TPiece];
}

function primary(toks: readonly Tok[], a: number, b: number, ctx: Ctx): TPiece[] {
  const m = ctx.m;
  const t = toks[a]!;
  let i = a;
  let val: TPiece[] | null = null;
  if (t.type === 'string') {
    val = [];
    while (i < b && toks[i]!.type === 'string') val.push(...stringPieces(toks[i++]!, ctx));
  } else if (t.type === 'name') {
    // Dotted name, possibly called.
    const parts = [t.value];
    i++;
    while (i + 1 < b && isOp(toks[i], '.') && isName(toks[i + 1])) {
      if (isOp(toks[i + 2], '(') && i + 2 < b) break; // the last name is a method of what comes before
      parts.push(toks[i + 1]!.value);
      i += 2;
    }
    const dotted = parts.join('.');
    if (i < b && isOp(toks[i], '(')) {
      const close = toks[i]!.match!;
      const args = parseArgs(toks, i, close);
      val = callValue(toks, a, close + 1, dotted, args, ctx);
      i = close + 1;
    } else if (i + 2 < b && isOp(toks[i], '.') && isName(toks[i + 1]) && isOp(toks[i + 2], '(')) {
      // `os.environ.get(...)` style: a dotted function.
      const name = `${dotted}.${toks[i + 1]!.value}`;
      if (ENV_GETTERS.has(name) || helperFunction(m, name, ctx.scope)) {
        const close = toks[i + 2]!.match!;
        val = callValue(toks, a, close + 1, name, parseArgs(toks, i + 2, close), ctx);
        i = close + 1;
      } else val = resolveName(dotted, t.start, ctx);
    } else if (i < b && isOp(toks[i], '[')) {
      return hole(m, toks, a, b);
    } else val = resolveName(dotted, t.start, ctx);
  } else return hole(m, toks, a, b);
  // Methods on the value.
  while (i < b && val) {
    if (!(isOp(toks[i], '.') && isName(toks[i + 1]) && isOp(toks[i + 2], '('))) break;
    const method = toks[i + 1]!.value;
    const open = i + 2;
    const close = toks[open]!.match!;
    if (!(close > open)) return hole(m, toks, a, b);
    const args = parseArgs(toks, open, close);
    if (['rstrip', 'strip', 'lstrip', 'removesuffix'].includes(method)) {
      // Trailing-slash trimming does not change how the URL matches; keep the pieces.
    } else if (method === 'format') val = format(val, toks, args, ctx);
    else if (method === 'join' && args.length === 1 && args[0]!.kind === 'pos') val = join(val, toks, args[0]!, ctx);
    else return hole(m, toks, a, b);
    i = close + 1;
  }
  if (i < b || !val) return hole(m, toks, a, b);
  return val;
}

function callValue(toks: readonly Tok[], a: number, b: number, callee: string, args: Arg[], ctx: Ctx): TPiece[] {
  const m = ctx.m;
  const env = envLookup(m, toks, callee, args);
  if (env) {
    if (env.def) return withEnvVar(evalRange(toks, env.def.a, env.def.b, { ...ctx, depth: ctx.depth + 1 }), env.name);
    return [holePiece(env.name ? `$${env.name}` : srcOf(m, toks, a, b), toks[a]!.start)];
  }
  if (callee === 'str' && args.length === 1 && args[0]!.kind === 'pos') return evalRange(toks, args[0]!.a, args[0]!.b, ctx);
  if ((callee === 'urljoin' || callee.endsWith('.urljoin')) && args.length === 2 && args.every((x) => x.kind === 'pos')) {
    const [base, rel] = args.map((x) => evalRange(toks, x.a, x.b, ctx));
    return (base && rel && urljoin(base, rel)) ?? hole(m, toks, a, b);
  }
  // A small helper in this file: `def url(path): return BASE + path`.
  const fn = helperFunction(m, callee, ctx.scope);
  if (fn && ctx.depth < 8) {
    const ret = singleReturn(m, fn);
    if (ret) {
      const env = bindArgs(fn, args, toks, callee.includes('.'), ctx);
      return evalRange(m.toks, ret[0], ret[1], { m, scope: fn, fn, env, used: new Set(), depth: ctx.depth + 1 });
    }
  }
  return hole(m, toks, a, b);
}

/**
 * `urljoin(BASE, "pods")` when it is plain concatenation: a base that ends with `/` and a relative path
 * that starts with a name. Anything else (`"/pods"` replaces the base's path, a base without a trailing
 * `/` loses its last segment) is left unknown.
 */
function urljoin(base: TPiece[], rel: TPiece[]): TPiece[] | null {
  const last = base[base.length - 1];
  const first = rel[0];
  if (last?.kind !== 'text' || !last.text.endsWith('/') || first?.kind !== 'text' || !/^[A-Za-z0-9_-]/.test(first.text) || /^[a-z][a-z0-9+.-]*:/i.test(first.text)) return null;
  return [...base, ...rel];
}

/** A `def` in this file that a call by this name reaches (`helper(...)`, `self.helper(...)`). */
export function helperFunction(m: Module, callee: string, from: Scope): Scope | undefined {
  const parts = callee.split('.');
  const name = parts[parts.length - 1]!;
  if (parts.length === 1) return m.defsByName.get(name)?.find((s) => s.parent?.kind !== 'class');
  if (parts.length === 2 && (parts[0] === 'self' || parts[0] === 'cls')) {
    const cls = classOf(from);
    return m.defsByName.get(name)?.find((s) => s.parent === cls);
  }
  return undefined;
}

/** Token range of the expression of a function whose body is a single `return <expr>`. */
export function singleReturn(m: Module, fn: Scope): [number, number] | null {
  const own = m.linesByScope.get(fn) ?? [];
  const body = own.filter((l) => m.toks[l.a]!.start > m.toks[fn.headerTok]!.start);
  const header = own.find((l) => l.a <= fn.headerTok && fn.headerTok < l.b);
  // `def f(x): return …` on one line.
  if (header && !body.length) {
    const colon = findTop(m.toks, fn.headerTok, header.b, (t) => isOp(t, ':') && true);
    const ret = colon >= 0 ? colon + 1 : -1;
    if (ret > 0 && isName(m.toks[ret], 'return')) return [ret + 1, header.b];
    return null;
  }
  const code = body.filter((l) => !(m.toks[l.a]!.type === 'string' && l.b === l.a + 1)); // docstring
  if (code.length !== 1 || !isName(m.toks[code[0]!.a], 'return')) return null;
  return [code[0]!.a + 1, code[0]!.b];
}

/** Bind a call's arguments to a function's parameters (`self` is skipped for method calls). */
export function bindArgs(fn: Scope, args: readonly Arg[], toks: readonly Tok[], viaAttribute: boolean, callerCtx: Ctx): Map<string, Binding> {
  const params = fn.params.filter((p, i) => !(i === 0 && (fn.parent?.kind === 'class' || viaAttribute) && (p.name === 'self' || p.name === 'cls')));
  const env = new Map<string, Binding>();
  const opaque = args.some((x) => x.kind === 'star' || x.kind === 'dstar');
  let pos = 0;
  for (const arg of args) {
    if (arg.kind === 'pos') {
      const p = params[pos++];
      if (p && !p.star) env.set(p.name, { toks, a: arg.a, b: arg.b, ctx: callerCtx });
    } else if (arg.kind === 'kw' && params.some((p) => p.name === arg.name)) env.set(arg.name!, { toks, a: arg.a, b: arg.b, ctx: callerCtx });
  }
  for (const p of params) if (!env.has(p.name)) env.set(p.name, opaque || p.star ? 'opaque' : 'missing');
  return env;
}

/**
 * The class of this module a parameter is annotated with (`def client(settings: Settings)`): its
 * attributes are read as the class defines them (`settings.base_url` is `Settings.base_url`'s value, a
 * dataclass field's default), as `os.getenv("X", default)` is read as its default.
 */
function annotatedClass(m: Module, name: string, scope: Scope): Scope | undefined {
  for (let s: Scope | null = scope; s; s = s.parent) {
    const p = s.params.find((x) => x.name === name);
    if (p) return p.annotation ? m.classesByName.get(p.annotation) : undefined;
    if ((s.assigns.get(name) ?? []).length) return undefined;
  }
  return undefined;
}

/** The value a name has at `at` in the evaluated code. */
export function resolveName(name: string, at: number, ctx: Ctx): TPiece[] {
  const m = ctx.m;
  m.recorder?.add(at);
  const unknown = (): TPiece[] => [holePiece(name, at)];
  if (ctx.depth > 16) return unknown();
  const deeper = (scope: Scope): Ctx => (fnOf(scope) === ctx.fn ? { ...ctx, scope, depth: ctx.depth + 1 } : makeCtx(m, scope, null, ctx.depth + 1));
  const dot = name.indexOf('.');
  if (dot >= 0) {
    const head = name.slice(0, dot);
    const attr = name.slice(dot + 1);
    if (attr.includes('.')) return unknown();
    let cls: Scope | null | undefined = null;
    if (head === 'self' || head === 'cls') cls = classOf(ctx.scope);
    else cls = m.classesByName.get(head) ?? annotatedClass(m, head, ctx.scope);
    if (!cls) return m.foreign.get(name) ?? unknown();
    const candidates = [
      ...(cls.assigns.get(attr) ?? []),
      ...(m.childScopes.get(cls) ?? []).flatMap((s) => s.assigns.get(`self.${attr}`) ?? []),
    ];
    const pick = candidates.find((c) => c.scope.name === '__init__') ?? candidates[0];
    if (!pick) return unknown();
    return evalRange(m.toks, pick.a, pick.b, makeCtx(m, pick.scope, null, ctx.depth + 1));
  }
  for (let s: Scope | null = ctx.scope; s; s = s.parent) {
    if (s.kind === 'class' && s !== ctx.scope) continue;
    const list = s.assigns.get(name) ?? [];
    const before = list.filter((x) => x.at < at);
    if (before.length) return evalAssign(before[before.length - 1]!, deeper(s));
    const p = s.params.find((x) => x.name === name);
    if (p) {
      const bound = s === ctx.fn ? ctx.env?.get(name) : undefined;
      if (bound === 'opaque') return unknown();
      if (bound && bound !== 'missing') return evalRange(bound.toks, bound.a, bound.b, { ...bound.ctx, depth: Math.max(bound.ctx.depth, ctx.depth) + 1 });
      if (s === ctx.fn && !bound) ctx.used.add(name);
      if (p.def) return evalRange(m.toks, p.def[0], p.def[1], makeCtx(m, s.parent ?? m.root, null, ctx.depth + 1));
      return [holePiece(name, at, true)];
    }
    if (list.length) return evalAssign(list[list.length - 1]!, deeper(s));
  }
  // A name imported from another module of the project: its value there (that module moves it or holds it).
  return m.foreign.get(name) ?? unknown();
}

/** An assignment's value; without parameter bindings it does not depend on the caller, so it is computed once. */
function evalAssign(as: Assign, ctx: Ctx): TPiece[] {
  const m = ctx.m;
  const cacheable = ctx.env === null && ctx.depth < 8;
  const hit = cacheable ? m.memo.get(as.a) : undefined;
  if (hit) {
    for (const u of hit.used) ctx.used.add(u);
    for (const r of hit.refs) m.recorder?.add(r);
    return hit.pieces;
  }
  const had = new Set(ctx.used);
  // The names this value reads count as read by whoever reads the value (also from the memo).
  const outer = m.recorder;
  const refs = new Set<number>();
  m.recorder = refs;
  const pieces = evalRange(m.toks, as.a, as.b, ctx);
  m.recorder = outer;
  for (const r of refs) outer?.add(r);
  if (cacheable) m.memo.set(as.a, { pieces, used: [...ctx.used].filter((u) => !had.has(u)), refs: [...refs] });
  return pieces;
}

/** `"{}/pods/{}".format(BASE, pid)` and `"{base}/pods".format(base=BASE)`. */
function format(template: TPiece[], toks: readonly Tok[], args: readonly Arg[], ctx: Ctx): TPiece[] {
  const pos = args.filter((x) => x.kind === 'pos');
  const out: TPiece[] = [];
  let auto = 0;
  for (const p of template) {
    if (p.kind !== 'text' || !p.origin.editable) {
      out.push(p);
      continue;
    }
    let run = 0;
    for (let i = 0; i < p.text.length; i++) {
      const ch = p.text[i]!;
      if (ch === '{' && p.text[i + 1] === '{') {
        if (i > run) out.push(slice(p, run, i));
        out.push(opaqueText('{', p.origin.start + i, p.origin.literal));
        i++;
        run = i + 1;
        continue;
      }
      if (ch === '}' && p.text[i + 1] === '}') {
        if (i > run) out.push(slice(p, run, i));
        out.push(opaqueText('}', p.origin.start + i, p.origin.literal));
        i++;
        run = i + 1;
        continue;
      }
      if (ch !== '{') continue;
      const close = p.text.indexOf('}', i);
      if (close < 0) return [holePiece('format', p.origin.start)];
      if (i > run) out.push(slice(p, run, i));
      const field = p.text.slice(i + 1, close).split(/[!:]/)[0]!;
      const arg = field === '' ? pos[auto++] : /^\d+$/.test(field) ? pos[Number(field)] : args.find((x) => x.kind === 'kw' && x.name === field);
      append(out, (arg ? evalRange(toks, arg.a, arg.b, ctx) : [holePiece(field || '{}', p.origin.start + i)]));
      i = close;
      run = close + 1;
    }
    if (run < p.text.length) out.push(slice(p, run, p.text.length));
  }
  return out;
}

/** `"%s/pods/%s" % (BASE, pid)`. */
function percent(toks: readonly Tok[], left: [number, number], right: [number, number], ctx: Ctx): TPiece[] {
  const template = evalRange(toks, left[0], left[1], ctx);
  let items: Array<[number, number]>;
  if (isOp(toks[right[0]], '(') && toks[right[0]]!.match === right[1] - 1) items = splitTop(toks, right[0] + 1, right[1] - 1).filter(([x, y]) => y > x);
  else items = [right];
  const out: TPiece[] = [];
  let k = 0;
  for (const p of template) {
    if (p.kind !== 'text' || !p.origin.editable) {
      out.push(p);
      continue;
    }
    let run = 0;
    for (let i = 0; i < p.text.length; i++) {
      if (p.text[i] !== '%') continue;
      if (i > run) out.push(slice(p, run, i));
      const spec = /^%(\([^)]*\))?[-#0 +]*\d*(\.\d+)?[sdrfixXeEgGc%]/.exec(p.text.slice(i));
      if (!spec) return hole(ctx.m, toks, left[0], right[1]);
      if (spec[0] === '%%') out.push(opaqueText('%', p.origin.start + i, p.origin.literal));
      else {
        const item = items[k++];
        append(out, (item && !spec[1] ? evalRange(toks, item[0], item[1], ctx) : [holePiece('%s', p.origin.start + i)]));
      }
      i += spec[0].length - 1;
      run = i + 1;
    }
    if (run < p.text.length) out.push(slice(p, run, p.text.length));
  }
  return out;
}

/** `"/".join([BASE, "pods", pod_id])`: the separator is not editable (it is shared by every join). */
function join(sep: TPiece[], toks: readonly Tok[], arg: Arg, ctx: Ctx): TPiece[] {
  const open = toks[arg.a]!;
  if (!(isOp(open, '[') || isOp(open, '(')) || open.match !== arg.b - 1) return [holePiece('join', open.start)];
  const items = splitTop(toks, arg.a + 1, arg.b - 1).filter(([x, y]) => y > x);
  if (items.some(([x]) => isOp(toks[x], '*'))) return [holePiece('join', open.start)];
  const sepText = sep.map((p) => (p.kind === 'text' ? p.text : '\u0000')).join('');
  const out: TPiece[] = [];
  items.forEach(([x, y], n) => {
    if (n > 0) out.push(opaqueText(sepText, sep[0]?.origin.start ?? 0, sep[0]?.origin.literal ?? 0));
    append(out, evalRange(toks, x, y, ctx));
  });
  return out;
}

/** Callers of a function in this file. */
export function callersOf(m: Module, fn: Scope): Call[] {
  if (fn.kind !== 'def') return [];
  const inClass = fn.parent?.kind === 'class';
  // A method called on an instance (`client.volumes()`) is followed when its name is unique in the file.
  const unique = (m.defsByName.get(fn.name) ?? []).length === 1;
  return (m.callsByMember.get(fn.name) ?? []).filter(
    (c) =>
      c.member === fn.name &&
      (inClass ? c.receiver !== '' : c.receiver === '') &&
      (helperFunction(m, c.callee, c.scope) === fn || (inClass && unique && !/^(self|cls)$/.test(c.receiver) && !c.receiver.includes('('))),
  );
}
