/**
 * Python request bodies: the dict a body argument evaluates to (a literal at the call, a variable, a
 * wrapper's parameter, `dict(…)`, `json.dumps(…).encode()`), its v1 fields checked against the body map
 * (plain renames made in a literal written at the request), and a body the tool cannot see reported as
 * unknown, never taken for empty.
 */
import { bodyChecklist, bodyMappingFor, v1BodyDiffers, type BodyMapping } from '../../map/bodies.js';
import { opaqueBodyMessage } from '../../plan/messages.js';
import type { V1Operation } from '../../map/operations.js';
import { bodyOperation, checkBodyField, type ValueKind } from '../fields.js';
import type { Collector, RequestOutcome } from '../plan.js';
import { numberValue } from './dict-values.js';
import { pyLiteral } from './print.js';
import { makeCtx, type Ctx } from './eval.js';
import { isName, isOp } from './syntax.js';
import { findTop, splitTop, type Call, type Module, type Scope, type Tok } from './model.js';

/** A token range: a dict literal (`{…}`, or the `(…)` of `dict(…)`), or any expression. */
export interface Range {
  toks: readonly Tok[];
  a: number;
  b: number;
}

/**
 * `<x>.encode(…)` → `<x>`; `<x> if <cond> else None` → `<x>` (the body when there is one): what the
 * request sends, when there is a body.
 */
function sentValue(toks: readonly Tok[], a: number, b: number): [number, number] {
  const last = toks[b - 1];
  const open = last && isOp(last, ')') && last.match !== undefined ? last.match : -1;
  if (open > a + 2 && isName(toks[open - 1], 'encode') && isOp(toks[open - 2], '.')) return sentValue(toks, a, open - 2);
  const at = findTop(toks, a, b, (t) => isName(t, 'if'));
  const otherwise = at < 0 ? -1 : findTop(toks, at, b, (t) => isName(t, 'else'));
  if (at > a && otherwise > at && otherwise + 2 === b && isName(toks[otherwise + 1], 'None')) return sentValue(toks, a, at);
  return [a, b];
}

/** What a body argument is, followed through names, parameters, `dict(…)` and `json.dumps(…)`. */
export type BodySource = { kind: 'dict'; dict: Range } | { kind: 'param'; name: string; ctx: Ctx } | { kind: 'unseen' };

export function bodySource(m: Module, toks: readonly Tok[], a0: number, b0: number, ctx: Ctx, depth = 0): BodySource {
  const [a, b] = sentValue(toks, a0, b0);
  const t = toks[a];
  if (depth > 6 || !t || a >= b) return { kind: 'unseen' };
  if (isOp(t, '{') && t.match === b - 1) return { kind: 'dict', dict: { toks, a, b } };
  // `body or {}`: the body when one is given, else the fallback.
  const or = findTop(toks, a, b, (x) => isName(x, 'or'));
  if (or > a) {
    const given = bodySource(m, toks, a, or, ctx, depth + 1);
    const missing = given.kind === 'param' && given.ctx.env?.get(given.name) === 'missing';
    return missing ? bodySource(m, toks, or + 1, b, ctx, depth + 1) : given;
  }
  if (isName(t, 'dict') && isOp(toks[a + 1], '(') && toks[a + 1]?.match === b - 1) {
    // `dict(x)` copies x; `dict(key=value, …)` is a literal.
    const args = splitTop(toks, a + 2, b - 1);
    const only = args.length === 1 ? args[0] : undefined;
    if (only && !isOp(toks[only[0] + 1], '=') && !isOp(toks[only[0]], '**')) return bodySource(m, toks, only[0], only[1], ctx, depth + 1);
    return { kind: 'dict', dict: { toks, a: a + 1, b } };
  }
  if (isName(t, 'json') && isOp(toks[a + 1], '.') && isName(toks[a + 2], 'dumps') && isOp(toks[a + 3], '(') && toks[a + 3]?.match === b - 1) {
    const inner = splitTop(toks, a + 4, b - 1)[0];
    return inner ? bodySource(m, toks, inner[0], inner[1], ctx, depth + 1) : { kind: 'unseen' };
  }
  if (t.type === 'name' && b === a + 1) {
    const name = t.value;
    for (let s: Scope | null = ctx.scope; s; s = s.parent) {
      const last = (s.assigns.get(name) ?? []).filter((x) => x.at < t.start).pop();
      if (last) return bodySource(m, m.toks, last.a, last.b, s === ctx.scope ? ctx : makeCtx(m, s), depth + 1);
      if (!s.params.some((x) => x.name === name)) continue;
      const bound = s === ctx.fn ? ctx.env?.get(name) : undefined;
      if (bound && typeof bound === 'object') return bodySource(m, bound.toks, bound.a, bound.b, bound.ctx, depth + 1);
      return { kind: 'param', name, ctx };
    }
  }
  return { kind: 'unseen' };
}

/** The dict literal a body argument evaluates to, if the tool can see it. */
export function bodyDict(m: Module, toks: readonly Tok[], a: number, b: number, ctx: Ctx): Range | null {
  const source = bodySource(m, toks, a, b, ctx);
  return source.kind === 'dict' ? source.dict : null;
}

/**
 * A v1 create or update whose body the tool cannot see (`cfg.model_dump()`, a parameter no caller here
 * passes, `**spread` entries): reported with what to check, since v2 rejects a v1 field with 422.
 */
export function reportUnseenBody(c: Collector, op: V1Operation | undefined, at: number, what: string, spread = false): void {
  const bodyOp = bodyOperation(op);
  const mapping = bodyOp ? bodyMappingFor(bodyOp.id) : undefined;
  if (!bodyOp || !mapping || !v1BodyDiffers(mapping)) return;
  const message = spread
    ? `The spread ${what} in this ${bodyOp.id} body is not verified: fields it brings in must be v2 fields too (${bodyChecklist(mapping)}).`
    : opaqueBodyMessage(bodyOp, mapping, what);
  // Its TODO is the planner's (Collector.leaveTodos), like every finding a person must settle.
  c.report('opaque-body', at, message);
}

/** Source text of a token range, shortened for a message. */
export function sourceText(m: Module, toks: readonly Tok[], a: number, b: number): string {
  const first = toks[a];
  const last = toks[b - 1];
  const text = first && last ? m.text.slice(first.start, last.end).replace(/\s+/g, ' ') : '';
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
/**
 * Report v1 fields among a dict literal's top-level string keys; with `atCall` (the literal is written in
 * the request's own call), plain renames are made on its keys.
 */
export function checkDict(c: Collector, m: Module, dict: { toks: readonly Tok[]; a: number; b: number }, outcome: RequestOutcome, atCall = false): void {
  const op = bodyOperation(outcome.op);
  if (!op) return;
  // `{"key": value}` or `dict(key=value)`.
  const call = isOp(dict.toks[dict.a], '(');
  const entries = splitTop(dict.toks, dict.a + 1, dict.b - 1);
  // Where each key's name is written, when it is the file's text as is (no escapes, not an f-string).
  const names = new Map<string, { start: number; end: number }>();
  for (const [x] of entries) {
    const key = dict.toks[x];
    if (call && key?.type === 'name' && isOp(dict.toks[x + 1], '=')) names.set(key.value, { start: key.start, end: key.end });
    else if (!call && key?.type === 'string' && !key.str!.f && isOp(dict.toks[x + 1], ':')) {
      const name = m.text.slice(key.str!.bodyStart, key.str!.bodyEnd);
      if (!name.includes('\\')) names.set(name, { start: key.str!.bodyStart, end: key.str!.bodyEnd });
    }
  }
  // `**extra` may bring the v2 name too: then no key is renamed.
  if (entries.some(([x]) => isOp(dict.toks[x], '**'))) names.clear();
  const siblings = new Set(names.keys());
  for (const [x] of entries) {
    const key = dict.toks[x];
    let field: string;
    if (call) {
      if (key?.type !== 'name' || !isOp(dict.toks[x + 1], '=')) continue;
      field = key.value;
    } else {
      if (key?.type !== 'string' || key.str!.f || !isOp(dict.toks[x + 1], ':')) continue;
      field = m.text.slice(key.str!.bodyStart, key.str!.bodyEnd);
    }
    const value = dict.toks[x + 2];
    const several = !!value && isOp(value, '[') && splitTop(dict.toks, x + 3, value.match!).filter(([p, q]) => q > p).length > 1;
    const at = atCall ? names.get(field) : undefined;
    const name = at ? { request: outcome.request, ...at, siblings } : undefined;
    checkBodyField(c, field, key.start, op, { several, value: pythonKind(value), onV2: outcome.shape.base === 'target', ...(name ? { name } : {}) });
  }
  if (!call && !entries.some(([x]) => isOp(dict.toks[x], '**'))) addRequired(c, m, dict, outcome, op, atCall);
}

/**
 * Fields v2 requires on create where v1 had a default (an endpoint's `type` and `scaling`): added to a
 * body literal written at the request, with the v1 behaviour as their value; else reported.
 */
function addRequired(c: Collector, m: Module, dict: Range, outcome: RequestOutcome, op: V1Operation, atCall: boolean): void {
  const entries = splitTop(dict.toks, dict.a + 1, dict.b - 1).filter(([x, y]) => y > x);
  const missing = missingRequired(op, new Set(entries.map(([x, y]) => literalValue(m, dict.toks, x, findTop(dict.toks, x, y, (t) => isOp(t, ':'))))));
  if (!missing.length) return;
  const last = entries[entries.length - 1];
  const end = last ? dict.toks[last[1] - 1]?.end : undefined;
  const at = dict.toks[dict.a]?.start ?? 0;
  // The map's required values are JSON constants: each has a Python form.
  const fields = missing.map((r) => `"${r.key}": ${pyLiteral(r.value) ?? 'None'}`).join(', ');
  const text = `${last ? ', ' : ''}${fields}`;
  const edit = end !== undefined ? { start: end, end, text } : { start: at + 1, end: at + 1, text };
  const fixed = atCall && outcome.shape.base === 'legacy' && c.fixWith(outcome.request, 'body-field', at, addedMessage(op, missing), [edit]);
  if (!fixed) c.report('body-field', at, `${op.id} body for v2 needs ${requiredNotes(missing)}. Not rewritten here: add ${fields} by hand.`);
}

type Required = NonNullable<BodyMapping['required']>[number];

/** The fields v2 requires on create that a body with these keys leaves out (v1 had a default). */
export function missingRequired(op: V1Operation, keys: ReadonlySet<unknown>): Required[] {
  return (bodyMappingFor(op.id)?.required ?? []).filter((r) => !keys.has(r.key) && !r.unlessPresent.some((k) => keys.has(k)));
}

const requiredNotes = (missing: readonly Required[]): string => missing.map((r) => `${r.key} ${JSON.stringify(r.value)} (${r.why})`).join('; ');

/** The finding of required fields the tool wrote into a body. */
export const addedMessage = (op: V1Operation, missing: readonly Required[]): string => `${op.id} body for v2: added ${requiredNotes(missing)}.`;

/** The kind of a Python value from its first token, when it is a literal. */
function pythonKind(t: Tok | undefined): ValueKind | null {
  if (!t) return null;
  if (t.type === 'string') return 'string';
  if (t.type === 'number') return 'number';
  if (t.type === 'name') return t.value === 'True' || t.value === 'False' ? 'boolean' : t.value === 'None' ? 'null' : null;
  return isOp(t, '[') ? 'array' : isOp(t, '{') ? 'object' : null;
}

/** A value the tool cannot read as a JSON literal (a name, a call, an f-string). */
export const NOT_LITERAL = Symbol('not a literal');

/** The JSON value a Python literal spells (`{"a": [1, True, None]}`), or NOT_LITERAL. */
export function literalValue(m: Module, toks: readonly Tok[], a: number, b: number): unknown {
  const t = toks[a];
  if (!t) return NOT_LITERAL;
  if (b === a + 1) {
    if (t.type === 'string' && t.str && !t.str.f) return m.text.slice(t.str.bodyStart, t.str.bodyEnd);
    if (t.type === 'number') return numberValue(t.value) ?? NOT_LITERAL;
    if (t.type === 'name') return t.value === 'True' ? true : t.value === 'False' ? false : t.value === 'None' ? null : NOT_LITERAL;
    return NOT_LITERAL;
  }
  if (t.match !== b - 1) return NOT_LITERAL;
  const items = splitTop(toks, a + 1, b - 1).filter(([x, y]) => y > x);
  if (isOp(t, '[')) return items.map(([x, y]) => literalValue(m, toks, x, y));
  if (!isOp(t, '{')) return NOT_LITERAL;
  const out: Record<string, unknown> = {};
  for (const [x, y] of items) {
    const colon = findTop(toks, x, y, (k) => isOp(k, ':'));
    const key = colon > x ? literalValue(m, toks, x, colon) : NOT_LITERAL;
    if (typeof key !== 'string') return NOT_LITERAL;
    out[key] = literalValue(m, toks, colon + 1, y);
  }
  return out;
}

/**
 * The dict is this request's own: written in its call, or assigned to a name in the function that makes
 * the call and read only there (`body = {...}; self._rest("POST", "/pods", body)`). Its keys can then be
 * renamed with the request, as no other code reads that dict.
 */
export function ownedBy(m: Module, dict: Range, call: Call): boolean {
  const open = m.toks[call.open];
  const close = m.toks[call.close];
  if (dict.toks !== m.toks || !open || !close) return false;
  if (dict.a > call.open && dict.b <= call.close) return true;
  const assigned = [...m.assignsByName.values()].flat().find((as) => as.scope === call.scope && (as.a === dict.a || as.a + 1 === dict.a) && as.b === dict.b);
  if (!assigned || assigned.name.includes('.')) return false;
  const fn = assigned.scope;
  const reads = m.toks.filter((t, i) => t.type === 'name' && t.value === assigned.name && t.start !== assigned.at && t.start >= fn.start && t.end <= fn.end && !isOp(m.toks[i - 1], '.'));
  const only = reads[0];
  return reads.length === 1 && !!only && only.start > open.start && only.start < close.end;
}
