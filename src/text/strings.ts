/** Quoted strings of the data formats as URL pieces: verbatim runs are editable, escapes are not. */
import type { TPiece } from './plan.js';

/** A special sequence at `i` (an escape): its length and the text it stands for, or null. */
export type Special = (text: string, i: number) => { len: number; text: string } | null;

export function runs(text: string, from: number, to: number, literal: number, special: Special): TPiece[] {
  const out: TPiece[] = [];
  let run = from;
  let i = from;
  while (i < to) {
    const s = special(text, i);
    if (!s) {
      i++;
      continue;
    }
    if (i > run) out.push({ kind: 'text', text: text.slice(run, i), origin: { start: run, editable: true, literal, local: false } });
    out.push({ kind: 'text', text: s.text, origin: { start: i, editable: false, literal, local: false } });
    i += Math.max(1, s.len);
    run = i;
  }
  if (to > run) out.push({ kind: 'text', text: text.slice(run, to), origin: { start: run, editable: true, literal, local: false } });
  return out;
}

const SIMPLE: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', "'": "'", '\\': '\\', '/': '/', '0': '\0', e: '\x1b', ' ': ' ' };

/** Backslash escapes as in JSON, TOML basic strings and YAML double-quoted scalars. */
export const backslash: Special = (text, i) => {
  if (text[i] !== '\\') return null;
  const c = text[i + 1] ?? '';
  if (c === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return { len: 6, text: String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)) };
  if (c === 'U' && /^[0-9a-fA-F]{8}$/.test(text.slice(i + 2, i + 10))) return { len: 10, text: String.fromCodePoint(parseInt(text.slice(i + 2, i + 10), 16)) };
  if (c === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 2, i + 4))) return { len: 4, text: String.fromCharCode(parseInt(text.slice(i + 2, i + 4), 16)) };
  return { len: 2, text: SIMPLE[c] ?? c };
};

/** YAML single-quoted scalars: `''` is a quote. */
export const doubledQuote: Special = (text, i) => (text[i] === "'" && text[i + 1] === "'" ? { len: 2, text: "'" } : null);

export const none: Special = () => null;

/** An environment-variable-looking key (`RUNPOD_API_URL`). */
export function looksLikeEnvVar(key: string): boolean {
  return /^[A-Z][A-Z0-9_]*$/.test(key) && key.length > 1;
}
