/**
 * Where comments are, line by line: the comment syntax in force on each line (a Markdown fence's
 * language inside a fence), whether the line starts inside a multi-line block comment, and whether a
 * position on a line is inside a comment.
 */
import { commentSyntaxFor, fenceSyntax, splitLines, type CommentSyntax } from './syntax.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * Visit every line of `text` that is not a Markdown fence line, with the comment syntax in force
 * there, the closer of the block comment the line starts in (or null), and whether the line is inside
 * a fenced code block (in a file with fences).
 */
export function walkCommentLines(
  text: string,
  file: string,
  visit: (index: number, lineText: string, syntax: CommentSyntax, blockAtLineStart: string | null, fenced: boolean) => void,
  lines: readonly string[] = splitLines(text, file),
): void {
  const top = commentSyntaxFor(file);
  /** A multi-line block comment we are inside: its closer. */
  let inBlock: string | null = null;
  let fence: { char: string; len: number; syntax: CommentSyntax } | null = null;
  for (let li = 0; li < lines.length; li++) {
    const lineText = lines[li]!;
    if (top.fences && !inBlock) {
      const f = FENCE.exec(lineText);
      if (fence) {
        if (f && f[1]![0] === fence.char && f[1]!.length >= fence.len && !f[2]!.trim()) {
          fence = null;
          continue;
        }
      } else if (f && !(f[1]![0] === '`' && f[2]!.includes('`'))) {
        fence = { char: f[1]![0]!, len: f[1]!.length, syntax: fenceSyntax(f[2]!) };
        continue;
      }
    }
    const syntax = fence ? fence.syntax : top;
    visit(li, lineText, syntax, inBlock, fence !== null);
    inBlock = nextBlockState(lineText, syntax, inBlock);
  }
}

/**
 * Is the end of `before` inside a comment of `syntax`? Anywhere in it, not only right after the
 * opener (RunPod's markers may follow other words). Quotes are tracked so `'https://…'` opens nothing;
 * `#` opens a comment only at the start of a word (shell's `$#`, `${#a[@]}` do not).
 */
export function insideComment(before: string, syntax: CommentSyntax, inBlockAtStart: string | null): boolean {
  let block = inBlockAtStart;
  let quote: string | null = null;
  for (let i = 0; i < before.length; i++) {
    const rest = before.slice(i);
    if (block) {
      if (rest.startsWith(block)) {
        i += block.length - 1;
        block = null;
      }
      continue;
    }
    const c = before[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      quote = c;
      continue;
    }
    for (const o of syntax.line) if (rest.startsWith(o) && (o !== '#' || i === 0 || /\s/.test(before[i - 1]!))) return true;
    const opened = syntax.block.find(([open]) => rest.startsWith(open));
    if (opened) {
      block = opened[1];
      i += opened[0].length - 1;
    }
  }
  return block !== null;
}

/**
 * Track multi-line block comments, conservatively: only a line whose code starts with the opener
 * (`/*`, `/**`, `{/*`, `<!--`) opens one, so a glob string like '**\/*.ts' never does.
 */
function nextBlockState(lineText: string, syntax: CommentSyntax, inBlock: string | null): string | null {
  if (inBlock) return lineText.includes(inBlock) ? null : inBlock;
  const t = lineText.trimStart().replace(/^\{/, '');
  for (const [open, close] of syntax.block) {
    if (t.startsWith(open) && !t.slice(open.length).includes(close)) return close;
  }
  return null;
}

