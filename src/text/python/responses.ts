/**
 * v1 response fields read on a provable response in Python: the parsed body of a request
 * (`pod = r.json()`), an item of its unwrapped list (`for pod in r.json()["pods"]`, `pods[0]`, a
 * comprehension's variable). A field v2 renamed is renamed with the request (`pod["desiredStatus"]` →
 * `pod["status"]`, the finding carrying the meaning note); one v2 moved or dropped is reported there.
 */
import { LIST_ENVELOPES, SINGLE_RESPONSES, responseField, type ItemKind, ITEM_NAMES } from '../../map/responses.js';
import type { V1Operation } from '../../map/operations.js';
import type { Collector, PlannedRequest } from '../plan.js';
import type { Edit } from '../source.js';
import { fnOf, type Call, type Module } from './model.js';
import { isName, isOp } from './syntax.js';
import { fieldLabel } from '../../plan/messages.js';

/** Names that hold the response in the function around the request: the parsed object, a list, its items. */
interface Holders {
  objects: Set<string>;
  lists: Set<string>;
}

/**
 * Rename or report the v1 fields read on the response of the request at `call` (no wrapper in between),
 * parsed at `parsed` (token indexes of the parse expressions' first tokens). Returns the offsets of the
 * field strings it handled, so the file-wide pass of likely reads leaves them alone.
 */
export function planResponseReads(c: Collector, m: Module, call: Call, op: V1Operation, request: PlannedRequest, parsed: readonly number[]): Set<number> {
  const handled = new Set<number>();
  const list = LIST_ENVELOPES[op.id];
  const item: ItemKind | undefined = list?.item ?? SINGLE_RESPONSES[op.id];
  if (!item || list?.rule === 'billing-records') return handled;
  const holders: Holders = { objects: new Set(), lists: new Set() };
  const t0 = m.toks;
  for (const first of parsed) {
    const name = assignedTo(m, first);
    if (name) (list ? holders.lists : holders.objects).add(name);
    // `for pod in r.json()` / `[pod for pod in r.json() if …]`, and the name that comprehension is given.
    const loopVar = t0[first - 2];
    if (list && isName(t0[first - 1], 'in') && loopVar?.type === 'name' && isName(t0[first - 3], 'for')) {
      holders.objects.add(loopVar.value);
      const open = t0[first - 5];
      const kept = open && isOp(open, '[') && open.match !== undefined ? assignedTo(m, first - 5) : null;
      if (kept && t0[first - 4]?.value === loopVar.value) holders.lists.add(kept);
    }
  }
  const fn = fnOf(call.scope);
  const end = fn.kind === 'module' ? m.text.length : fn.end;
  const from = m.toks[call.close]?.end ?? 0;
  const t = m.toks;
  // Items of a held list: `for pod in pods`, `[… for pod in pods …]`, `pods[0]` (read in place below).
  for (let i = 0; i < t.length; i++) {
    const tok = t[i];
    if (!tok || tok.start < from || tok.start >= end) continue;
    if (isName(tok, 'for') && t[i + 1]?.type === 'name' && isName(t[i + 2], 'in') && holders.lists.has(t[i + 3]?.value ?? '')) holders.objects.add(t[i + 1]?.value ?? '');
  }
  for (let i = 0; i < t.length; i++) {
    const tok = t[i];
    if (!tok || tok.start < from || tok.start >= end || tok.type !== 'name' || isOp(t[i - 1], '.')) continue;
    let k = i + 1;
    if (holders.lists.has(tok.value) && isOp(t[k], '[') && t[k + 1]?.type === 'number' && isOp(t[k + 2], ']')) k += 3;
    else if (!holders.objects.has(tok.value)) continue;
    // `x["field"]` or `x.get("field"…)`
    const key = isOp(t[k], '[') && isOp(t[k + 2], ']') ? t[k + 1] : isOp(t[k], '.') && isName(t[k + 1], 'get') && isOp(t[k + 2], '(') ? t[k + 3] : undefined;
    if (!key?.str || key.str.f) continue;
    const field = m.text.slice(key.str.bodyStart, key.str.bodyEnd);
    const row = responseField(field, item);
    if (!row) continue;
    handled.add(key.start);
    const what = `REST v1 ${ITEM_NAMES[item]} ${fieldLabel(field)}`;
    const fate = row.fate;
    if (fate.kind === 'rename') {
      const message = `${what} is "${fate.to}" in v2: ${row.note}.`;
      if (c.fixWith(request, 'response-field', key.start, message, [{ start: key.str.bodyStart, end: key.str.bodyEnd, text: fate.to }])) continue;
      c.report('response-field', key.start, `${message} Not rewritten: the request stays on v1 for now; rename it with the request.`);
    } else {
      const text = fate.kind === 'nest' ? `is "${fate.to}" in v2` : fate.kind === 'moved' ? `is not in v2 responses; the data is ${fate.to.startsWith('GET ') ? `at ${fate.to}` : `under "${fate.to}"`}` : 'is gone in v2';
      const message = `${what} ${text}: ${row.note}.`;
      const nested = fate.kind === 'nest' ? nestedRead(m, isOp(t[k], '[') ? k + 1 : k + 3, fate.to.split('.'), isOp(t[k], '[')) : null;
      if (nested && c.fixWith(request, 'response-field', key.start, message, [nested])) continue;
      c.report('response-field', key.start, `${message} ${nested ? 'Not rewritten: the request stays on v1 for now; change it with the request.' : 'Change the read by hand.'}`);
    }
  }
  return handled;
}

/**
 * The read of a field v2 nests, written as the nested read: `ep["workersMax"]` → `ep["workers"]["max"]`,
 * `ep.get("workersMax", 0)` → `ep.get("workers", {}).get("max", 0)` (None where v1 had none, as before).
 * The key token is replaced, in its own quotes. Not for a subscript that is assigned to.
 */
function nestedRead(m: Module, i: number, path: readonly string[], subscript: boolean): Edit | null {
  const t = m.toks;
  const key = t[i];
  const after = t[i + 2];
  if (!key?.str || path.length < 2 || (subscript && after?.type === 'op' && ASSIGN.test(after.value))) return null;
  const open = m.text.slice(key.start, key.str.bodyStart);
  const close = m.text.slice(key.str.bodyEnd, key.end);
  const quoted = path.map((p) => `${open}${p}${close}`);
  const text = subscript ? quoted.join(']['): quoted.join(', {}).get(');
  return { start: key.start, end: key.end, text };
}

/** `=` and the augmented assignments (`+=`, `//=`, …), not `==`. */
const ASSIGN = /^(?:[-+*/%&|^@]|\/\/|\*\*|<<|>>)?=$/;

/** `NAME = <expr starting at token a>` (after an `await`, too) → NAME. */
function assignedTo(m: Module, a: number): string | null {
  const t = m.toks;
  const first = isName(t[a - 1], 'await') ? a - 1 : a;
  const target = t[first - 2];
  if (!isOp(t[first - 1], '=') || target?.type !== 'name') return null;
  const line = m.lines[m.lineOfTok[first] ?? -1];
  return line && line.a === first - 2 ? target.value : null;
}
