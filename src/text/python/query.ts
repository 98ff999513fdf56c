/**
 * v1 list filters in Python: `params={"desiredStatus": "RUNNING"}` on a list v2 answers whole. Where the
 * filter has a client-side form on the v2 item and the list is unwrapped where it is parsed, the
 * parameter is taken out of the request and the unwrapped list is filtered with a comprehension
 * (`[pod for pod in r.json()["pods"] if pod.get("status") == "RUNNING"]`); else it is reported.
 */
import { IGNORED_QUERY_PARAMS, type IgnoredParam } from '../../map/responses.js';
import type { V1Operation } from '../../map/operations.js';
import type { Edit } from '../source.js';
import { literalValue } from './bodies.js';
import { isOp } from './syntax.js';
import { findTop, splitTop, type Arg, type Call, type Module } from './model.js';

/** One `"name": value` entry of a params dict written at the request. */
export interface ParamEntry {
  name: string;
  /** Offset of the name (findings go there). */
  at: number;
  /** Token range of the whole entry and of its value. */
  a: number;
  b: number;
  value: [number, number];
}

/** The entries of a params dict literal written in the call itself (`params={…}`), or null. */
export function paramEntries(m: Module, call: Call, params: Arg | undefined): ParamEntry[] | null {
  const open = params ? m.toks[params.a] : undefined;
  if (!params || !open || !isOp(open, '{') || open.match !== params.b - 1 || params.a < call.open || params.b > call.close) return null;
  const out: ParamEntry[] = [];
  for (const [a, b] of splitTop(m.toks, params.a + 1, params.b - 1)) {
    const colon = findTop(m.toks, a, b, (t) => isOp(t, ':'));
    const name = colon > a ? literalValue(m, m.toks, a, colon) : undefined;
    const key = m.toks[a];
    if (typeof name !== 'string' || !key?.str) return null;
    out.push({ name, at: key.str.bodyStart, a, b, value: [colon + 1, b] });
  }
  return out;
}

/** The Python test on a v2 list item for a v1 filter, when it has one: `pod.get("status") == "RUNNING"`. */
function pythonTest(ignored: IgnoredParam, item: string, value: string, literal: string | null): string | null {
  // The map's tests are JS expressions over `item`: the plain shapes have a Python form.
  const js = ignored.test?.('ITEM', 'VALUE', literal);
  if (!js) return null;
  const equals = /^ITEM\.(\w+) === VALUE$/.exec(js);
  if (equals) return `${item}.get("${equals[1]}") == ${value}`;
  const carries = /^ITEM\.(\w+) !== undefined$/.exec(js);
  if (carries) return `"${carries[1]}" in ${item}`;
  const falsy = /^!ITEM\.(\w+)$/.exec(js);
  if (falsy) return `not ${item}.get("${falsy[1]}")`;
  return null;
}

/** A filter rewrite: the condition on `item`, the edits that take the parameters out, what it says. */
export interface ClientFilter {
  condition: (item: string) => string;
  removal: Edit[];
  notes: string[];
}

/**
 * The client-side form of every entry of a list request's params dict, or null when one has none (a
 * value that is not a literal or a plain name, a filter with no item test, a parameter v2 does not ignore).
 */
export function clientFilter(m: Module, op: V1Operation, params: Arg, entries: readonly ParamEntry[]): ClientFilter | null {
  const tests: Array<(item: string) => string> = [];
  const notes: string[] = [];
  for (const e of entries) {
    const ignored = IGNORED_QUERY_PARAMS[op.id]?.find((p) => p.param === e.name);
    const [va, vb] = e.value;
    const valueTok = m.toks[va];
    const literal = literalValue(m, m.toks, va, vb);
    const plainName = vb === va + 1 && valueTok?.type === 'name';
    if (!ignored || !valueTok || (typeof literal !== 'string' && typeof literal !== 'number' && !plainName)) return null;
    const source = m.text.slice(valueTok.start, m.toks[vb - 1]?.end ?? valueTok.end);
    if (!pythonTest(ignored, 'x', source, typeof literal === 'string' ? literal : null)) return null;
    tests.push((item) => pythonTest(ignored, item, source, typeof literal === 'string' ? literal : null) ?? 'True');
    notes.push(`${e.name}${ignored.caveat ? ` (note that ${ignored.caveat})` : ''}`);
  }
  if (!tests.length) return null;
  // The whole `params=` argument goes, with the comma before it.
  const before = m.toks[params.a - 4];
  const last = m.toks[params.b - 1];
  if (!before || !last || !isOp(m.toks[params.a - 1], '=') || !isOp(m.toks[params.a - 3], ',')) return null;
  return { condition: (item) => tests.map((t) => t(item)).join(' and '), removal: [{ start: before.end, end: last.end, text: '' }], notes };
}
