/**
 * A Python dict literal read as the JSON body it sends, for a rebuild that keeps every value's source
 * text: literals become their values (toV2Body reads them: `computeType: "CPU"`, `flashboot: True`),
 * any other expression a hole that stands for its text. Null where the literal cannot be read with
 * certainty: a key that is not a plain string, `**spread`, a comprehension, a comment inside.
 */
import { isName, isOp } from './syntax.js';
import { findTop, splitTop, type Module, type Tok } from './model.js';

/**
 * An expression kept as written. `any`: its type is unknown (a name or a call as a whole field
 * value); else it is a string (an f-string, or a value nested in a list or dict, where v1 took strings).
 */
export class Hole {
  constructor(
    readonly id: number,
    readonly any: boolean,
  ) {}
}

/** One `"key": value` entry of the literal. */
interface DictEntry {
  key: string;
  value: unknown;
  keyTok: Tok;
  /** Offsets of the entry and of its value. */
  start: number;
  end: number;
  valueStart: number;
}

export interface DictValues {
  /** Written as `dict(key=value, …)`: keys are names, the braces are the call's parentheses. */
  call: boolean;
  entries: DictEntry[];
  /** Each hole by id: its source text, and whether its type is unknown. */
  holes: Array<{ text: string; any: boolean }>;
  /** Source text of each list, dict or literal value (jsonOf the value → its text as written, the first one). */
  texts: Map<string, string>;
  /** The quote new strings are written with: the keys', or the first string's of a `dict(…)`. */
  quote: string;
  /** Text between `{` and the first entry, between entries (with the comma), after the last one. */
  lead: string;
  sep: string;
  trail: string;
}

/** A plain string token's value (no prefix but `r`, no escape sequence), or null. */
function plainString(m: Module, t: Tok | undefined): string | null {
  const s = t?.type === 'string' ? t.str : undefined;
  if (!s || s.f || s.bytes || s.escapes.length || (s.raw && m.text.slice(s.bodyStart, s.bodyEnd).includes('\\'))) return null;
  return m.text.slice(s.bodyStart, s.bodyEnd);
}

const LITERAL_NAMES: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ['True', true],
  ['False', false],
  ['None', null],
]);

/** The JSON value a number token spells (`1_000`, `0x10`, `2.5`), or null (a complex number). */
export function numberValue(text: string): number | null {
  if (/[jJ]$/.test(text)) return null;
  const n = Number(text.replace(/_/g, ''));
  return Number.isFinite(n) ? n : null;
}

class Reader {
  readonly holes: Array<{ text: string; any: boolean }> = [];
  readonly texts = new Map<string, string>();

  /** `top`: the token index of the body literal's `{` or `dict(`'s `(` (its entries' values are whole field values). */
  constructor(
    private readonly m: Module,
    private readonly top: number,
  ) {}

  private text(a: number, b: number): string {
    const first = this.m.toks[a];
    const last = this.m.toks[b - 1];
    return first && last ? this.m.text.slice(first.start, last.end) : '';
  }

  private hole(a: number, b: number, any: boolean): Hole {
    this.holes.push({ text: this.text(a, b), any });
    return new Hole(this.holes.length - 1, any);
  }

  /** The value of tokens [a, b); `top`: a whole field value. undefined: not readable with certainty. */
  value(a: number, b: number, top: boolean): unknown {
    const { m } = this;
    const t = m.toks[a];
    if (!t || a >= b) return undefined;
    const value = this.literal(t, a, b, top);
    if (value === undefined || value instanceof Hole) return value;
    const json = jsonOf(value);
    if (!this.texts.has(json)) this.texts.set(json, this.text(a, b));
    return value;
  }

  private literal(t: Tok, a: number, b: number, top: boolean): unknown {
    const { m } = this;
    if (b === a + 1) {
      if (t.type === 'string') return t.str?.bytes ? undefined : (plainString(m, t) ?? this.hole(a, b, false));
      if (t.type === 'number') return numberValue(t.value) ?? undefined;
      if (t.type === 'name' && LITERAL_NAMES.has(t.value)) return LITERAL_NAMES.get(t.value);
    }
    const closed = t.match === b - 1;
    if (closed && isOp(t, '[')) return this.list(a, b);
    if (closed && isOp(t, '{')) return this.dict(a, b);
    // `"a" + x`, `"a" "b"`, `"-".join(xs)`: a string (unless a choice: `"a" if x else None`); anything else an expression of its own type.
    const choice = findTop(m.toks, a, b, (x) => x.type === 'name' && ['if', 'or', 'and', 'lambda'].includes(x.value)) >= 0;
    return this.hole(a, b, top && (t.type !== 'string' || choice));
  }

  private list(a: number, b: number): unknown[] | undefined {
    const toks = this.m.toks;
    if (findTop(toks, a + 1, b - 1, (x) => isName(x, 'for')) >= 0) return undefined;
    const out: unknown[] = [];
    for (const [x, y] of splitTop(toks, a + 1, b - 1)) {
      if (y === x) continue;
      if (isOp(toks[x], '*')) return undefined;
      const v = this.value(x, y, false);
      if (v === undefined) return undefined;
      out.push(v);
    }
    return out;
  }

  private dict(a: number, b: number): Record<string, unknown> | undefined {
    const entries = this.entries(a, b);
    return entries && Object.fromEntries(entries.map((e) => [e.key, e.value]));
  }

  /**
   * The entries of the dict literal [a, b), each key a plain string written once (a keyword of a
   * `dict(…)` whose `(` is at a).
   */
  entries(a: number, b: number): DictEntry[] | undefined {
    const { m } = this;
    const toks = m.toks;
    const call = isOp(toks[a], '(');
    if (findTop(toks, a + 1, b - 1, (x) => isName(x, 'for')) >= 0) return undefined;
    const out: DictEntry[] = [];
    for (const [x, y] of splitTop(toks, a + 1, b - 1)) {
      if (y === x) continue;
      const keyTok = toks[x];
      const valueTok = toks[x + 2];
      const lastTok = toks[y - 1];
      const key = call ? (keyTok?.type === 'name' ? keyTok.value : null) : plainString(m, keyTok);
      if (!keyTok || !valueTok || !lastTok || key === null || !isOp(toks[x + 1], call ? '=' : ':') || out.some((e) => e.key === key)) return undefined;
      const value = this.value(x + 2, y, a === this.top);
      if (value === undefined) return undefined;
      out.push({ key, value, keyTok, start: keyTok.start, end: lastTok.end, valueStart: valueTok.start });
    }
    return out;
  }
}

/** A hole as a string: how it stands in a body where its type is not asked (every hole nested in a value). */
export const holeString = (h: { id: number }): string => `\u0001${h.id}\u0001`;

/** The JSON of a value read, each hole as its string: the key of its text in DictValues.texts. */
const jsonOf = (value: unknown): string => JSON.stringify(value, (_, v: unknown) => (v instanceof Hole ? holeString(v) : v));

/** Nothing but whitespace between the tokens of [a, b): no comment a rebuild would lose or misplace. */
function withoutComments(m: Module, a: number, b: number): boolean {
  return m.toks.slice(a, b).every((t, i, toks) => i === 0 || !m.text.slice(toks[i - 1]?.end ?? t.start, t.start).trim());
}

/**
 * The dict literal at tokens [a, b) of the module, `{…}` or the `(…)` of `dict(…)`, read for a rebuild;
 * null where it cannot be.
 */
export function readDict(m: Module, a: number, b: number): DictValues | null {
  const open = m.toks[a];
  const close = m.toks[b - 1];
  const call = isOp(open, '(') && isName(m.toks[a - 1], 'dict');
  if (!open || !close || !(call || isOp(open, '{')) || open.match !== b - 1 || !withoutComments(m, a, b)) return null;
  const reader = new Reader(m, a);
  const entries = reader.entries(a, b);
  const first = entries?.[0];
  const last = entries?.[entries.length - 1];
  if (!entries || !first || !last) return null;
  const second = entries[1];
  const lead = m.text.slice(open.end, first.start);
  return {
    entries,
    holes: reader.holes,
    texts: reader.texts,
    call,
    quote: m.toks.slice(a, b).find((t) => t.str)?.str?.quote.slice(0, 1) ?? '"',
    lead,
    // One entry: the next goes on a line of its own where the first has one.
    sep: second ? m.text.slice(first.end, second.start) : /\n/.test(lead) ? `,${lead}` : ', ',
    trail: m.text.slice(last.end, close.start),
  };
}
