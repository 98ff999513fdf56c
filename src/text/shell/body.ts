/**
 * The JSON body a shell request sends, checked against the v1 → v2 body map (src/map/bodies.ts): a
 * JSON word (`-d '{"imageName": …}'`, `-d "{\"imageName\": \"$IMG\"}"`, a variable holding either), or
 * a `jq -n '{imageName: $img}'` program that builds it. A plain rename is made where the key is written
 * in the request's own word or jq program; everything else is reported, and a body the tool cannot see
 * (`--data @body.json`, a variable set elsewhere) is reported as unknown, never taken for empty.
 */
import { HOLE } from '../../url/pieces.js';
import { bodyMappingFor, type BodyMapping } from '../../map/bodies.js';
import { opaqueBodyMessage } from '../../plan/messages.js';
import { bodyOperation, checkBodyField, kindOf } from '../fields.js';
import { topLevelKeys } from '../json-keys.js';
import type { Collector, RequestOutcome, TPiece } from '../plan.js';
import { jqFilters, jqObjectKeys } from './jq.js';
import type { ShellScope } from './scope.js';
import type { Command, Part, Word } from './syntax.js';

/** Where a key's name is written in the file, when it is the file's text verbatim. */
type Span = { start: number; end: number };

/**
 * A word's text as JSON: each unknown part (`$IMG`) stands in as a string inside a JSON string and as
 * a number outside one, so the structure still parses; with where each character is written.
 */
function jsonOf(pieces: readonly TPiece[]): { value: Record<string, unknown>; text: string; at: (i: number) => { start: number; editable: boolean } | null } | null {
  let text = '';
  const origins: Array<{ from: number; piece: TPiece }> = [];
  let quoted = false;
  let escaped = false;
  for (const p of pieces) {
    origins.push({ from: text.length, piece: p });
    if (p.kind === 'hole') {
      text += quoted ? '_' : '0';
      escaped = false;
      continue;
    }
    for (const ch of p.text) {
      if (ch === '"' && !escaped) quoted = !quoted;
      escaped = ch === '\\' && !escaped;
    }
    text += p.text;
  }
  if (text.includes(HOLE)) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) body[k] = v;
  const at = (i: number): { start: number; editable: boolean } | null => {
    const o = [...origins].reverse().find((x) => x.from <= i);
    if (!o || o.piece.kind !== 'text') return null;
    return { start: o.piece.origin.start + (i - o.from), editable: o.piece.origin.editable && i + 1 <= o.from + o.piece.text.length };
  };
  return { value: body, text, at };
}

/** The key's span in the file, when its whole name is written verbatim inside the word [from, to). */
function keySpan(json: NonNullable<ReturnType<typeof jsonOf>>, key: Span, word: Word): Span | null {
  const first = json.at(key.start);
  const last = json.at(key.end - 1);
  if (!first?.editable || !last?.editable || last.start - first.start !== key.end - key.start - 1) return null;
  return first.start >= word.start && last.start < word.end ? { start: first.start, end: last.start + 1 } : null;
}

/**
 * v1 fields in the body words of a request. `ownCurl`: the words are curl's own `-d` (a wrapper may do
 * more with its argument than send it), so plain renames are made in them.
 */
export function curlBody(c: Collector, cmds: readonly Command[], scope: ShellScope, data: readonly Word[], outcome: RequestOutcome, ownCurl = true): void {
  const op = bodyOperation(outcome.op);
  if (!op) return;
  const onV2 = outcome.shape.base === 'target';
  for (const d of data) {
    const pieces = scope.pieces(d.parts, d.start);
    const json = jsonOf(pieces);
    if (json) {
      const names = topLevelKeys(json.text);
      const siblings = new Set(Object.keys(json.value));
      for (const [key, value] of Object.entries(json.value)) {
        const span = names.get(key);
        const written = span ? keySpan(json, span, d) : null;
        const at = written?.start ?? (span ? json.at(span.start)?.start : undefined) ?? d.start;
        const name = written && ownCurl ? { request: outcome.request, ...written, siblings } : undefined;
        checkBodyField(c, key, at, op, { several: Array.isArray(value) && value.length > 1, value: kindOf(value), onV2, ...(name ? { name } : {}) });
      }
      continue;
    }
    const programs = jqBodyPrograms(cmds, scope, d);
    for (const p of programs) {
      // Keys of nested objects (`env: {…}`) are the value's own, not body fields.
      const keys = jqObjectKeys(p.text).filter((k) => k.topLevel);
      const siblings = new Set(keys.map((k) => k.key));
      for (const k of keys) {
        const name = p.editable && ownCurl ? { request: outcome.request, start: p.start + k.start, end: p.start + k.end, siblings } : undefined;
        checkBodyField(c, k.key, p.start + k.start, op, { onV2, value: k.value, ...(name ? { name } : {}) });
      }
    }
    const unseen = d.parts.some((p) => p.kind !== 'lit') || pieces.some((p) => p.kind === 'text' && p.text.startsWith('@') && p === pieces[0]);
    const mapping = bodyMappingFor(op.id);
    if (unseen && !programs.length && !onV2 && mapping && changesBody(mapping)) c.report('opaque-body', d.start, opaqueBodyMessage(op, mapping, 'read from a file, or from a value set elsewhere'));
  }
}

/** The operation's body has fields v2 changed: a body the tool cannot see must be checked by a person. */
function changesBody(mapping: BodyMapping): boolean {
  return (Object.values(mapping.fields).some((r) => r.kind !== 'keep') || !!mapping.required?.length || !!mapping.v1Defaults?.length);
}

/** The `jq -n` programs whose output is the word (`"$(jq -n …)"`, or `"$BODY"` with `BODY=$(jq -n …)`). */
function jqBodyPrograms(cmds: readonly Command[], scope: ShellScope, d: Word): Array<{ text: string; start: number; editable: boolean }> {
  const ranges: Array<[number, number]> = [];
  const collect = (parts: readonly Part[], depth: number): void => {
    for (const p of parts) {
      if (p.kind === 'sub') ranges.push([p.start, p.end]);
      if (p.kind === 'var' && depth < 4) for (const def of scope.defs.get(p.name) ?? []) collect(def.parts, depth + 1);
    }
  };
  collect(d.parts, 0);
  const out: Array<{ text: string; start: number; editable: boolean }> = [];
  for (const cmd of cmds) {
    if (!cmd.inSub || !ranges.some(([s, e]) => cmd.start >= s && cmd.end <= e)) continue;
    for (const f of jqFilters(cmd)) for (const p of f.parts) if (p.kind === 'lit') out.push({ text: p.text, start: p.start, editable: p.editable && f.parts.length === 1 });
  }
  return out;
}

