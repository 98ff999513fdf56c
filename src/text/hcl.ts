/**
 * Terraform / HCL: strings (with `${var.x}` / `${local.x}` resolved to the file's variable defaults and
 * locals) holding v1 URLs are planned as literals; `data "http"` blocks are requests (their `method`
 * picks the operation); heredocs that run `curl` are scanned as shell.
 */
import type { HttpMethod } from '../map/operations.js';
import { holePiece, planRequest, planValue, type Collector, type TPiece } from './plan.js';
import { backslash, runs } from './strings.js';
import { maskOutside } from './source.js';
import { scanShell } from './shell.js';
import { mentionsGraphql, scanGraphql } from './fields.js';

interface HclString {
  start: number;
  end: number;
  /** Raw pieces: literal runs, and `${…}` interpolations as holes labelled with their expression. */
  pieces: TPiece[];
}

interface Attr {
  name: string;
  block: Block | null;
  /** The value when it is a single string or a bare reference. */
  str?: HclString;
  ref?: string;
  at: number;
}

interface Block {
  type: string;
  labels: string[];
  attrs: Attr[];
}

function scanString(text: string, i: number): HclString {
  const start = i;
  const pieces: TPiece[] = [];
  let j = i + 1;
  let run = j;
  const flush = (end: number): void => {
    if (end > run) pieces.push(...runs(text, run, end, start, backslash));
  };
  while (j < text.length && text[j] !== '"' && text[j] !== '\n') {
    if (text[j] === '\\') {
      j += 2;
      continue;
    }
    if ((text.startsWith('$${', j) || text.startsWith('%%{', j))) {
      flush(j);
      pieces.push({ kind: 'text', text: text.slice(j + 1, j + 3), origin: { start: j, editable: false, literal: start, local: false } });
      j += 3;
      run = j;
      continue;
    }
    if (text.startsWith('${', j) || text.startsWith('%{', j)) {
      flush(j);
      let depth = 0;
      let k = j + 2;
      while (k < text.length) {
        if (text[k] === '{') depth++;
        else if (text[k] === '}') {
          if (depth === 0) break;
          depth--;
        } else if (text[k] === '"') {
          k++;
          while (k < text.length && text[k] !== '"') k += text[k] === '\\' ? 2 : 1;
        }
        k++;
      }
      pieces.push(holePiece(text.slice(j + 2, k).trim(), j));
      j = k + 1;
      run = j;
      continue;
    }
    j++;
  }
  flush(j);
  return { start, end: Math.min(j + 1, text.length), pieces };
}

export function scanHcl(c: Collector, text: string): void {
  const strings: HclString[] = [];
  const attrs: Attr[] = [];
  const blocks: Block[] = [];
  const stack: Block[] = [];
  const shellRanges: Array<[number, number]> = [];
  const heredocLines: Array<[number, number]> = [];
  let i = 0;
  let stmt: { words: string[]; start: number } = { words: [], start: 0 };
  let pendingAttr: Attr | null = null;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '#' || text.startsWith('//', i)) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (text.startsWith('/*', i)) {
      const e = text.indexOf('*/', i + 2);
      i = e < 0 ? text.length : e + 2;
      continue;
    }
    if (ch === '\n') {
      stmt = { words: [], start: i + 1 };
      pendingAttr = null;
      i++;
      continue;
    }
    if (text.startsWith('<<', i)) {
      const m = /^<<-?([A-Za-z_][A-Za-z0-9_]*)[ \t]*\r?\n/.exec(text.slice(i, i + 200));
      if (m) {
        let k = i + m[0].length;
        const from = k;
        const lines: Array<[number, number]> = [];
        while (k < text.length) {
          let e = text.indexOf('\n', k);
          if (e < 0) e = text.length;
          if (text.slice(k, e).trim() === m[1]) break;
          lines.push([k, e]);
          k = e + 1;
        }
        const body = text.slice(from, k);
        if (/(^|\s)curl\s/.test(body)) shellRanges.push([from, k]);
        else heredocLines.push(...lines);
        i = k;
        continue;
      }
    }
    if (ch === '"') {
      const s = scanString(text, i);
      strings.push(s);
      if (pendingAttr && !pendingAttr.str && !pendingAttr.ref) {
        const after = text.slice(s.end).match(/^[ \t]*(\r?\n|#|\/\/|$)/);
        if (after) pendingAttr.str = s;
      }
      i = s.end;
      continue;
    }
    if (ch === '{') {
      if (stmt.words.length) {
        const b: Block = { type: stmt.words[0]!, labels: stmt.words.slice(1), attrs: [] };
        blocks.push(b);
        stack.push(b);
      } else stack.push({ type: '', labels: [], attrs: [] });
      stmt = { words: [], start: i + 1 };
      i++;
      continue;
    }
    if (ch === '}') {
      stack.pop();
      i++;
      continue;
    }
    const w = /^[A-Za-z_][A-Za-z0-9_.-]*/.exec(text.slice(i, i + 200));
    if (w) {
      if (pendingAttr && !pendingAttr.str && !pendingAttr.ref && /^(var|local)\.[A-Za-z0-9_-]+$/.test(w[0])) pendingAttr.ref = w[0];
      else if (!pendingAttr) {
        const eq = /^[ \t]*=(?!=)/.exec(text.slice(i + w[0].length, i + w[0].length + 20));
        if (eq && stmt.words.length === 0) {
          const block = stack[stack.length - 1] ?? null;
          pendingAttr = { name: w[0], block, at: i };
          attrs.push(pendingAttr);
          block?.attrs.push(pendingAttr);
          i += w[0].length + eq[0].length;
          continue;
        }
        stmt.words.push(w[0]);
      }
      i += w[0].length;
      continue;
    }
    if (ch === '"' || /\s/.test(ch)) {
      i++;
      continue;
    }
    i++;
  }

  const varDefault = new Map<string, HclString>();
  const locals = new Map<string, HclString>();
  for (const a of attrs) {
    if (!a.block || !a.str) continue;
    if (a.block.type === 'locals') locals.set(a.name, a.str);
  }
  // Variable blocks: `variable "name" { default = "…" }` (the label is the quoted string before `{`).
  for (const s of strings) {
    const before = text.slice(Math.max(0, s.start - 40), s.start);
    if (!/(^|\n)[ \t]*variable[ \t]*$/.test(before)) continue;
    const name = text.slice(s.start + 1, s.end - 1);
    const close = text.indexOf('}', s.end);
    const body = text.slice(s.end, close < 0 ? text.length : close);
    const dm = /\bdefault[ \t]*=[ \t]*"/.exec(body);
    if (!dm) continue;
    const at = s.end + dm.index + dm[0].length - 1;
    const def = strings.find((x) => x.start === at);
    if (def) varDefault.set(name, def);
  }
  const resolve = (pieces: TPiece[], depth = 0): TPiece[] =>
    pieces.flatMap((p) => {
      if (p.kind !== 'hole' || depth > 4) return [p];
      const m = /^(var|local)\.([A-Za-z0-9_-]+)$/.exec(p.label);
      const target = m ? (m[1] === 'var' ? varDefault.get(m[2]!) : locals.get(m[2]!)) : undefined;
      return target ? resolve(target.pieces, depth + 1) : [p];
    });

  if (shellRanges.length) scanShell(c, maskOutside(text, shellRanges), { graphql: false });

  // `data "http" "x" { url = …, method = "POST" }`: a request.
  for (const a of attrs) {
    if (a.name !== 'url' || !a.block || !(a.block.type === 'data' || a.block.type === 'resource')) continue;
    const blockText = text.slice(Math.max(0, a.at - 400), a.at);
    if (!/(data|resource)\s+"http"\s+"[^"]*"\s*\{[^}]*$/.test(blockText)) continue;
    let url: TPiece[] | null = null;
    if (a.str) url = resolve(a.str.pieces);
    else if (a.ref) url = resolve([holePiece(a.ref, a.at)]);
    if (!url) continue;
    const start = a.str?.start ?? a.at;
    url = url.map((p) => (p.kind === 'text' && p.origin.literal === start ? { ...p, origin: { ...p.origin, local: true } } : p));
    const methodAttr = a.block.attrs.find((x) => x.name === 'method');
    const methodText = methodAttr?.str ? text.slice(methodAttr.str.start + 1, methodAttr.str.end - 1).toUpperCase() : 'GET';
    const method = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(methodText) ? (methodText as HttpMethod) : undefined;
    planRequest(c, {
      client: 'terraform-http',
      url,
      anchor: a.at,
      method,
      bodyReason: 'set request_body = jsonencode({ action = "…" }) by hand',
      setMethod: (to) => {
        const s = methodAttr?.str;
        if (!s || s.pieces.length !== 1 || s.pieces[0]!.kind !== 'text' || !s.pieces[0].origin.editable) return 'its method is not a literal the tool can see';
        const p = s.pieces[0];
        return [{ start: p.origin.start, end: p.origin.start + p.text.length, text: p.text === p.text.toLowerCase() ? to.toLowerCase() : to }];
      },
    });
  }
  for (const s of strings) {
    if (c.consumed.has(s.start)) continue;
    const pieces = resolve(s.pieces);
    const own = s.pieces.some((p) => p.kind === 'text' && p.text.length);
    if (!own || !c.bases.legacy.some((b) => pieces.some((p) => p.kind === 'text' && p.text.includes(b)) || flat(pieces).includes(b))) continue;
    planValue(c, pieces, { anchor: s.start });
  }
  for (const [s, e] of heredocLines) {
    const line = text.slice(s, e);
    const lead = line.search(/\S/);
    if (lead < 0 || !c.bases.legacy.some((b) => line.includes(b))) continue;
    planValue(c, [{ kind: 'text', text: line.slice(lead).replace(/\r$/, ''), origin: { start: s + lead, editable: true, literal: s + lead, local: false } }]);
  }
  if (mentionsGraphql(text)) scanGraphql(c, text, 0, text.length);
}

function flat(pieces: readonly TPiece[]): string {
  return pieces.map((p) => (p.kind === 'text' ? p.text : '\u0000')).join('');
}
