/**
 * A small Python tokenizer: names, numbers, operators, brackets (matched), comments, logical newlines
 * and string literals of every kind (prefixes, triple quotes, f-strings with nested replacement fields
 * and nested strings). It is not a parser: the analysis above it works on token ranges.
 */

export type TokType = 'name' | 'number' | 'string' | 'op' | 'newline' | 'comment';

export interface StringInfo {
  /** Lower-cased prefix letters (`f`, `rb`, …). */
  prefix: string;
  quote: string;
  /** Offsets of the content between the quotes. */
  bodyStart: number;
  bodyEnd: number;
  raw: boolean;
  f: boolean;
  bytes: boolean;
  /** f-strings: literal runs and replacement fields (expression range, whole `{…}` range). */
  fields: Array<{ start: number; end: number; exprStart: number; exprEnd: number }>;
}

export interface Tok {
  type: TokType;
  value: string;
  start: number;
  end: number;
  /** For brackets: index of the matching bracket token (-1 when unmatched). */
  match?: number;
  str?: StringInfo;
}

const STRING_PREFIXES = new Set(['r', 'u', 'b', 'f', 't', 'br', 'rb', 'fr', 'rf', 'tr', 'rt']);
const OPS3 = ['**=', '//=', '>>=', '<<=', '...'];
const OPS2 = ['->', ':=', '==', '!=', '<=', '>=', '**', '//', '<<', '>>', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '@='];
const OPEN: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const CLOSE = new Set([')', ']', '}']);

const isNameStart = (ch: string): boolean => /[A-Za-z_]/.test(ch) || ch.charCodeAt(0) > 127;
const isNameChar = (ch: string): boolean => /[\w]/.test(ch) || ch.charCodeAt(0) > 127;

/** End offset of a string literal's closing quote search: returns the offset just past the literal. */
function scanString(text: string, pos: number, quote: string, f: boolean, info: StringInfo): number {
  const triple = quote.length === 3;
  let i = pos;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (!triple && (ch === '\n' || ch === '\r')) {
      info.bodyEnd = i;
      return i; // unterminated: stop at the line end
    }
    if (text.startsWith(quote, i)) {
      info.bodyEnd = i;
      return i + quote.length;
    }
    if (f && ch === '{') {
      if (text[i + 1] === '{') {
        i += 2;
        continue;
      }
      const end = scanField(text, i, quote, info);
      i = end;
      continue;
    }
    i++;
  }
  info.bodyEnd = text.length;
  return text.length;
}

/** Scan an f-string replacement field starting at `{`; records it and returns the offset after `}`. */
function scanField(text: string, open: number, quote: string, info: StringInfo): number {
  let depth = 0;
  let i = open + 1;
  let exprEnd = -1;
  while (i < text.length) {
    const ch = text[i]!;
    if (depth === 0 && text.startsWith(quote, i) && quote.length === 1) break; // broken field: string ends
    if (ch === '\'' || ch === '"') {
      // A nested string inside the expression.
      const q = text.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch;
      let j = i + q.length;
      while (j < text.length && !text.startsWith(q, j)) j += text[j] === '\\' ? 2 : 1;
      i = j + q.length;
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === '}') {
      if (depth === 0) {
        if (exprEnd < 0) exprEnd = i;
        info.fields.push({ start: open, end: i + 1, exprStart: open + 1, exprEnd });
        return i + 1;
      }
      depth--;
    } else if (depth === 0 && exprEnd < 0 && ch === '!' && text[i + 1] !== '=') exprEnd = i;
    else if (depth === 0 && exprEnd < 0 && ch === ':') {
      exprEnd = i;
      // Format spec: may hold nested fields; runs to the matching `}`.
      let d = 0;
      let j = i + 1;
      while (j < text.length) {
        if (text[j] === '{') d++;
        else if (text[j] === '}') {
          if (d === 0) break;
          d--;
        }
        j++;
      }
      info.fields.push({ start: open, end: j + 1, exprStart: open + 1, exprEnd });
      return j + 1;
    }
    i++;
  }
  info.fields.push({ start: open, end: i, exprStart: open + 1, exprEnd: exprEnd < 0 ? i : exprEnd });
  return i;
}

/** Tokenize `text[from, to)`; offsets are offsets in `text`. */
export function tokenize(text: string, from = 0, to = text.length): Tok[] {
  const toks: Tok[] = [];
  const stack: number[] = [];
  let i = from;
  const src = to === text.length ? text : text.slice(0, to);
  while (i < to) {
    const ch = src[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\f') {
      i++;
      continue;
    }
    if (ch === '\\' && (src[i + 1] === '\n' || src[i + 1] === '\r')) {
      i += src[i + 1] === '\r' && src[i + 2] === '\n' ? 3 : 2;
      continue;
    }
    if (ch === '\n' || ch === '\r') {
      const len = ch === '\r' && src[i + 1] === '\n' ? 2 : 1;
      if (!stack.length && toks.length && toks[toks.length - 1]!.type !== 'newline') toks.push({ type: 'newline', value: '\n', start: i, end: i + len });
      i += len;
      continue;
    }
    if (ch === '#') {
      let j = i;
      while (j < to && src[j] !== '\n' && src[j] !== '\r') j++;
      // Comments are not kept: the analysis never needs them and they would split token patterns.
      i = j;
      continue;
    }
    if (isNameStart(ch)) {
      let j = i + 1;
      while (j < to && isNameChar(src[j]!)) j++;
      const word = src.slice(i, j);
      const q = src[j];
      if ((q === '"' || q === "'") && STRING_PREFIXES.has(word.toLowerCase())) {
        i = stringToken(src, i, j, word.toLowerCase(), toks);
        continue;
      }
      toks.push({ type: 'name', value: word, start: i, end: j });
      i = j;
      continue;
    }
    if (ch === '"' || ch === "'") {
      i = stringToken(src, i, i, '', toks);
      continue;
    }
    if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < to && /[\w.]/.test(src[j]!)) j++;
      toks.push({ type: 'number', value: src.slice(i, j), start: i, end: j });
      i = j;
      continue;
    }
    const op = OPS3.find((o) => src.startsWith(o, i)) ?? OPS2.find((o) => src.startsWith(o, i)) ?? ch;
    const tok: Tok = { type: 'op', value: op, start: i, end: i + op.length };
    if (OPEN[op]) {
      tok.match = -1;
      stack.push(toks.length);
    } else if (CLOSE.has(op)) {
      tok.match = -1;
      // Pop to the matching opener (tolerate stray closers).
      for (let k = stack.length - 1; k >= 0; k--) {
        const opener = toks[stack[k]!]!;
        if (OPEN[opener.value] === op) {
          opener.match = toks.length;
          tok.match = stack[k]!;
          stack.length = k;
          break;
        }
      }
    }
    toks.push(tok);
    i += op.length;
  }
  if (toks.length && toks[toks.length - 1]!.type !== 'newline') toks.push({ type: 'newline', value: '', start: to, end: to });
  return toks;
}

function stringToken(src: string, start: number, quoteAt: number, prefix: string, toks: Tok[]): number {
  const q1 = src[quoteAt]!;
  const quote = src.startsWith(q1.repeat(3), quoteAt) ? q1.repeat(3) : q1;
  const raw = prefix.includes('r');
  const f = prefix.includes('f') || prefix.includes('t');
  const info: StringInfo = { prefix, quote, bodyStart: quoteAt + quote.length, bodyEnd: -1, raw, f, bytes: prefix.includes('b'), fields: [] };
  const end = scanString(src, quoteAt + quote.length, quote, f, info);
  toks.push({ type: 'string', value: src.slice(start, end), start, end, str: info });
  return end;
}

/** Python escape sequences → their characters (enough for URLs: anything unusual just stays opaque). */
export function decodeEscape(seq: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', v: '\v', '0': '\0', '\n': '', '\r\n': '' };
  const body = seq.slice(1);
  if (body in simple) return simple[body]!;
  if (/^x[0-9a-fA-F]{2}$/.test(body) || /^u[0-9a-fA-F]{4}$/.test(body) || /^U[0-9a-fA-F]{8}$/.test(body)) return String.fromCodePoint(parseInt(body.slice(1), 16));
  if (/^[0-7]{1,3}$/.test(body)) return String.fromCharCode(parseInt(body, 8));
  return seq;
}

/** Length of the escape sequence at `text[i]` (a backslash). */
export function escapeLength(text: string, i: number): number {
  const c = text[i + 1] ?? '';
  if (c === 'x') return 4;
  if (c === 'u') return 6;
  if (c === 'U') return 10;
  if (c === 'N' && text[i + 2] === '{') {
    const close = text.indexOf('}', i);
    return close < 0 ? 2 : close - i + 1;
  }
  if (/[0-7]/.test(c)) {
    let n = 1;
    while (n < 3 && /[0-7]/.test(text[i + 1 + n] ?? '')) n++;
    return 1 + n;
  }
  if (c === '\r' && text[i + 2] === '\n') return 3;
  return 2;
}
