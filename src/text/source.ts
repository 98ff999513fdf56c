/** Positions, splice edits and masking for the text engine. Every edit is an exact splice of the original text. */

export interface Edit {
  start: number;
  end: number;
  text: string;
  /** The literal the edit changes, when it changes one (markers can freeze a literal). */
  literal?: number;
}

export function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) throw new Error(`overlapping text edits at ${e.start}`);
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/** Two edits that cannot both be applied (same-point insertions conflict unless identical: callers dedupe those). */
export function overlaps(a: Edit, b: Edit): boolean {
  const aIns = a.start === a.end;
  const bIns = b.start === b.end;
  if (aIns && bIns) return a.start === b.start;
  if (aIns) return a.start > b.start && a.start < b.end;
  if (bIns) return b.start > a.start && b.start < a.end;
  return a.start < b.end && b.start < a.end;
}


/** Replace `text[start, start+with.length)` by `with` (same length), for masking prompts or keywords. */
export function overwrite(text: string, start: number, replacement: string): string {
  return text.slice(0, start) + replacement + text.slice(start + replacement.length);
}

/** End of the line containing `pos` (before `\r\n` or `\n`). */
export function lineEndAt(text: string, pos: number): number {
  const nl = text.indexOf('\n', pos);
  const end = nl < 0 ? text.length : nl;
  return end > 0 && text[end - 1] === '\r' && end > pos ? end - 1 : end;
}

/** The file's line ending (CRLF when its first line ends so). */
export function eolOf(text: string): string {
  const nl = text.indexOf('\n');
  return nl > 0 && text[nl - 1] === '\r' ? '\r\n' : '\n';
}
