import { RULES } from '../rules/registry.js';
import type { Finding } from '../findings.js';
import type { Settings } from '../config.js';
import { insideComment, walkCommentLines } from '../markers/comments.js';
import { otherLanguageOf } from '../scan/kinds.js';
import { bytesContainAny } from '../scan/prefilter.js';
import type { Piece } from '../url/pieces.js';
import { displayPath, shapeOf, type Bases, type UrlShape } from '../url/shape.js';
import { v2Hint } from '../plan/messages.js';
import { decode } from './files.js';
import { screenEach, type Screen } from './screen.js';
import type { TextFileOutcome } from './text-files.js';

/**
 * Files in languages neither engine reads (Go, PHP, PowerShell, …: src/scan/kinds.ts). Nothing in them
 * is rewritten or followed, but every REST v1 base URL in their code is an `other-language` error with
 * what v2 has for its path, so the gate cannot pass while one of them still calls v1.
 */
export async function scanOtherFiles(files: readonly string[], settings: Settings, onRead: (file: string, lenient: string | null) => void, jobs = 1, early: Screen | null = null): Promise<TextFileOutcome[]> {
  const legacy = bytesContainAny(settings.bases.legacy);
  const out: TextFileOutcome[] = [];
  await screenEach(files, settings.bases.legacy, (file, bytes) => {
    if (!bytes) return onRead(file, null);
    if (!legacy(bytes)) return;
    const decoded = decode(bytes);
    onRead(file, decoded.kind === 'text' ? decoded.text : '');
    const findings = decoded.kind === 'text' ? otherLanguageFindings(file, decoded.text, settings.bases) : [];
    out.push({ file, decoded, result: { output: null, findings } });
  }, jobs, early);
  return out;
}

/** Interpolations and placeholders in a URL of any language (`$id`, `${id}`, `$($pod.id)`, `{id}`, `<id>`, `#{id}`, `%s`). */
const PLACEHOLDER = /\$\([^)]*\)|\$\{[^}]*\}|#\{[^}]*\}|\$\w+|\{[^}]*\}|<[^>]*>|%[sdv]/g;

function otherLanguageFindings(file: string, text: string, bases: Bases): Finding[] {
  const language = otherLanguageOf(file) ?? 'this language';
  const out: Finding[] = [];
  walkCommentLines(text, file, (i, lineText, syntax, blockAtLineStart) => {
    for (const base of bases.legacy) {
      for (let at = lineText.indexOf(base); at >= 0; at = lineText.indexOf(base, at + base.length)) {
        if (/[\w-]/.test(lineText.charAt(at + base.length)) || insideComment(lineText.slice(0, at), syntax, blockAtLineStart)) continue;
        const url = urlAt(lineText, at);
        out.push({
          ruleId: 'other-language',
          severity: RULES['other-language'].severity,
          line: i + 1,
          column: at + 1,
          message: `REST v1 URL ${url} in ${language} code, which v2-migrate does not read (it is neither rewritten nor followed; v1 was retired on 2026-11-15); ${hintFor(url, lineText.slice(at + url.length), bases)}. Migrate it by hand, or mark it (v2-migrate-keep-v1, v2-migrate-ignore).`,
          fixable: false,
        });
      }
    }
  });
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** The URL written from `at`: up to a quote, space or bracket that cannot be part of it, placeholders kept whole. */
function urlAt(lineText: string, at: number): string {
  let end = at;
  for (;;) {
    PLACEHOLDER.lastIndex = end;
    const p = PLACEHOLDER.exec(lineText);
    if (p && p.index === end && !/^<\/?[a-z]+>$/i.test(p[0])) end += p[0].length;
    else if (end < lineText.length && !/[\s"'`<>()[\]{}|\\,;]/.test(lineText[end]!)) end++;
    else break;
  }
  return lineText.slice(at, end).replace(/[.:!?]+$/, '');
}

/**
 * What v2 has for the URL, or, when the literal stops at a `/` and the code goes on building the path
 * (`"…/pods/" + id + "/stop"`), that its v2 form depends on the rest.
 */
function hintFor(url: string, after: string, bases: Bases): string {
  const shape = shapeOfWritten(url, bases);
  if (url.endsWith('/') && /^["'`]?\s*(\+|\.\.?|,|\))/.test(after)) {
    return `the path goes on past ${displayPath(shape)}/ where the code builds it, so its v2 form depends on the rest (the resource renames, /action and /update changes of v2 may apply)`;
  }
  return v2Hint(shape, bases.target);
}

/** The URL's shape, placeholders read as holes (each stands for any segment). */
function shapeOfWritten(url: string, bases: Bases): UrlShape {
  const pieces: Piece<null>[] = [];
  let at = 0;
  for (const m of url.matchAll(PLACEHOLDER)) {
    if (m.index > at) pieces.push({ kind: 'text', text: url.slice(at, m.index), origin: null });
    pieces.push({ kind: 'hole', label: m[0], origin: null });
    at = m.index + m[0].length;
  }
  if (at < url.length) pieces.push({ kind: 'text', text: url.slice(at), origin: null });
  return shapeOf(pieces, bases);
}
