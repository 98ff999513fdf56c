/**
 * The gate's promise, kept in one place whatever the engines decided: every REST v1 base URL left in
 * the code of a scanned file has a warning or an error at its line. An engine that held a base, could
 * not see what reads it (a value sourced by another script, imported by another module, handed to a
 * program), or did not look at the file at all, cannot make `lint` pass while v1 is still there.
 * Comments and Markdown prose are not code (they keep the engines' own findings, `prose-url`), and
 * markers still apply afterwards: a marked line stays out of the gate.
 */
import type { Finding } from '../findings.js';
import { insideComment, walkCommentLines } from '../markers/comments.js';
import { commentSyntaxFor } from '../markers/syntax.js';
import { RULES } from '../rules/registry.js';
import { codeRanges, isComponentFile } from '../js/components.js';
import { Lines } from '../util/lines.js';
import type { Bases } from '../url/shape.js';

/** The findings to add to `findings` (an engine's, for `text` of `file`) so no v1 base goes unreported. */
export function uncoveredBaseFindings(file: string, text: string, findings: readonly Finding[], bases: Bases): Finding[] {
  if (!bases.legacy.some((b) => text.includes(b))) return [];
  const reported = new Set(findings.filter((f) => f.severity !== 'info').map((f) => f.line));
  const out: Finding[] = [];
  const prose = !!commentSyntaxFor(file).fences;
  const inMarkup = markupTest(file, text);
  walkCommentLines(text, file, (i, lineText, syntax, blockAtLineStart, fenced) => {
    if (reported.has(i + 1) || (prose && !fenced)) return;
    const hit = firstBase(lineText, bases.legacy, (at) => !insideComment(lineText.slice(0, at), syntax, blockAtLineStart));
    if (!hit) return;
    const markup = inMarkup?.(i, hit.at) ?? false;
    if (markup && isPage(file)) {
      // A page's markup is text for readers, like Markdown prose: reported, not gated.
      const url = /^[^\s"'`<>()]*/.exec(lineText.slice(hit.at))![0];
      out.push({ ruleId: 'prose-url', severity: RULES['prose-url'].severity, line: i + 1, column: hit.at + 1, message: `REST v1 URL ${url} in this page's text, outside its <script> code (v1 was retired on 2026-11-15). Markup is not rewritten: update it by hand if it tells readers how to call the API.`, fixable: false });
      return;
    }
    const why = markup
      ? `it is in this component's markup, and v2-migrate rewrites only its <script> code. Update it by hand`
      : `v2-migrate cannot see every request that uses it (a script that sources this file, a module that imports it, a program it is handed to), so moving it could send v1 paths to the v2 host (${bases.target}). Migrate it together with the code that uses it`;
    out.push({
      ruleId: 'base-url',
      severity: RULES['base-url'].severity,
      line: i + 1,
      column: hit.at + 1,
      message: `REST v1 base URL ${hit.base} is still here, and v1 was retired on 2026-11-15. Not rewritten: ${why}, or mark it (v2-migrate-keep-v1, v2-migrate-ignore).`,
      fixable: false,
    });
  });
  return out;
}

/** An HTML page (not a component, whose markup binds values in code-like templates). */
const isPage = (file: string): boolean => /\.html?$/i.test(file);

/** For a component or page: is (line index, column) outside its code (template, markup, a JSON island)? */
function markupTest(file: string, text: string): ((line: number, column: number) => boolean) | null {
  if (!isComponentFile(file)) return null;
  const ranges = codeRanges(text, file);
  const lines = new Lines(text);
  return (line, column) => {
    const at = lines.lineStart(line + 1) + column;
    return !ranges.some(([start, end]) => at >= start && at < end);
  };
}

/** The first configured legacy base on a line in code (`inCode`), as a whole base (not `…/v1beta`). */
function firstBase(lineText: string, legacy: readonly string[], inCode: (at: number) => boolean): { base: string; at: number } | null {
  let best: { base: string; at: number } | null = null;
  for (const base of legacy) {
    for (let i = lineText.indexOf(base); i >= 0; i = lineText.indexOf(base, i + 1)) {
      if (/[\w-]/.test(lineText.charAt(i + base.length)) || !inCode(i)) continue;
      if (!best || i < best.at) best = { base, at: i };
      break;
    }
  }
  return best;
}
