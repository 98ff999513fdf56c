/**
 * Markdown fenced code blocks, found line by line (no Markdown library: a CommonMark parser reads a
 * fence indented inside an MDX component as indented code, and these docs do that). Container
 * prefixes are known: a fence may open after blockquote and list-item markers (`> - ```bash`), and a
 * blockquoted fence's lines are its code without their `>` markers.
 */

export interface Fence {
  info: string;
  /** Offsets of the fence (opening line to closing line) and of its content. */
  start: number;
  end: number;
  contentStart: number;
  contentEnd: number;
  /** 1-based line of the first content line. */
  line: number;
  /** Each content line without its blockquote markers (`> `): the code, at its own offsets. */
  lines: Array<[number, number]>;
  /** Inside a blockquote: the content lines carry `>` markers that are not code. */
  quoted: boolean;
}

/**
 * An opening fence after its container prefix: blockquote markers and list-item markers (`> - ```bash`),
 * each one `>` or list marker (followed by a space) after spaces, so a prefix reads one way only (no
 * backtracking blow-up on long `> > > …` lines). A fence at any indentation counts: docs indent them
 * inside lists and MDX components.
 */
const OPENING = /^((?:[ \t]*(?:>|(?:[-*+]|\d{1,9}[.)])(?=[ \t])))*)\s*(`{3,}|~{3,})(.*)$/;
const CLOSING = /^\s*(`{3,}|~{3,})\s*$/;

/** The length of `depth` blockquote markers at the start of a line, or -1 when the line has fewer (the quote, and its fence, end there). */
function quotePrefix(line: string, depth: number): number {
  let at = 0;
  for (let d = 0; d < depth; d++) {
    const m = /^[ \t]{0,3}>[ \t]?/.exec(line.slice(at));
    if (!m) return -1;
    at += m[0].length;
  }
  return at;
}

interface OpenFence {
  ch: string;
  len: number;
  info: string;
  start: number;
  contentStart: number;
  line: number;
  /** How many blockquote markers each of its lines starts with. */
  depth: number;
  lines: Array<[number, number]>;
}

const closed = (o: OpenFence, end: number, contentEnd: number): Fence => ({ info: o.info, start: o.start, end, contentStart: o.contentStart, contentEnd, line: o.line, lines: o.lines, quoted: o.depth > 0 });

export function fencesOf(text: string): Fence[] {
  const out: Fence[] = [];
  let open: OpenFence | null = null;
  let lastEnd = 0;
  let at = 0;
  let line = 1;
  while (at < text.length) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    const le = nl > at && text[nl - 1] === '\r' ? nl - 1 : nl;
    const l = text.slice(at, le);
    let inside = false;
    if (open) {
      const prefix = quotePrefix(l, open.depth);
      if (prefix >= 0) {
        inside = true;
        const m = CLOSING.exec(l.slice(prefix));
        if (m && m[1]![0] === open.ch && m[1]!.length >= open.len) {
          out.push(closed(open, nl, at));
          open = null;
        } else open.lines.push([at + prefix, le]);
      } else {
        // The blockquote ends, and its fence with it; this line may open another.
        out.push(closed(open, lastEnd, at));
        open = null;
      }
    }
    const m = inside || !(l.includes('```') || l.includes('~~~')) ? null : OPENING.exec(l);
    if (m && !(m[2]![0] === '`' && m[3]!.includes('`'))) {
      const depth = (m[1]!.match(/>/g) ?? []).length;
      open = { ch: m[2]![0]!, len: m[2]!.length, info: m[3]!.trim(), start: at, contentStart: Math.min(nl + 1, text.length), line: line + 1, depth, lines: [] };
    }
    lastEnd = le;
    at = nl + 1;
    line++;
  }
  if (open) out.push(closed(open, text.length, text.length));
  return out;
}

/**
 * Indented code blocks (four spaces or a tab, after a blank line) that are shell commands: their
 * first line is a `curl` call, or a `$ curl` prompt. Docs write commands that way as often as in a
 * fence; other indented text (a list item's continuation, a quoted paragraph) stays prose. They are
 * returned as fences without an info string, so they are scanned like an unlabelled fence.
 */
export function indentedCommands(text: string, fences: readonly Fence[]): Fence[] {
  const out: Fence[] = [];
  const lines: Array<[number, number]> = [];
  for (let at = 0; at < text.length; ) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    lines.push([at, nl > at && text[nl - 1] === '\r' ? nl - 1 : nl]);
    at = nl + 1;
  }
  const inFence = (offset: number): boolean => fences.some((f) => offset >= f.start && offset < Math.max(f.end, f.start + 1));
  const blank = (i: number): boolean => !text.slice(lines[i]![0], lines[i]![1]).trim();
  const indented = (i: number): boolean => /^(?: {4}|\t)/.test(text.slice(lines[i]![0], lines[i]![1])) && !blank(i);
  for (let i = 0; i < lines.length; i++) {
    if (!indented(i) || (i > 0 && !blank(i - 1)) || inFence(lines[i]![0])) continue;
    if (!/^\s*(?:\$\s+)?curl\s/.test(text.slice(lines[i]![0], lines[i]![1]))) continue;
    let last = i;
    for (let j = i + 1; j < lines.length && (indented(j) || blank(j)) && !inFence(lines[j]![0]); j++) if (indented(j)) last = j;
    const block = lines.slice(i, last + 1);
    out.push({ info: '', start: block[0]![0], end: block[block.length - 1]![1], contentStart: block[0]![0], contentEnd: block[block.length - 1]![1], line: i + 1, lines: block, quoted: false });
    i = last;
  }
  return out;
}
