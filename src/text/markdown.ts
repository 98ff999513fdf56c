/**
 * Markdown / MDX: fenced code blocks are scanned by their language (shell and console sessions,
 * Python and pycon, JS/TS through the JS engine, YAML, JSON, TOML, .env, HTTP, HCL, Dockerfile,
 * GraphQL); prose outside fences is never rewritten, only reported as `info`.
 */
import path from 'node:path';
import { migrateSource } from '../js/migrate.js';
import { templateOf } from '../url/plan.js';
import { displayPath } from '../url/shape.js';
import { fenceLanguage, type Language } from './language.js';
import { holePiece, planValue, shapeFor, type Collector, type TPiece } from './plan.js';
import { v2Form } from '../plan/messages.js';
import { isSchemaUrl } from '../url/plan.js';
import { maskOutside, overwrite } from './source.js';
import { pushTo } from '../util/multimap.js';
import { scanGraphql } from './fields.js';
import { scanShell, trimUrlToken } from './shell.js';
import { scanPython } from './python/scan.js';
import { scanYaml } from './yaml.js';
import { scanJson } from './json.js';
import { scanToml } from './toml.js';
import { scanEnv } from './env.js';
import { scanHttp } from './http.js';
import { scanHcl } from './hcl.js';
import { scanDockerfile } from './dockerfile.js';

export interface Fence {
  info: string;
  /** Offsets of the fence (opening line to closing line) and of its content. */
  start: number;
  end: number;
  contentStart: number;
  contentEnd: number;
  /** 1-based line of the first content line. */
  line: number;
}

export function fencesOf(text: string): Fence[] {
  const out: Fence[] = [];
  let open: { ch: string; len: number; info: string; start: number; contentStart: number; line: number } | null = null;
  let at = 0;
  let line = 1;
  while (at < text.length) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    const l = text.slice(at, nl).replace(/\r$/, '');
    if (!open) {
      const m = /^\s*(`{3,}|~{3,})(.*)$/.exec(l);
      if (m && !(m[1]![0] === '`' && m[2]!.includes('`'))) open = { ch: m[1]![0]!, len: m[1]!.length, info: m[2]!.trim(), start: at, contentStart: Math.min(nl + 1, text.length), line: line + 1 };
    } else {
      const m = /^\s*(`{3,}|~{3,})\s*$/.exec(l);
      if (m && m[1]![0] === open.ch && m[1]!.length >= open.len) {
        out.push({ info: open.info, start: open.start, end: nl, contentStart: open.contentStart, contentEnd: at, line: open.line });
        open = null;
      }
    }
    at = nl + 1;
    line++;
  }
  if (open) out.push({ info: open.info, start: open.start, end: text.length, contentStart: open.contentStart, contentEnd: text.length, line: open.line });
  return out;
}

/** Lines of a console / pycon session that are input: the prompt blanked, output lines dropped. */
function sessionRanges(text: string, f: Fence, prompt: RegExp, continuation: RegExp): { ranges: Array<[number, number]>; prompts: Array<[number, number]> } {
  const ranges: Array<[number, number]> = [];
  const prompts: Array<[number, number]> = [];
  let at = f.contentStart;
  let continuing = false;
  while (at < f.contentEnd) {
    let nl = text.indexOf('\n', at);
    if (nl < 0 || nl > f.contentEnd) nl = f.contentEnd;
    const l = text.slice(at, nl);
    const m = prompt.exec(l) ?? (continuing ? continuation.exec(l) ?? /^/.exec(l) : null);
    if (m) {
      prompts.push([at, at + m[0].length]);
      ranges.push([at, nl]);
      continuing = /\\\s*$/.test(l) || (prompt.source.includes('>>>') && /^\s*(>>>|\.\.\.)/.test(l));
    } else continuing = false;
    at = nl + 1;
  }
  return { ranges, prompts };
}

function masked(text: string, ranges: Array<[number, number]>, prompts: Array<[number, number]> = []): string {
  let out = maskOutside(text, ranges);
  for (const [s, e] of prompts) out = overwrite(out, s, ' '.repeat(e - s));
  return out;
}

const JS_EXT: Record<string, string> = { js: 'js', javascript: 'js', jsx: 'jsx', mjs: 'mjs', cjs: 'cjs', node: 'js', ts: 'ts', typescript: 'ts', tsx: 'tsx' };

export function scanMarkdown(c: Collector, text: string, file: string): void {
  const fences = fencesOf(text);
  const groups = new Map<Language, Array<[number, number]>>();
  const prompts: Array<[number, number]> = [];
  const add = (lang: Language, r: [number, number]): void => pushTo(groups, lang, r);
  for (const f of fences) {
    const lang = fenceLanguage(f.info);
    const range: [number, number] = [f.contentStart, f.contentEnd];
    const content = text.slice(f.contentStart, f.contentEnd);
    if (lang === 'console' || (lang === null && /^\s*\$\s+curl\s/m.test(content))) {
      const s = sessionRanges(text, f, /^\s*\$\s+/, /^\s*>\s?/);
      for (const r of s.ranges) add('shell', r);
      prompts.push(...s.prompts);
    } else if (lang === 'pycon') {
      const s = sessionRanges(text, f, /^\s*(>>>|\.\.\.) ?/, /^\s*\.\.\. ?/);
      for (const r of s.ranges) add('python', r);
      prompts.push(...s.prompts);
    } else if (lang === 'js') {
      scanJsFence(c, text, f, JS_EXT[f.info.trim().split(/[\s{,]/)[0]!.toLowerCase()] ?? 'js', file);
    } else if (lang === 'json') scanJson(c, text, f.contentStart, f.contentEnd);
    else if (lang === 'graphql') scanGraphql(c, text, f.contentStart, f.contentEnd);
    else if (lang) add(lang, range);
    else if (/^\s*curl\s/m.test(content)) add('shell', range);
    else if (/^\s*(GET|POST|PUT|PATCH|DELETE)\s+\S+:\/\//m.test(content)) add('http', range);
    else plainTokens(c, text, f.contentStart, f.contentEnd, false);
  }
  for (const [lang, ranges] of groups) {
    const m = masked(text, ranges, prompts.filter(([s]) => ranges.some(([a, b]) => s >= a && s < b)));
    switch (lang) {
      case 'shell':
        scanShell(c, m);
        break;
      case 'python':
        scanPython(c, m);
        break;
      case 'yaml':
        scanYaml(c, m);
        break;
      case 'toml':
        scanToml(c, m);
        break;
      case 'env':
        scanEnv(c, m);
        break;
      case 'http':
        scanHttp(c, m);
        break;
      case 'hcl':
        scanHcl(c, m);
        break;
      case 'dockerfile':
        scanDockerfile(c, m);
        break;
      default:
        plainTokens(c, m, 0, m.length, false);
    }
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
  const shape = shapeFor([piece], c.bases);
  let hint: string;
  if (isSchemaUrl(shape)) hint = `the v2 schema is ${c.bases.target}/openapi.json`;
  else if (!shape.segments.length) hint = `the v2 base is ${c.bases.target}`;
  else {
    const t = templateOf(shape);
    hint = t ? `in v2: ${t.operations.map((o) => `${o.method} ${t.v1Path} → ${v2Form(o)}`).join('; ')}` : `${displayPath(shape)} is not a documented REST v1 path`;
  }
  return `REST v1 URL ${url} in documentation prose (v1 was retired on 2026-11-15); ${hint}. Prose is not rewritten: update the text by hand.`;
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
  let accepted = !marked;
  if (result.output !== null && accepted) {
    const out = result.output;
    let p = 0;
    while (p < content.length && p < out.length && content[p] === out[p]) p++;
    let s = 0;
    while (s < content.length - p && s < out.length - p && content[content.length - 1 - s] === out[out.length - 1 - s]) s++;
    accepted = c.tryEdits([{ start: f.contentStart + p, end: f.contentStart + content.length - s, text: out.slice(p, out.length - s) }]);
  }
  for (const x of result.findings) {
    const fixable = x.fixable && accepted;
    c.findings.push({ ...x, line: x.line + f.line - 1, fixable });
  }
}
