/**
 * The one reader of .env files: the run (which files join which code), the JS engine (which values
 * code reads), the report (which values to mask) and the text engine's planner (text/env.ts, which
 * rewrites values piece by piece) all read `KEY=value` lines here. Hand-written because it must give
 * offsets, which `dotenv`'s parser does not; it reads what that parser reads on one line: optional
 * `export`, quoted values ('…', "…", `…`), an unquoted value up to ` #` (an inline comment).
 */

/** One `NAME=value` line. */
export interface DotenvEntry {
  name: string;
  /** Where the value is written (its opening quote, if quoted). */
  at: number;
  /** Offsets of the value's text: inside its quotes, or without an inline comment and trailing blanks. */
  start: number;
  end: number;
  quote: '"' | "'" | '`' | null;
  /** 1-based line of the assignment. */
  line: number;
}

const LINE = /^([ \t]*)(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*=[ \t]*/;

/** The entries of a .env text, in order; a quoted value not closed on its line is left out. */
export function readDotenv(text: string): DotenvEntry[] {
  const out: DotenvEntry[] = [];
  let line = 1;
  for (let at = 0; at < text.length; line++) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const lineEnd = end > at && text[end - 1] === '\r' ? end - 1 : end;
    const m = LINE.exec(text.slice(at, lineEnd));
    const name = m?.[2];
    if (m && name) {
      const value = valueAt(text, at + m[0].length, lineEnd);
      if (value) out.push({ name, at: at + m[0].length, ...value, line });
    }
    at = end + 1;
  }
  return out;
}

function valueAt(text: string, from: number, to: number): Pick<DotenvEntry, 'start' | 'end' | 'quote'> | null {
  const q = text[from];
  if (q === '"' || q === "'" || q === '`') {
    const close = text.indexOf(q, from + 1);
    return close < 0 || close > to ? null : { start: from + 1, end: close, quote: q };
  }
  let end = to;
  const hash = text.slice(from, to).search(/\s#/);
  if (hash >= 0) end = from + hash;
  while (end > from && /\s/.test(text.charAt(end - 1))) end--;
  return { start: from, end, quote: null };
}

/** One `NAME=value` line of a .env file; offsets and positions are in the file's text. */
export interface DotenvAssignment {
  name: string;
  /** The value without its quotes and surrounding blanks; empty values are not listed. */
  value: string;
  start: number;
  end: number;
  /** 1-based line, 0-based column of `start`. */
  line: number;
  column: number;
}

/** The assignments of a .env file as the code that reads them sees them (values as written, blanks trimmed). */
export function dotenvAssignments(text: string): DotenvAssignment[] {
  return readDotenv(text).flatMap((e) => {
    const raw = text.slice(e.start, e.end);
    const value = raw.trim();
    if (!value) return [];
    const start = e.start + raw.length - raw.trimStart().length;
    return [{ name: e.name, value, start, end: start + value.length, line: e.line, column: start - (text.lastIndexOf('\n', start - 1) + 1) }];
  });
}

/**
 * Names of the variables a .env file sets to a RunPod URL or a configured legacy base: code reading
 * one of them takes part in the run.
 */
export function baseVariables(text: string, legacyBases: readonly string[]): string[] {
  return dotenvAssignments(text)
    .filter((a) => /runpod\.io/i.test(a.value) || legacyBases.some((b) => a.value.includes(b)))
    .map((a) => a.name);
}
