/**
 * `.env` files: `KEY=value` lines (optionally `export`, quoted values, `${OTHER}` references to keys
 * above). A value holding a v1 URL is planned like any literal: the base (and path renames) rewritten,
 * per-request paths reported; the message names the variable other environments may still set. A
 * variable that code the run does not migrate reads (the JS engine says which) keeps its v1 base.
 * The lines are read by scan/dotenv.ts, as the run and the JS engine read them.
 */
import { holePiece, planValue, type Collector, type TPiece } from './plan.js';
import { backslash, none, runs } from './strings.js';
import { readDotenv, type DotenvEntry } from '../scan/dotenv.js';

export function scanEnv(c: Collector, text: string): void {
  const values = new Map<string, TPiece[]>();
  for (const entry of readDotenv(text)) {
    const pieces = valuePieces(text, entry, values);
    if (!pieces) continue;
    const tagged = pieces.map((p) => (p.kind === 'text' && p.origin.literal === entry.at ? { ...p, origin: { ...p.origin, envVar: entry.name } } : p));
    values.set(entry.name, tagged);
    const held = Object.hasOwn(c.heldVars, entry.name) ? c.heldVars[entry.name] : undefined;
    if (held) c.hold(entry.at, held);
    planValue(c, tagged, { anchor: entry.at });
  }
}

/** Pieces of a value (quotes and `${X}` handled); none for an empty unquoted one. */
function valuePieces(text: string, e: DotenvEntry, values: ReadonlyMap<string, TPiece[]>): TPiece[] | null {
  if (e.quote === "'") return runs(text, e.start, e.end, e.at, none);
  if (e.quote) return expand(runs(text, e.start, e.end, e.at, backslash), values);
  if (e.end <= e.start) return null;
  return expand([{ kind: 'text', text: text.slice(e.start, e.end), origin: { start: e.start, editable: true, literal: e.start, local: false } }], values);
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
