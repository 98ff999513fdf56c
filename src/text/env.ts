/**
 * `.env` files: `KEY=value` lines (optionally `export`, quoted values, `${OTHER}` references to keys
 * above). A value holding a v1 URL is planned like any literal: the base (and path renames) rewritten,
 * per-request paths reported; the message names the variable other environments may still set. A
 * variable that code the run does not migrate reads (the JS engine says which) keeps its v1 base.
 */
import { holePiece, planValue, type Collector, type TPiece } from './plan.js';
import { backslash, none, runs } from './strings.js';

const LINE = /^([ \t]*)(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*=[ \t]*/;

export function scanEnv(c: Collector, text: string): void {
  const values = new Map<string, TPiece[]>();
  let at = 0;
  while (at < text.length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const lineEnd = end > at && text[end - 1] === '\r' ? end - 1 : end;
    const line = text.slice(at, lineEnd);
    const m = LINE.exec(line);
    if (m) {
      const key = m[2]!;
      const vs = at + m[0].length;
      const pieces = valuePieces(text, vs, lineEnd, values);
      if (pieces) {
        const tagged = pieces.map((p) => (p.kind === 'text' && p.origin.literal === vs ? { ...p, origin: { ...p.origin, envVar: key } } : p));
        values.set(key, tagged);
        const held = Object.hasOwn(c.heldVars, key) ? c.heldVars[key] : undefined;
        if (held) c.hold(vs, held);
        planValue(c, tagged, { anchor: vs });
      }
    }
    at = end + 1;
  }
}

/** Pieces of a value from `from` to the line end (quotes, inline comments and `${X}` handled). */
function valuePieces(text: string, from: number, to: number, values: ReadonlyMap<string, TPiece[]>): TPiece[] | null {
  const q = text[from];
  if (q === '"' || q === "'" || q === '`') {
    const close = text.indexOf(q, from + 1);
    if (close < 0 || close > to) return null;
    if (q === "'") return runs(text, from + 1, close, from, none);
    return expand(runs(text, from + 1, close, from, backslash), values);
  }
  let end = to;
  const hash = text.slice(from, to).search(/\s#/);
  if (hash >= 0) end = from + hash;
  while (end > from && /\s/.test(text[end - 1]!)) end--;
  if (end <= from) return null;
  return expand([{ kind: 'text', text: text.slice(from, end), origin: { start: from, editable: true, literal: from, local: false } }], values);
}

/** `${KEY}` / `$KEY` inside a value: the earlier key's pieces, or a hole. */
function expand(pieces: TPiece[], values: ReadonlyMap<string, TPiece[]>): TPiece[] {
  const out: TPiece[] = [];
  for (const p of pieces) {
    if (p.kind !== 'text' || !p.origin.editable || !p.text.includes('$')) {
      out.push(p);
      continue;
    }
    const re = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;
    let last = 0;
    for (let m = re.exec(p.text); m; m = re.exec(p.text)) {
      if (m.index > last) out.push({ ...p, text: p.text.slice(last, m.index), origin: { ...p.origin, start: p.origin.start + last } });
      const name = m[1] ?? m[2]!;
      out.push(...(values.get(name) ?? [holePiece(`$${name}`, p.origin.start + m.index)]));
      last = m.index + m[0].length;
    }
    if (last < p.text.length) out.push({ ...p, text: p.text.slice(last), origin: { ...p.origin, start: p.origin.start + last } });
  }
  return out;
}
