/**
 * `.http` / `.rest` request files (VS Code REST Client, JetBrains HTTP client): `@name = value`
 * variables, `METHOD URL [HTTP/1.1]` request lines with headers and a body, `###` separators. The
 * method and the body are plainly visible, so per-action and `/update` requests are rewritten when
 * the request has no body of its own.
 */
import type { HttpMethod } from '../map/operations.js';
import { holePiece, planRequest, planValue, type Collector, type TPiece } from './plan.js';
import { jsonBodyKeys } from './json-keys.js';
import { bodyOperation, checkBodyField, mentionsGraphql, scanGraphql, type ValueKind } from './fields.js';
import { eolOf } from './source.js';
import { v2BodyText } from './json-body.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

interface Line {
  start: number;
  end: number;
  text: string;
}

function linesOf(text: string): Line[] {
  const out: Line[] = [];
  let at = 0;
  while (at <= text.length) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    const end = nl > at && text[nl - 1] === '\r' ? nl - 1 : nl;
    out.push({ start: at, end, text: text.slice(at, end) });
    if (nl >= text.length) break;
    at = nl + 1;
  }
  return out;
}

function expand(pieces: TPiece[], vars: ReadonlyMap<string, TPiece[]>, depth = 0): TPiece[] {
  return pieces.flatMap((p) => {
    if (p.kind !== 'text' || !p.text.includes('{{') || depth > 4) return [p];
    const out: TPiece[] = [];
    const re = /\{\{\s*([^}]+?)\s*\}\}/g;
    let last = 0;
    for (let m = re.exec(p.text); m; m = re.exec(p.text)) {
      if (m.index > last) out.push({ ...p, text: p.text.slice(last, m.index), origin: { ...p.origin, start: p.origin.start + last } });
      const v = vars.get(m[1]!);
      out.push(...(v ? expand(v, vars, depth + 1) : [holePiece(`{{${m[1]}}}`, p.origin.start + m.index)]));
      last = m.index + m[0].length;
    }
    if (last < p.text.length) out.push({ ...p, text: p.text.slice(last), origin: { ...p.origin, start: p.origin.start + last } });
    return out;
  });
}

const isComment = (t: string): boolean => /^\s*(#|\/\/)/.test(t) && !/^\s*###/.test(t);

export function scanHttp(c: Collector, text: string): void {
  const lines = linesOf(text);
  const eol = eolOf(text);
  const vars = new Map<string, TPiece[]>();
  const varLines: Array<{ pieces: TPiece[]; anchor: number }> = [];
  for (const l of lines) {
    const m = /^\s*@([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*?)\s*$/.exec(l.text);
    if (!m) continue;
    const vs = l.start + l.text.indexOf(m[2]!, l.text.indexOf('='));
    const pieces: TPiece[] = [{ kind: 'text', text: m[2]!, origin: { start: vs, editable: true, literal: vs, local: false } }];
    vars.set(m[1]!, expand(pieces, vars));
    varLines.push({ pieces: expand(pieces, vars), anchor: vs });
  }
  // Requests: a request line after a separator (or at the top), then headers, a blank line, a body.
  let i = 0;
  while (i < lines.length) {
    const l = lines[i]!;
    const m = /^\s*(?:([A-Z]+)\s+)?(\S+:\/\/\S+|\{\{[^}]+\}\}\S*)(?:\s+HTTP\/[\d.]+)?\s*$/.exec(l.text);
    if (!m || (m[1] && !METHODS.includes(m[1])) || l.text.trim().startsWith('@') || isComment(l.text)) {
      i++;
      continue;
    }
    const methodText = m[1] ?? 'GET';
    const urlStart = l.start + l.text.indexOf(m[2]!, m[1] ? l.text.indexOf(m[1]) + m[1].length : 0);
    let j = i + 1;
    const headers: Line[] = [];
    while (j < lines.length && lines[j]!.text.trim() !== '' && !/^\s*###/.test(lines[j]!.text)) {
      if (!isComment(lines[j]!.text)) headers.push(lines[j]!);
      j++;
    }
    const bodyLines: Line[] = [];
    if (j < lines.length && lines[j]!.text.trim() === '') {
      let k = j + 1;
      while (k < lines.length && !/^\s*###/.test(lines[k]!.text)) bodyLines.push(lines[k++]!);
      j = k;
    }
    while (bodyLines.length && bodyLines[bodyLines.length - 1]!.text.trim() === '') bodyLines.pop();
    const body = bodyLines.map((b) => b.text).join('\n');
    const url = expand([{ kind: 'text', text: m[2]!, origin: { start: urlStart, editable: true, literal: urlStart, local: true } }], vars);
    const method = METHODS.slice(0, 5).includes(methodText) ? (methodText as HttpMethod) : undefined;
    const methodAt = m[1] ? l.start + l.text.indexOf(m[1]) : -1;
    const last = headers[headers.length - 1] ?? l;
    const hasType = headers.some((h) => /^\s*content-type\s*:/i.test(h.text));
    const outcome = planRequest(c, {
      client: 'http-file',
      url,
      anchor: l.start + l.text.search(/\S/),
      method,
      setMethod: (to) => (methodAt < 0 ? [{ start: urlStart, end: urlStart, text: `${to} ` }] : [{ start: methodAt, end: methodAt + methodText.length, text: to }]),
      setJsonBody: (b) => {
        if (body.trim()) return 'the request already has a body';
        const json = JSON.stringify(b);
        return [{ start: last.end, end: last.end, text: `${hasType ? '' : `${eol}Content-Type: application/json`}${eol}${eol}${json}` }];
      },
    });
    const op = bodyOperation(outcome.op);
    if (op && body.trim()) {
      const from = bodyLines[0]!.start;
      const to = bodyLines[bodyLines.length - 1]?.end ?? from;
      // A body that is plain JSON is rebuilt as v2 takes it, when that needs no person.
      const rebuilt = v2BodyText(text.slice(from, to), op);
      const [first, ...rest] = rebuilt?.facts ?? [];
      const keyAt = (key: string): number => from + (jsonBodyKeys(text.slice(from, to)).get(key)?.start ?? 0);
      if (rebuilt && first && c.fixWith(outcome.request, first.rule, keyAt(first.key), first.message, [{ start: from, end: to, text: rebuilt.laid.split('\n').join(eol) }])) {
        for (const f of rest) c.alsoFixed(f.rule, keyAt(f.key), f.message);
        i = Math.max(j, i + 1);
        continue;
      }
      // Otherwise its top-level keys are renamed in place when the rename is all it needs.
      const names = jsonBodyKeys(text.slice(from, to));
      const siblings = new Set(names.keys());
      for (const b of bodyLines) {
        const re = /"([A-Za-z][A-Za-z0-9]*)"\s*:\s*(\[[^\]]*\]|["{]|true\b|false\b|null\b|-?\d)?/g;
        for (let km = re.exec(b.text); km; km = re.exec(b.text)) {
          const several = !!km[2] && km[2].startsWith('[') && km[2].split(',').length > 1;
          const at = b.start + km.index + 1;
          const n = names.get(km[1]!);
          const name = n && from + n.start === at ? { request: outcome.request, start: at, end: from + n.end, siblings } : undefined;
          checkBodyField(c, km[1]!, at, op, { several, value: valueKindOf(km[2]), onV2: outcome.shape.base === 'target', ...(name ? { name } : {}) });
        }
      }
    }
    i = Math.max(j, i + 1);
  }
  for (const v of varLines) {
    if (v.pieces.some((p) => p.kind === 'text' && c.consumed.has(p.origin.literal) && p.origin.literal === v.anchor)) continue;
    planValue(c, v.pieces, { anchor: v.anchor });
  }
  if (mentionsGraphql(text)) scanGraphql(c, text, 0, text.length);
}

/** The kind of a JSON value from its first characters (as the body regex captures them). */
function valueKindOf(start: string | undefined): ValueKind | null {
  if (!start) return null;
  if (start.startsWith('[')) return 'array';
  if (start === '"') return 'string';
  if (start === '{') return 'object';
  if (start === 'true' || start === 'false') return 'boolean';
  return start === 'null' ? 'null' : 'number';
}
