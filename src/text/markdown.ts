/**
 * Markdown / MDX: fenced code blocks are scanned by their language (shell and console sessions,
 * Python and pycon, JS/TS through the JS engine, YAML, JSON, TOML, .env, HTTP, HCL, Dockerfile,
 * GraphQL); prose outside fences is never rewritten, only reported as `info`.
 */
import path from 'node:path';
import { migrateSource } from '../pipeline/js.js';
import { fenceLanguage, fenceName, type Language } from './language.js';
import { holePiece, planValue, shapeFor, type Collector, type TPiece } from './plan.js';
import { v2Hint } from '../plan/messages.js';
import { overwrite, type Edit } from './source.js';
import { maskOutside } from '../util/mask.js';
import { pushTo } from '../util/multimap.js';
import { scanGraphql } from './fields.js';
import { trimUrlToken } from './shell.js';
import { scanJson } from './json.js';
import { fencesOf, indentedCommands, type Fence } from './fences.js';

/** Lines of a console / pycon session that are input: the prompt blanked, output lines dropped. */
function sessionRanges(text: string, f: Fence, prompt: RegExp, continuation: RegExp): { ranges: Array<[number, number]>; prompts: Array<[number, number]> } {
  const ranges: Array<[number, number]> = [];
  const prompts: Array<[number, number]> = [];
  let continuing = false;
  for (const [at, end] of f.lines) {
    const l = text.slice(at, end);
    const m = prompt.exec(l) ?? (continuing ? continuation.exec(l) ?? /^/.exec(l) : null);
    if (m) {
      prompts.push([at, at + m[0].length]);
      ranges.push([at, end]);
      continuing = /\\\s*$/.test(l) || (prompt.source.includes('>>>') && /^\s*(>>>|\.\.\.)/.test(l));
    } else continuing = false;
  }
  return { ranges, prompts };
}

function masked(text: string, ranges: Array<[number, number]>, prompts: Array<[number, number]> = []): string {
  let out = maskOutside(text, ranges);
  for (const [s, e] of prompts) out = overwrite(out, s, ' '.repeat(e - s));
  return out;
}

const JS_EXT: Record<string, string> = { js: 'js', javascript: 'js', jsx: 'jsx', mjs: 'mjs', cjs: 'cjs', node: 'js', ts: 'ts', typescript: 'ts', tsx: 'tsx' };

/** Scans a text as one language of the table (text/index.ts scanLanguage): how the fences are read. */
export type ScanAs = (c: Collector, text: string, language: Language) => void;

export function scanMarkdown(c: Collector, text: string, file: string, scanAs: ScanAs): void {
  const fenced = fencesOf(text);
  const fences = [...fenced, ...indentedCommands(text, fenced)].sort((a, b) => a.start - b.start);
  const groups = new Map<Language, Array<[number, number]>>();
  /** YAML fences one by one: each is its own stream (indentation does not carry from one to the next). */
  const yamlFences: Array<Array<[number, number]>> = [];
  const prompts: Array<[number, number]> = [];
  const add = (lang: Language, ranges: Array<[number, number]>): void => {
    for (const r of ranges) pushTo(groups, lang, r);
  };
  for (const f of fences) {
    const lang = fenceLanguage(f.info);
    // A blockquoted fence is read with its `>` markers blanked: the code alone, at its own offsets.
    const code = f.quoted ? maskOutside(text, f.lines) : text;
    const content = code.slice(f.contentStart, f.contentEnd);
    if (lang === 'console' || (lang === null && /^\s*\$\s+curl\s/m.test(content))) {
      const s = sessionRanges(code, f, /^\s*\$\s+/, /^\s*>\s?/);
      add('shell', s.ranges);
      prompts.push(...s.prompts);
    } else if (lang === 'pycon') {
      const s = sessionRanges(code, f, /^\s*(>>>|\.\.\.) ?/, /^\s*\.\.\. ?/);
      add('python', s.ranges);
      prompts.push(...s.prompts);
    } else if (lang === 'js') {
      scanJsFence(c, code, f, JS_EXT[fenceName(f.info)] ?? 'js', file);
    } else if (lang === 'json') scanJson(c, code, f.contentStart, f.contentEnd);
    else if (lang === 'graphql') scanGraphql(c, code, f.contentStart, f.contentEnd);
    else if (lang === 'yaml') {
      add(lang, f.lines);
      yamlFences.push(f.lines);
    } else if (lang) add(lang, f.lines);
    else if (/^\s*curl\s/m.test(content)) add('shell', f.lines);
    else if (/^\s*(GET|POST|PUT|PATCH|DELETE)\s+\S+:\/\//m.test(content)) add('http', f.lines);
    else plainTokens(c, code, f.contentStart, f.contentEnd, false);
  }
  for (const [lang, ranges] of groups) {
    if (lang === 'yaml') {
      for (const lines of yamlFences) scanAs(c, masked(text, lines), 'yaml');
      continue;
    }
    const m = masked(text, ranges, prompts.filter(([s]) => ranges.some(([a, b]) => s >= a && s < b)));
    // A Markdown fence inside Markdown is text: its URLs are literals.
    if (lang === 'markdown') plainTokens(c, m, 0, m.length, false);
    else scanAs(c, m, lang);
  }
  // Prose: everything outside fences.
  let at = 0;
  for (const f of [...fences, { start: text.length, end: text.length }]) {
    plainTokens(c, text, at, f.start, true);
    at = f.end;
  }
}

/** URL tokens in text: in prose an `info` mention; in a fence of unknown language a literal. */
function plainTokens(c: Collector, text: string, from: number, to: number, prose: boolean): void {
  for (const legacy of c.bases.legacy) {
    for (let i = text.indexOf(legacy, from); i >= 0 && i < to; i = text.indexOf(legacy, i + legacy.length)) {
      const m = /^[^\s<>()[\]"'`*|]*/.exec(text.slice(i, Math.min(to, i + 2000)))!;
      const url = trimUrlToken(m[0]);
      const piece: TPiece = { kind: 'text', text: url, origin: { start: i, editable: true, literal: i, local: false } };
      if (prose) c.report('prose-url', i, proseMessage(c, url, piece));
      else planValue(c, [piece]);
    }
  }
}

function proseMessage(c: Collector, url: string, piece: TPiece): string {
  return `REST v1 URL ${url} in documentation prose (v1 was retired on 2026-11-15); ${v2Hint(shapeFor([piece], c.bases), c.bases.target)}. Prose is not rewritten: update the text by hand.`;
}

/** A JS/TS fence through the JS engine; findings move to the fence's lines, edits become one splice. */
function scanJsFence(c: Collector, text: string, f: Fence, ext: string, file: string): void {
  const content = text.slice(f.contentStart, f.contentEnd);
  if (!c.bases.legacy.some((b) => content.includes(b)) && !content.includes(new URL(c.bases.target).host)) return;
  let result: ReturnType<typeof migrateSource>;
  try {
    result = migrateSource(content, path.join(path.dirname(file), `snippet.${ext}`), { bases: c.bases });
  } catch {
    result = { output: null, findings: [{ ruleId: 'parse-error', severity: 'warning', line: 1, column: 1, message: '', fixable: false }] };
  }
  if (result.findings.some((x) => x.ruleId === 'parse-error' || x.ruleId === 'internal-error')) {
    // A snippet that does not parse (`...` placeholders): its quoted URLs are literals (`${…}` are holes).
    const re = /(["'`])((?:(?!\1)[^\\\n]|\\.)*)\1/g;
    for (let m = re.exec(content); m; m = re.exec(content)) {
      const body = m[2]!;
      if (!c.bases.legacy.some((b) => body.includes(b)) || body.includes('\\')) continue;
      const start = f.contentStart + m.index + 1;
      const literal = start - 1;
      const pieces: TPiece[] = [];
      let at = 0;
      const holes = m[1] === '`' ? /\$\{[^}]*\}/g : /$^/g;
      for (let h = holes.exec(body); h; h = holes.exec(body)) {
        if (h.index > at) pieces.push({ kind: 'text', text: body.slice(at, h.index), origin: { start: start + at, editable: true, literal, local: false } });
        pieces.push(holePiece(h[0].slice(2, -1), start + h.index));
        at = h.index + h[0].length;
      }
      if (at < body.length) pieces.push({ kind: 'text', text: body.slice(at), origin: { start: start + at, editable: true, literal, local: false } });
      planValue(c, pieces);
    }
    return;
  }
  // Markers in the Markdown file (an HTML comment before the fence) keep the whole snippet as it is.
  const marked = result.findings.some((x) => x.fixable && c.marked(c.lines.lineStart(x.line + f.line - 1) + x.column - 1, x.ruleId));
  const edits = result.output !== null && !marked ? fenceEdits(c.text, content, result.output, f) : null;
  const accepted = !marked && (result.output === null || (edits !== null && c.tryEdits(edits)));
  // The snippet's fixes are one splice of the fence: its fixable findings share it.
  c.adopt(
    result.findings.map(({ fix: _fix, ...x }) => ({ ...x, line: x.line + f.line - 1, fixable: x.fixable && accepted })),
    edits ?? [],
  );
}

/** The one splice that turns `before` (at `offset`) into `after`: their common start and end are kept. */
function splice(before: string, after: string, offset: number): Edit {
  let p = 0;
  while (p < before.length && p < after.length && before[p] === after[p]) p++;
  let s = 0;
  while (s < before.length - p && s < after.length - p && before[before.length - 1 - s] === after[after.length - 1 - s]) s++;
  return { start: offset + p, end: offset + before.length - s, text: after.slice(p, after.length - s) };
}

/**
 * The edit that writes a fence's migrated content. In a blockquote the content was read with its `>`
 * markers blanked: each line of the new text gets the marker back (a line the engine adds too), and an
 * edit that would reach into a marker is not written.
 */
function fenceEdits(text: string, content: string, out: string, f: Fence): Edit[] | null {
  const edit = splice(content, out, f.contentStart);
  if (!f.quoted) return [edit];
  const first = f.lines.find(([s, e]) => s < e) ?? f.lines[0];
  if (!first) return null;
  const marker = text.slice(text.lastIndexOf('\n', first[0] - 1) + 1, first[0]);
  const inCode = (at: number): boolean => f.lines.some(([s, e]) => at >= s && at <= e);
  if (!inCode(edit.start) || !inCode(edit.end)) return null;
  const lines = edit.text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const cr = lines[i]!.endsWith('\r') ? '\r' : '';
    const line = lines[i]!.slice(0, lines[i]!.length - cr.length);
    // A blank line keeps as much of the marker as it had (`>` or `> `); one the engine adds gets `>`.
    if (!line.trim()) lines[i] = (line ? marker.slice(0, line.length) + line.slice(marker.length) : marker.trimEnd()) + cr;
    else if (line.startsWith(' '.repeat(marker.length))) lines[i] = marker + line.slice(marker.length) + cr;
    else return null;
  }
  return [{ ...edit, text: lines.join('\n') }];
}
