/**
 * A visible v1 JSON request body rebuilt as v2 takes it, for the text engine's languages (a curl `-d`
 * word, a `.http` body): toV2Body — the adapters' runtime, which renames, restructures (gpuTypeIds +
 * gpuCount → gpu: { id, count }), inserts what v2 requires and checks the result against the v2
 * schema — then laid out like the original.
 */
import { BODY_MAPPINGS, isBodyOperationId } from '../map/bodies.js';
import type { V1Operation } from '../map/operations.js';
import { bodyMap } from '../adapters/generate.js';
import { toV2Body, type BodyMap } from '../adapters/runtime.js';
import { withDocumentedPools } from '../map/gpu-pools.js';
import { rewrittenBodyField } from './fields.js';

/** What a v1 body field of the rebuilt body became: its finding, where its key is. */
export interface RebuiltField {
  key: string;
  rule: 'body-field' | 'dropped-field';
  message: string;
}

/**
 * A v1 JSON body text rebuilt as v2 takes it (toV2Body, the adapters' runtime) and laid out like the
 * original (`layout`: the original without placeholders), with the findings of the fields it changed;
 * null where toV2Body refuses it (a person decides) or nothing changes.
 */
export function v2BodyText(json: string, op: V1Operation, layout = json): { laid: string; facts: RebuiltField[] } | null {
  if (!isBodyOperationId(op.id)) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const v2 = tryV2Body(bodyMap(op.id, BODY_MAPPINGS[op.id], false), value);
  if (!isRecord(value) || !isRecord(v2)) return null;
  const facts = Object.keys(value).flatMap((key) => {
    const f = rewrittenBodyField(key, op);
    return f ? [{ key, ...f }] : [];
  });
  return facts.length ? { laid: layoutLike(layout, v2), facts } : null;
}

/**
 * A v1 body as toV2Body rebuilds it, or undefined where it refuses it. The documented GPU pools, as the
 * JS engine uses without a gpuPools config (the text engine has none).
 */
export function tryV2Body(map: BodyMap, body: unknown): unknown {
  try {
    return toV2Body(map, withDocumentedPools(), body);
  } catch {
    return undefined;
  }
}

export const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * JSON for `value` laid out like `original`: on one line, or one top-level field per line indented as
 * it was (nested values on their line); with `": "`, `, ` and `{ … }` padding where it had them.
 */
function layoutLike(original: string, value: Record<string, unknown>): string {
  const spaced = /":\s/.test(original);
  const padded = /\{[ \t]+"/.test(original);
  const sep = spaced ? ', ' : ',';
  const entry = ([k, x]: [string, unknown]): string => `${JSON.stringify(k)}:${spaced ? ' ' : ''}${inline(x)}`;
  function inline(v: unknown): string {
    if (Array.isArray(v)) return `[${v.map(inline).join(sep)}]`;
    if (isRecord(v)) {
      const body = Object.entries(v).map(entry).join(sep);
      return padded && body ? `{ ${body} }` : `{${body}}`;
    }
    return JSON.stringify(v);
  }
  const lines = original.split('\n');
  if (lines.length === 1) return inline(value);
  const close = lines[lines.length - 1] ?? '';
  const base = close.slice(0, close.length - close.trimStart().length);
  const inner = lines.find((l, i) => i > 0 && l.trim()) ?? '';
  const unit = inner.slice(base.length, inner.length - inner.trimStart().length) || '  ';
  return `{\n${Object.entries(value).map((e) => `${base}${unit}${entry(e)}`).join(',\n')}\n${base}}`;
}
