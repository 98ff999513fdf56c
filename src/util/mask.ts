/** Masking shared by both engines: code kept at its offsets, everything else blanked. */

/**
 * The text with everything outside `ranges` blanked (newlines kept, other characters become spaces):
 * offsets, lines and columns of the kept parts stay exactly where they were, so an engine run on the
 * masked text reports and edits the original. `replace` may change kept characters one for one.
 */
export function maskOutside(text: string, ranges: ReadonlyArray<readonly [number, number]>): string {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let at = 0;
  for (const [s, e] of sorted) {
    if (s < at) continue;
    parts.push(blank(text.slice(at, s)), text.slice(s, e));
    at = e;
  }
  parts.push(blank(text.slice(at)));
  return parts.join('');
}

export function blank(s: string): string {
  // Line by line with repeat(): a per-character regex replace is slow and allocation-heavy on big files.
  const parts: string[] = [];
  let at = 0;
  for (;;) {
    const nl = s.indexOf('\n', at);
    const end = nl < 0 ? s.length : nl;
    const cr = end > at && s[end - 1] === '\r';
    parts.push(' '.repeat(end - at - (cr ? 1 : 0)));
    if (cr) parts.push('\r');
    if (nl < 0) break;
    parts.push('\n');
    at = nl + 1;
  }
  return parts.join('');
}
