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

const ASSIGNMENT = /^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*(["']?)([^\r\n"'#]*)\2/gm;

/**
 * The assignments of a .env file, as the code that reads them sees them: the one reading of .env
 * files the run (which files join which code) and the JS engine (which values code reads) share. The
 * text engine's planner (src/text/env.ts) reads values piece by piece to rewrite them.
 */
export function dotenvAssignments(text: string): DotenvAssignment[] {
  const out: DotenvAssignment[] = [];
  for (const m of text.matchAll(ASSIGNMENT)) {
    const value = m[3]!.trim();
    if (!value) continue;
    const start = m.index! + m[0].length - m[2]!.length - m[3]!.length + (m[3]!.length - m[3]!.trimStart().length);
    const lineStart = text.lastIndexOf('\n', m.index! - 1) + 1;
    out.push({ name: m[1]!, value, start, end: start + value.length, line: text.slice(0, m.index!).split('\n').length, column: start - lineStart });
  }
  return out;
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
