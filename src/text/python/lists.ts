/**
 * v1 lists in Python. A v1 list answered a bare array; v2 wraps it (`{"pods": [...]}`). The list is
 * unwrapped where this request's body is parsed (`r.json()` → `r.json()["pods"]`), or, when a helper
 * other requests share parses it, at this request's call of that helper (`rest("GET", "/pods")["pods"]`),
 * never inside the shared helper. Where neither can be proved, a visible list read is reported.
 */
import type { V1Operation } from '../../map/operations.js';
import { listEnvelope } from '../fields.js';
import type { Collector, PlannedRequest } from '../plan.js';
import type { Edit } from '../source.js';
import { callersOf } from './eval.js';
import type { ClientFilter } from './query.js';
import { isName, isOp } from './syntax.js';
import { fnOf, returnStarts, type Call, type Module, type Scope, type Tok } from './model.js';

/** A list request: its HTTP call, the wrapper calls that reach it (innermost first), what it is. */
export interface ListRequest {
  call: Call;
  chain: readonly Call[];
  op: V1Operation;
  request: PlannedRequest;
  quote: string;
  /** The request's v1 list filters in their client-side form (query.ts), to apply where the list is unwrapped. */
  filter?: ClientFilter | null;
}

/** planList's answer: whether it filtered the list on the client (the filter's parameters are gone). */
export type ListResult = { filtered: boolean };

export function planList(c: Collector, m: Module, r: ListRequest): ListResult {
  const filtered = planListInner(c, m, r);
  return { filtered };
}

function planListInner(c: Collector, m: Module, r: ListRequest): boolean {
  const anchor = r.chain[r.chain.length - 1] ?? r.call;
  const at = m.toks[anchor.calleeTok]?.start ?? 0;
  const key = listEnvelope(r.op, '')?.key;
  // The code already reads the v2 envelope (the request's own URL, `BASE + "pods"`, aside).
  if (!key || mentionsKey(m, fnOf(anchor.scope), key, r.request.literals)) return false;
  const subscript = `[${r.quote}${key}${r.quote}]`;
  let edits: Edit[] | null = null;
  let returned = false;
  if (!r.chain.length) {
    const points = parsePoints(m, r.call);
    if (points === 'unwrapped') return false;
    if (points.length) edits = points.flatMap((p) => unwrapEdits(m, p, subscript));
    returned = points.some((p) => isName(m.toks[p.first - 1], 'return'));
  } else if (returnsParsed(m, r.call) && r.chain.slice(0, -1).every((call) => returnsCall(m, call))) {
    if (isOp(m.toks[anchor.close + 1], '[') && m.toks[anchor.close + 2]?.type === 'string') return false;
    if (discarded(m, anchor)) return false; // called for its status only: nothing reads the list
    const point = { first: awaitedStart(m, anchor.calleeTok), close: anchor.close };
    edits = unwrapEdits(m, point, subscript);
    returned = isName(m.toks[point.first - 1], 'return');
  }
  const how = listUse(m, anchor, r.chain.length > 0) ?? (edits ? (returned ? 'returning it' : 'using it') : null);
  const env = how ? listEnvelope(r.op, how) : null;
  if (!env) return false;
  // One parse of the list, apart from the call: the list is filtered there, and the parameters leave the call.
  const point = !r.chain.length && r.filter ? singlePoint(m, r.call) : null;
  if (point && r.filter && key) {
    const filter = r.filter;
    const item = key.replace(/s$/, '');
    const unwrapped = unwrapEdits(m, point, subscript).reduce((text, e) => (e.start === m.toks[point.first]?.start ? `${e.text}${text}` : `${text}${e.text}`), m.text.slice(m.toks[point.first]?.start ?? 0, m.toks[point.close]?.end ?? 0));
    const replace = { start: m.toks[point.first]?.start ?? 0, end: m.toks[point.close]?.end ?? 0, text: `[${item} for ${item} in ${unwrapped} if ${filter.condition(item)}]` };
    if (c.fixWith(r.request, env.rule, at, env.fixed, [replace, ...filter.removal])) {
      c.alsoFixed('query-filter', at, `GET /v2${r.op.v2?.path ?? r.op.path} ignores the v1 query parameter${filter.notes.length > 1 ? 's' : ''} ${filter.notes.join(', ')}: taken out of the request, and the unwrapped list is filtered on the client instead.`);
      return true;
    }
  }
  if (edits && c.fixWith(r.request, env.rule, at, env.fixed, edits)) return false;
  c.report(env.rule, at, env.message);
  return false;
}

/** The only parse of `call`'s response, when it is written apart from the call (`r.json()` on a later line). */
function singlePoint(m: Module, call: Call): ParsePoint | null {
  const points = parsePoints(m, call);
  if (points === 'unwrapped' || points.length !== 1) return null;
  const only = points[0];
  return only && only.first > call.close ? only : null;
}

/** A parsed body: tokens [first, close], `close` being the `)` that ends the parse (`.json()`). */
export interface ParsePoint {
  first: number;
  close: number;
}

function unwrapEdits(m: Module, p: ParsePoint, subscript: string): Edit[] {
  const end = m.toks[p.close]?.end ?? 0;
  const first = m.toks[p.first];
  // `await resp.json()` binds looser than a subscript: `(await resp.json())["pods"]`.
  if (first && isName(first, 'await')) return [{ start: first.start, end: first.start, text: '(' }, { start: end, end, text: `)${subscript}` }];
  return [{ start: end, end, text: subscript }];
}

/** `await <call>` starts at the `await`. */
function awaitedStart(m: Module, calleeTok: number): number {
  return isName(m.toks[calleeTok - 1], 'await') ? calleeTok - 1 : calleeTok;
}

/** `.json()` right after token `i`: the index of its `)`, or -1. */
function jsonAfter(m: Module, i: number): number {
  const t = m.toks;
  return isOp(t[i + 1], '.') && isName(t[i + 2], 'json') && isOp(t[i + 3], '(') && isOp(t[i + 4], ')') ? i + 4 : -1;
}

/** `json.loads(` right before token `i` (its argument starts there): the index of `json`, or -1. */
function loadsBefore(t: readonly Tok[], i: number): number {
  return isOp(t[i - 1], '(') && isName(t[i - 2], 'loads') && isOp(t[i - 3], '.') && isName(t[i - 4], 'json') ? i - 4 : -1;
}

/** The body of a response as text or bytes after token `i` (`.text`, `.content`, `.text()`, `.read()`): the index of its last token, or -1. */
function bodyAfter(t: readonly Tok[], i: number): number {
  if (!isOp(t[i + 1], '.')) return -1;
  const called = isOp(t[i + 3], '(') && isOp(t[i + 4], ')');
  if (isName(t[i + 2], 'text') || isName(t[i + 2], 'content')) return called ? i + 4 : i + 2;
  return isName(t[i + 2], 'read') && called ? i + 4 : -1;
}

/**
 * `json.loads(<the body>)` where the body's tokens run from `first` to `last` (`r.text`, `await
 * r.text()`), or `body = await r.text()` and then `json.loads(body)` before `end`: those parses.
 */
function loadsOfBody(m: Module, first: number, last: number, end: number): ParsePoint[] {
  const t = m.toks;
  const loads = loadsBefore(t, first);
  if (loads >= 0) return isOp(t[last + 1], ')') ? [{ first: loads, close: last + 1 }] : [];
  const text = assignedName(m, first);
  if (!text) return [];
  const out: ParsePoint[] = [];
  for (const i of readsOf(m, text, last + 1, end)) {
    const at = loadsBefore(t, i);
    if (at >= 0 && isOp(t[i + 1], ')')) out.push({ first: at, close: i + 1 });
  }
  return out;
}

/** The tokens that read `name` from `from` on, before `end` (a position), until it is assigned again. */
function readsOf(m: Module, name: string, from: number, end: number): number[] {
  const t = m.toks;
  const out: number[] = [];
  for (let i = from; i < t.length && (t[i]?.start ?? end) < end; i++) {
    if (!isName(t[i], name) || isOp(t[i - 1], '.')) continue;
    if (isOp(t[i + 1], '=')) break; // reassigned
    out.push(i);
  }
  return out;
}

/**
 * Where the response of `call` is parsed in the code around it: `call.json()`, `check(call).json()`
 * (a helper of this file that returns its argument), or `r = call` / `async with call as r` and then
 * `r.json()` in the same function; or its body read as text and given to `json.loads` (`json.loads(r.text)`,
 * `body = await r.text()` then `json.loads(body)`). 'unwrapped': the code already subscripts the parsed body.
 */
export function parsePoints(m: Module, call: Call): ParsePoint[] | 'unwrapped' {
  const t = m.toks;
  const points: ParsePoint[] = [];
  const scopeEnd = fnOf(call.scope).kind === 'module' ? Infinity : fnOf(call.scope).end;
  const direct = jsonAfter(m, call.close);
  if (direct >= 0) points.push({ first: awaitedStart(m, call.calleeTok), close: direct });
  const directBody = bodyAfter(t, call.close);
  if (directBody >= 0) points.push(...loadsOfBody(m, awaitedStart(m, call.calleeTok), directBody, scopeEnd));
  const outer = passThrough(m, call);
  const outerJson = outer ? jsonAfter(m, outer.close) : -1;
  if (outer && outerJson >= 0) points.push({ first: outer.calleeTok, close: outerJson });
  const bound = t[call.close + 2];
  const name = assignedName(m, awaitedStart(m, call.calleeTok)) ?? (isName(t[call.close + 1], 'as') && bound?.type === 'name' ? bound.value : null);
  if (name)
    for (const i of readsOf(m, name, call.close + 1, scopeEnd)) {
      const close = jsonAfter(m, i);
      if (close >= 0) points.push({ first: awaitedStart(m, i), close });
      const body = bodyAfter(t, i);
      if (body >= 0) points.push(...loadsOfBody(m, awaitedStart(m, i), body, scopeEnd));
    }
  if (points.some((p) => isOp(t[p.close + 1], '[') && t[p.close + 2]?.type === 'string')) return 'unwrapped';
  return points;
}

/** `check(<call>)` where `check` is a function of this file that returns its only parameter as it is. */
function passThrough(m: Module, call: Call): Call | null {
  const t = m.toks;
  if (!isOp(t[call.calleeTok - 1], '(') || !isOp(t[call.close + 1], ')')) return null;
  const outer = m.calls.find((o) => o.open === call.calleeTok - 1);
  if (!outer || outer.args.length !== 1) return null;
  const fn = (m.defsByName.get(outer.member) ?? []).find((s) => s.kind === 'def');
  const param = fn?.params.filter((p) => p.name !== 'self' && p.name !== 'cls')[0];
  if (!fn || !param) return null;
  const returns = returnStarts(m, fn);
  return returns.length > 0 && returns.every((i) => isName(t[i + 1], param.name) && t[i + 2]?.type === 'newline') ? outer : null;
}

/**
 * `<parse> if <test> else None` from token `i` (just after the parse) to the end of the line: the parse
 * or nothing (a helper that answers None to an empty body). Reading the envelope's key of None fails as
 * iterating None did, so the caller's unwrap stays right.
 */
function orNone(t: readonly Tok[], i: number): boolean {
  if (!isName(t[i], 'if')) return false;
  let depth = 0;
  for (let j = i + 1; j < t.length && t[j]?.type !== 'newline'; j++) {
    const tok = t[j];
    if (tok?.type === 'op' && '([{'.includes(tok.value)) depth++;
    else if (tok?.type === 'op' && ')]}'.includes(tok.value)) depth--;
    else if (depth === 0 && isName(tok, 'else')) return isName(t[j + 1], 'None') && t[j + 2]?.type === 'newline';
  }
  return false;
}

/** The function around `call` returns the parsed body of its response, as it is (or None, orNone). */
function returnsParsed(m: Module, call: Call): boolean {
  const points = parsePoints(m, call);
  if (points === 'unwrapped' || !points.length) return false;
  const t = m.toks;
  return points.some((p) => {
    if (isName(t[p.first - 1], 'return') && (t[p.close + 1]?.type === 'newline' || orNone(t, p.close + 1))) return true;
    const name = assignedName(m, p.first);
    return !!name && returnStarts(m, fnOf(call.scope)).some((i) => isName(t[i + 1], name) && t[i + 2]?.type === 'newline');
  });
}

/** The function around a wrapper's call returns that call's result as it is (`return await self._request(…)`). */
function returnsCall(m: Module, call: Call): boolean {
  const t = m.toks;
  const first = awaitedStart(m, call.calleeTok);
  return isName(t[first - 1], 'return') && t[call.close + 1]?.type === 'newline';
}

/** A call written as a statement of its own (`await self._get("/pods")`): its result is not read. */
function discarded(m: Module, call: Call): boolean {
  const first = awaitedStart(m, call.calleeTok);
  const line = m.lines[m.lineOfTok[first] ?? -1];
  return !!line && line.a === first && line.b === call.close + 1;
}

/** The function's code names the v2 envelope's key as a string, other than in `url`'s literals (by offset). */
function mentionsKey(m: Module, fn: Scope, key: string, url: ReadonlySet<number>): boolean {
  return m.toks.some((t) => !!t.str && !t.str.f && t.start >= fn.start && t.end <= fn.end && !url.has(t.start) && !url.has(t.str.bodyStart) && m.text.slice(t.str.bodyStart, t.str.bodyEnd) === key);
}
/** How the response of the call at `anchor` is used as a bare array, if it visibly is. */
function listUse(m: Module, anchor: Call, viaJson: boolean, depth = 0): string | null {
  const toks = m.toks;
  let end = anchor.close + 1;
  // `<call>.json()`
  const hasJson = isOp(toks[end], '.') && toks[end + 1]?.value === 'json' && isOp(toks[end + 2], '(') && isOp(toks[end + 3], ')');
  // `.json()["pods"]`: the body is read as an object (the v2 envelope, unwrapped), not as a list.
  if (hasJson && isOp(toks[end + 4], '[') && toks[end + 5]?.type === 'string') return null;
  if (hasJson) end += 4;
  else if (!viaJson) {
    // `r = requests.get(…)` then `r.json()` or `json.loads(r.text)` used as a list.
    const points = parsePoints(m, anchor);
    if (points === 'unwrapped') return null;
    for (const p of points) {
      const how = directListUse(m, p.first, p.close + 1);
      if (how) return how;
      const d = assignedName(m, p.first);
      if (d) return nameListUse(m, d, p.close + 1);
    }
    return null;
  }
  const how = directListUse(m, anchor.calleeTok, end);
  if (how) return how;
  const d = assignedName(m, awaitedStart(m, anchor.calleeTok));
  if (d) return nameListUse(m, d, end);
  // `return <call>.json()`: the function's callers hold the list.
  if (toks[anchor.calleeTok - 1]?.value === 'return' && depth < 2) {
    const fn = fnOf(anchor.scope);
    for (const caller of callersOf(m, fn)) {
      const how2 = listUse(m, caller, true, depth + 1);
      if (how2) return how2;
    }
  }
  return null;
}

/** `for x in <expr>:`, `<expr>[0]`, `len(<expr>)` where the expression spans tokens [a, b). */
function directListUse(m: Module, a: number, b: number): string | null {
  const toks = m.toks;
  if (isOp(toks[b], '[') && toks[b + 1]?.type === 'number') return 'indexing it';
  // `for x in <expr>:`, and the end of a list, generator, set or dict comprehension.
  if (toks[a - 1]?.value === 'in' && (isOp(toks[b], ':') || isOp(toks[b], ']') || isOp(toks[b], ')') || isOp(toks[b], '}') || toks[b]?.value === 'if')) return 'iterating it';
  if (isOp(toks[a - 1], '(') && toks[a - 2]?.value === 'len') return 'len() of it';
  return null;
}

function nameListUse(m: Module, name: string, from: number): string | null {
  const toks = m.toks;
  for (let i = from; i < toks.length; i++) {
    const t = toks[i]!;
    if (t.type !== 'name' || t.value !== name) continue;
    if (isOp(toks[i + 1], '=')) return null; // reassigned
    if (isName(toks[i - 2], 'isinstance') && isOp(toks[i - 1], '(') && isName(toks[i + 2], 'list')) return 'checking it is a list';
    const how = directListUse(m, i, i + 1);
    if (how) return how;
  }
  return null;
}

/** `NAME = <expr starting at token a>` → NAME. */
function assignedName(m: Module, a: number): string | null {
  const toks = m.toks;
  if (isOp(toks[a - 1], '=') && toks[a - 2]?.type === 'name' && (a - 2 === 0 || toks[a - 3]?.type === 'newline' || isOp(toks[a - 3], ':'))) return toks[a - 2]!.value;
  if (isOp(toks[a - 1], '=') && toks[a - 2]?.type === 'name') {
    const line = m.lines[m.lineOfTok[a] ?? -1];
    if (line && line.a === a - 2) return toks[a - 2]!.value;
  }
  return null;
}

