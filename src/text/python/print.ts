/**
 * A v2 body rebuilt from a Python dict literal, written back as Python: each expression and each
 * literal value as it was written, new keys and values in the file's quotes, the literal's own layout
 * (what is between its braces and entries) kept, and a key v2 renames changed in place.
 */
import type { BodyMap } from '../../adapters/runtime.js';
import type { DictValues } from './dict-values.js';
import type { Module } from './model.js';
import { isRecord } from '../json-body.js';

const isText = (v: string | null): v is string => v !== null;

const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A Python string literal of `s`: in quote `quote`, or in the other quote where only that one is in `s`. */
function pyString(s: string, quote: string): string {
  const other = quote === '"' ? "'" : '"';
  const q = s.includes(quote) && !s.includes(other) ? other : quote;
  const body = s.replace(/[\\\n\r\t]/g, (ch) => ESCAPES[ch] ?? ch).replace(/[\0-\x1f\x7f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return `${q}${body.replaceAll(q, `\\${q}`)}${q}`;
}

/**
 * A JSON value as Python source, strings in `quote` (`child` writes each item and entry value, by
 * default as this does); null for a value Python cannot hold as written (a number that is not finite).
 */
export function pyLiteral(v: unknown, quote = '"', child: (x: unknown) => string | null = (x) => pyLiteral(x, quote)): string | null {
  if (typeof v === 'string') return pyString(v, quote);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : null;
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (v === null) return 'None';
  const entry = ([k, x]: [string, unknown]): string | null => {
    const value = child(x);
    return value === null ? null : `${pyString(k, quote)}: ${value}`;
  };
  const items = Array.isArray(v) ? v.map(child) : isRecord(v) ? Object.entries(v).map(entry) : [null];
  if (!items.every(isText)) return null;
  return Array.isArray(v) ? `[${items.join(', ')}]` : `{${items.join(', ')}}`;
}

export class PythonPrinter {
  /** How many times each hole was written. */
  readonly used: number[];

  /** `holes`: the value standing for each hole (by id) in the body that was rebuilt. */
  constructor(
    private readonly d: DictValues,
    private readonly holes: ReadonlyMap<unknown, number>,
  ) {
    this.used = d.holes.map(() => 0);
  }

  /** Count the holes in a value written as its source text. */
  private count(v: unknown): void {
    const id = this.holes.get(v);
    if (id !== undefined) this.used[id] = (this.used[id] ?? 0) + 1;
    else if (Array.isArray(v)) v.forEach((x) => this.count(x));
    else if (isRecord(v)) Object.values(v).forEach((x) => this.count(x));
  }

  /** A value as Python source, or null where a hole would not be written as itself (built into a string). */
  private value(v: unknown): string | null {
    const id = this.holes.get(v);
    const written = id === undefined ? this.d.texts.get(JSON.stringify(v)) : this.d.holes[id]?.text;
    if (written !== undefined) {
      this.count(v);
      return written;
    }
    // A hole built into a string is not written as itself.
    if (typeof v === 'string' && v.includes('\u0001')) return null;
    return pyLiteral(v, this.d.quote, (x) => this.value(x));
  }

  private entry(key: string, colon: string, v: unknown): string | null {
    const value = this.value(v);
    return value === null ? null : `${key}${colon}${value}`;
  }

  /** The rebuilt body `out` as the dict literal's new text (from `{` or `dict(`'s `(`): an entry kept or renamed keeps how its key is written. */
  dict(m: Module, map: BodyMap, out: Record<string, unknown>): string | null {
    const renamed = (key: string): string | undefined => {
      const rule = Object.hasOwn(map.fields, key) ? map.fields[key] : undefined;
      return rule?.kind === 'rename' ? rule.to : undefined;
    };
    const { call, lead, sep, trail } = this.d;
    const entries = Object.entries(out).map(([key, v]) => {
      const from = this.d.entries.find((e) => e.key === key || renamed(e.key) === key);
      if (!from) return call ? this.entry(key, '=', v) : this.entry(pyString(key, this.d.quote), ': ', v);
      // The key as written (`"imageName"`, `r'imageName'`, the keyword `imageName`), with the v2 name.
      const s = from.keyTok.str;
      const written = s ? m.text.slice(from.keyTok.start, s.bodyStart) + key + m.text.slice(s.bodyEnd, from.keyTok.end) : key;
      return this.entry(written, m.text.slice(from.keyTok.end, from.valueStart), v);
    });
    if (!entries.every(isText)) return null;
    const [open, close] = call ? ['(', ')'] : ['{', '}'];
    return entries.length ? `${open}${lead}${entries.join(sep)}${trail}${close}` : `${open}${close}`;
  }
}
