/**
 * A RunPod answer passed on as it is (returned to callers outside the run, handed to a framework's
 * `res.json(…)`, turned into JSON text for an MCP client, printed): whoever reads it now gets the v2
 * shape, and the tool cannot see them. The finding names every v1 field v2 renamed, moved or dropped
 * (`field "desiredStatus" is "status"`), or says v1 answered `{}` where v2 answers the resource.
 */
import { fateText } from './field-messages.js';
import { unhandled } from '../js/exhaustive.js';
import { BILLING, EMPTY_IN_V1, ITEM_NAMES, LIST_ENVELOPES, RESPONSE_FIELDS, SINGLE_RESPONSES, type ItemKind } from '../map/responses.js';
import type { V1Operation } from '../map/operations.js';
import { fieldLabel, v2Form } from '../plan/messages.js';
import { finding, type Anchor, type PlannedFinding } from './plan.js';

/** What a request answers: one resource, a list of them (once unwrapped), or v1's `{}` where v2 answers the resource. */
export type Answer = { kind: 'one' | 'list' | 'empty-in-v1'; item: ItemKind };

/** The answer of a v1 operation, or null when it answers nothing the tool follows (a delete). */
export function answerOf(op: V1Operation): Answer | null {
  const list = LIST_ENVELOPES[op.id]?.item;
  if (list) return { kind: 'list', item: list };
  const one = SINGLE_RESPONSES[op.id];
  if (one) return { kind: 'one', item: one };
  const empty = EMPTY_IN_V1[op.id];
  return empty ? { kind: 'empty-in-v1', item: empty } : null;
}

/**
 * `field "desiredStatus" is "status", …, the fields under "gpu" (field "displayName", …) are at GET …`:
 * every v1 field of the item that v2 changed, the fields nested in one field and gone the same way together.
 */
function changedFields(item: ItemKind): string {
  const parts: Array<string | { under: string; fate: string; names: string[] }> = [];
  for (const r of RESPONSE_FIELDS.filter((x) => x.items.includes(item))) {
    const dot = r.field.lastIndexOf('.');
    if (dot < 0) {
      parts.push(`${fieldLabel(r.field)} is ${fateText(r.fate)}`);
      continue;
    }
    const under = r.field.slice(0, dot);
    const fate = fateText(r.fate);
    const name = `field "${r.field.slice(dot + 1)}"`;
    const group = parts.find((p) => typeof p !== 'string' && p.under === under && p.fate === fate);
    if (group && typeof group !== 'string') group.names.push(name);
    else parts.push({ under, fate, names: [name] });
  }
  return parts.map((p) => (typeof p === 'string' ? p : `the fields under "${p.under}" (${p.names.join(', ')}) are ${p.fate}`)).join(', ');
}

/**
 * The message, naming the request by its v2 form (what the code sends once migrated, and what a TODO
 * left with it describes).
 */
function message(answer: Answer, op: V1Operation, why: string): string {
  const name = ITEM_NAMES[answer.item];
  const request = v2Form(op);
  switch (answer.kind) {
    case 'one':
      return `The ${name} ${request} answers leaves what v2-migrate can follow here as it is (${why}): whoever reads it now gets the v2 ${name}, where ${changedFields(answer.item)}. Check what reads it, or map it back to the v1 shape here.`;
    case 'list':
      return `The ${name}s ${request} answers leave what v2-migrate can follow here as they are (${why}): whoever reads them now gets v2 ${name}s, where ${changedFields(answer.item)}. Check what reads them, or map them back to the v1 shape here.`;
    case 'empty-in-v1':
      return `${request} answers the ${name}, where v1's ${op.path.split('/').at(-1)} answered {}, and this answer leaves what v2-migrate can follow here (${why}): whoever reads it now gets a ${name}, not an empty object. Check what reads it.`;
    default:
      return unhandled(answer.kind);
  }
}

/**
 * The warning at the place an answer leaves the code the tool follows (`anchor`), `why` saying how; null
 * when v2 answers it in v1's shape (registry credentials: nothing but the envelope, unwrapped at the call).
 */
export function passedOnFinding(answer: Answer, op: V1Operation, anchor: Anchor, why: string): PlannedFinding | null {
  if (answer.kind !== 'empty-in-v1' && !changedFields(answer.item)) return null;
  const rule = BILLING.includes(answer.item) ? 'billing-records' : 'response-field';
  return { ...finding(rule, anchor, message(answer, op, why), false), severity: 'warning' };
}
