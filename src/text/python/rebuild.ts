/**
 * A Python dict-literal body rebuilt as v2 takes it — by toV2Body, the adapters' runtime, as the shell
 * and JSON bodies are: it restructures (gpuTypeIds + gpuCount → gpu: { id, count }, workersMin →
 * workers: { min }), renames, inserts what v2 requires and checks the result against the v2 schema.
 * Every value keeps its source text (an f-string, a call, a name); only keys, nesting and the values v2
 * spells otherwise (flashboot: True → "FLASHBOOT") change, and only inside the literal.
 *
 * Certain only where the rebuild does not depend on what an expression holds: an expression that is a
 * whole field value is tried as a string, a number and an object, and each must give the same text, with
 * the expression in it once, as itself (so `"dockerStartCmd": cmd`, a list or a string, stays a finding).
 */
import { bodyMap } from '../../adapters/generate.js';
import type { BodyMap, V2Schema } from '../../adapters/runtime.js';
import { BODY_MAPPINGS, isBodyOperationId } from '../../map/bodies.js';
import { bodyOperation, rewrittenBodyField } from '../fields.js';
import { isRecord, tryV2Body } from '../json-body.js';
import type { Collector, RequestOutcome } from '../plan.js';
import { addedMessage, missingRequired, type Range } from './bodies.js';
import { Hole, holeString, readDict, type DictValues } from './dict-values.js';
import type { Module } from './model.js';
import { PythonPrinter } from './print.js';


/** Each hole as a string, then each hole of any type (a whole field value) as a number, then as an object. */
const HOLE_NUMBER = 7770000000000;
const FILLS: ReadonlyArray<(h: Hole) => unknown> = [holeString, (h) => (h.any ? HOLE_NUMBER + h.id : holeString(h)), (h) => (h.any ? {} : holeString(h))];

/** The body with each hole filled, and each hole by the value standing for it. */
function filled(d: DictValues, fill: (h: Hole) => unknown): { body: Record<string, unknown>; holes: Map<unknown, number> } {
  const holes = new Map<unknown, number>();
  const go = (v: unknown): unknown => {
    if (v instanceof Hole) {
      const x = fill(v);
      holes.set(x, v.id);
      return x;
    }
    if (Array.isArray(v)) return v.map(go);
    return isRecord(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, go(x)])) : v;
  };
  return { body: Object.fromEntries(d.entries.map((e) => [e.key, go(e.value)])), holes };
}

/** The map with a v2 schema that takes any value of its fields: where each value lands, not whether v2 takes it. */
const anyValues = (map: BodyMap): BodyMap => ({ ...map, v2: { properties: Object.fromEntries(Object.keys(map.v2.properties ?? {}).map((k) => [k, {}])) }, rules: [] });


/** Where `target` is in a value (keys and indexes), or null. */
function pathTo(v: unknown, target: unknown): Array<string | number> | null {
  if (v === target) return [];
  const kids: Array<[string | number, unknown]> = Array.isArray(v) ? v.map((x, i) => [i, x]) : isRecord(v) ? Object.entries(v) : [];
  for (const [k, x] of kids) {
    const rest = pathTo(x, target);
    if (rest) return [k, ...rest];
  }
  return null;
}

/** The schema v2 has at a path of the body, or undefined where it says nothing. */
function schemaAt(schema: V2Schema | undefined, path: ReadonlyArray<string | number>): V2Schema | undefined {
  let s = schema;
  for (const key of path) {
    const shapes = s?.oneOf;
    if (shapes) s = shapes.find((x) => typeof key === 'string' && !!x.properties && Object.hasOwn(x.properties, key));
    if (typeof key === 'number') s = s?.items;
    else s = s?.properties && Object.hasOwn(s.properties, key) ? s.properties[key] : typeof s?.additionalProperties === 'object' ? s.additionalProperties : undefined;
  }
  return s;
}

const NO_SAMPLE = Symbol('no value of this schema');

/** A value v2 takes at a path of the body (any value where v2 says nothing of it). */
function sampleAt(v2: V2Schema, path: ReadonlyArray<string | number> | null): unknown {
  const s = path && schemaAt(v2, path);
  return !path ? NO_SAMPLE : s ? sample(s) : 'x';
}

/** A value v2 takes where it has this schema: what an expression stands for when the body is checked. */
function sample(s: V2Schema): unknown {
  if (s.enum?.length) return s.enum[0];
  if (s.const !== undefined) return s.const;
  const type = [s.type ?? []].flat().find((t) => t !== 'null');
  if (s.oneOf || s.pattern !== undefined || s.minItems || s.required?.length) return NO_SAMPLE;
  if (type === 'string') return 'x'.repeat(Math.max(1, s.minLength ?? 0));
  if (type === 'integer' || type === 'number') return Math.min(s.maximum ?? Infinity, Math.max(s.minimum ?? 1, 1));
  if (type === 'boolean') return true;
  return type === 'array' ? [] : type === 'object' ? {} : NO_SAMPLE;
}

/**
 * The literal's text rebuilt as v2 takes it, and the v2 body, or null where the rebuild is not
 * certain or v2 would reject it.
 */
function rebuilt(m: Module, d: DictValues, map: BodyMap): { text: string; v2: Record<string, unknown> } | null {
  let text: string | undefined;
  let v2: Record<string, unknown> | undefined;
  for (const fill of FILLS) {
    const { body, holes } = filled(d, fill);
    const out = tryV2Body(anyValues(map), body);
    if (!isRecord(out)) return null;
    const printer = new PythonPrinter(d, holes);
    const t = printer.dict(m, map, out);
    if (t === null || printer.used.some((n) => n !== 1) || (text !== undefined && t !== text)) return null;
    text = t;
    v2 ??= out;
  }
  if (text === undefined || !v2) return null;
  // Checked as v2 checks it, each expression of unknown type standing for a value v2 takes there.
  const out = v2;
  const samples = new Map(d.holes.flatMap((h, id) => (h.any ? [[id, sampleAt(map.v2, pathTo(out, holeString({ id })))] as const] : [])));
  if ([...samples.values()].includes(NO_SAMPLE)) return null;
  const checked = filled(d, (h) => (h.any ? samples.get(h.id) : holeString(h)));
  return tryV2Body(map, checked.body) === undefined ? null : { text, v2 };
}

/**
 * Rebuild a v1 body literal of the request's own (written in its call, or in a name only that call
 * reads) as v2 takes it, when it has a field v2 restructures or drops. False where that is not certain
 * (then its fields are reported as before), or the request does not move.
 */
export function rebuildDict(c: Collector, m: Module, dict: Range, outcome: RequestOutcome): boolean {
  const op = bodyOperation(outcome.op);
  const open = m.toks[dict.a];
  const close = m.toks[dict.b - 1];
  if (!op || !open || !close || !isBodyOperationId(op.id) || outcome.shape.base !== 'legacy' || dict.toks !== m.toks) return false;
  const mapping = BODY_MAPPINGS[op.id];
  const d = readDict(m, dict.a, dict.b);
  const restructures = (key: string): boolean => Object.hasOwn(mapping.fields, key) && ['build', 'drop'].includes(mapping.fields[key]?.kind ?? '');
  if (!d || !d.entries.some((e) => restructures(e.key))) return false;
  const made = rebuilt(m, d, bodyMap(op.id, mapping, false));
  if (!made) return false;
  const sent = filled(d, holeString).body;
  // A field v2 keeps as it was (flashboot: "FLASHBOOT" already) says nothing.
  const facts = d.entries.flatMap((e) => {
    const fact = rewrittenBodyField(e.key, op);
    const same = Object.hasOwn(made.v2, e.key) && JSON.stringify(made.v2[e.key]) === JSON.stringify(sent[e.key]);
    return fact && !same ? [{ at: e.start, ...fact }] : [];
  });
  const added = missingRequired(op, new Set(d.entries.map((e) => e.key))).filter((r) => Object.hasOwn(made.v2, r.key));
  const [first, ...rest] = facts;
  if (!first) return false;
  if (!c.fixWith(outcome.request, first.rule, first.at, first.message, [{ start: open.start, end: close.end, text: made.text }])) return false;
  for (const f of rest) c.alsoFixed(f.rule, f.at, f.message);
  if (added.length) c.alsoFixed('body-field', open.start, addedMessage(op, added));
  return true;
}
