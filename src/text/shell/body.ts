/**
 * The JSON body a shell request sends, checked against the v1 → v2 body map (src/map/bodies.ts): a
 * JSON word (`-d '{"imageName": …}'`, `-d "{\"imageName\": \"$IMG\"}"`, a variable holding either), or
 * a `jq -n '{imageName: $img}'` program that builds it. A plain rename is made where the key is written
 * in the request's own word or jq program; everything else is reported, and a body the tool cannot see
 * (`--data @body.json`, a variable set elsewhere) is reported as unknown, never taken for empty.
 */
import { HOLE } from '../../url/pieces.js';
import { bodyMappingFor, v1BodyDiffers } from '../../map/bodies.js';
import type { V1Operation } from '../../map/operations.js';
import { v2BodyText } from '../json-body.js';
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
    if (json && ownCurl && rebuildBody(c, d, op, outcome)) continue;
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
    // Also on v2: a run has no TODO to carry it, and whether the file it reads was migrated is not known here.
    if (unseen && !programs.length && mapping && v1BodyDiffers(mapping)) c.report('opaque-body', d.start, opaqueBodyMessage(op, mapping, 'read from a file, or from a value set elsewhere'));
  }
}

/** Placeholders for the expansions of a body word: a string inside a JSON string, a number outside one. */
const HOLE_STRING = (i: number): string => `\\u0001${i}\\u0001`;
const HOLE_NUMBER = (i: number): number => 7770000000000 + i;
const HOLE_TOKEN = /\\u0001(\d+)\\u0001|777000000(\d{4})/g;

/**
 * A body word of the request as JSON with a placeholder for each expansion (`$IMG`, `$1`), and where
 * each character of it is written: a single-quoted word, or a double-quoted one with `\"` escapes.
 */
function wordJson(text: string, d: Word): { json: string; offsets: number[]; shell: string[]; quote: string } | null {
  const quote = text[d.start] ?? '';
  if ((quote !== "'" && quote !== '"') || text[d.end - 1] !== quote) return null;
  let json = '';
  const offsets: number[] = [];
  const shell: string[] = [];
  let quoted = false;
  for (const p of d.parts) {
    if (p.kind === 'lit') {
      [...p.text].forEach((ch, i) => {
        if (ch === '"' && !json.endsWith('\\')) quoted = !quoted;
        json += ch;
        offsets.push(p.editable ? p.start + i : -1);
      });
      continue;
    }
    const hole = quoted ? HOLE_STRING(shell.length) : String(HOLE_NUMBER(shell.length));
    shell.push(text.slice(p.start, p.end));
    json += hole;
    for (const _ of hole) offsets.push(-1);
  }
  return { json, offsets, shell, quote };
}

/**
 * Each expansion comes out of the rebuild once, as the value it was: not dropped with its field, not
 * built into a string v2 makes from several values (then the rebuild is left to a person).
 */
function keepsExpansions(json: string, laid: string, count: number): boolean {
  const seen = [...laid.matchAll(HOLE_TOKEN)].map((m) => m[1] ?? m[2]);
  if (seen.length !== count || new Set(seen).size !== count) return false;
  return [...laid.matchAll(/"(?:[^"\\]|\\.)*"/g)].every((m) => !/\\u0001\d+\\u0001/.test(m[0]) || json.includes(m[0]));
}

/**
 * A JSON body written whole in the request's own word (`-d '{"imageName": …}'`, or escaped with
 * expansions, `-d "{\"workersMin\": $1}"`), rebuilt as v2 takes it — by toV2Body, the adapters'
 * runtime, which restructures (gpuTypeIds + gpuCount → gpu: { id, count }), renames, inserts what v2
 * requires and checks the result against the v2 schema, each expansion standing in as a value of its
 * place — and written back in the word's layout and quoting. False where that needs a person
 * (toV2Body throws) or the request does not move.
 */
function rebuildBody(c: Collector, d: Word, op: V1Operation, outcome: RequestOutcome): boolean {
  const word = wordJson(c.text, d);
  const rebuilt = word && v2BodyText(word.json, op, word.json.replace(HOLE_TOKEN, ''));
  if (!word || !rebuilt) return false;
  const { laid, facts: [first, ...rest] } = rebuilt;
  if (!first || !keepsExpansions(word.json, laid, word.shell.length)) return false;
  const names = topLevelKeys(word.json);
  const at = (key: string): number => word.offsets[names.get(key)?.start ?? 0] ?? d.start;
  // Written back: the JSON escaped for the word's quotes, each placeholder replaced by its expansion.
  const escape = (t: string): string => (word.quote === '"' ? t.replace(/[\\"$`]/g, '\\$&') : t);
  let out = '';
  let last = 0;
  for (const m of laid.matchAll(HOLE_TOKEN)) {
    const i = Number(m[1] ?? (m[2] !== undefined ? Number(m[2]) : -1));
    const expansion = word.shell[i];
    if (expansion === undefined) return false;
    out += escape(laid.slice(last, m.index)) + expansion;
    last = (m.index ?? 0) + m[0].length;
  }
  out += escape(laid.slice(last));
  if (out.includes("'") && word.quote === "'") return false;
  const edits = [{ start: d.start + 1, end: d.end - 1, text: out }];
  if (!c.fixWith(outcome.request, first.rule, at(first.key), first.message, edits)) return false;
  for (const f of rest) c.alsoFixed(f.rule, at(f.key), f.message);
  return true;
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

