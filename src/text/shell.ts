/**
 * Shell: a lexer for words (quotes, `$VAR`, `${VAR:-default}`, `$(…)`, backslash continuations,
 * heredocs, comments), simple commands and pipelines; `curl` requests with their method (`-X`,
 * implied by `-d`), body (`-d`/`--data…`/`--json`, `jq -n` filters) and URL resolved through the
 * file's variable assignments and defaults; `jq` reads of v1 list responses and fields.
 */
import type { HttpMethod } from '../map/operations.js';
import { holePiece, isCompleteUrl, planRequest, planValue, flatText, type Collector, type EditsOrReason, type TPiece, type TextOrigin } from './plan.js';
import { bodyOperation, checkBodyField, checkResponseField, kindOf, DISTINCTIVE_RESPONSE_FIELDS, isListOp, listEnvelope, mentionsGraphql, scanGraphql } from './fields.js';
import type { Edit } from './source.js';
import { pushTo } from '../util/multimap.js';

export type Part =
  | { kind: 'lit'; text: string; start: number; editable: boolean; literal: number }
  | { kind: 'var'; name: string; op: string; def: Part[] | null; start: number; end: number }
  | { kind: 'sub'; start: number; end: number; innerStart: number; innerEnd: number };

export interface Word {
  parts: Part[];
  start: number;
  end: number;
}

export interface Command {
  words: Word[];
  start: number;
  end: number;
  /** Index of the pipeline the command belongs to, and its position in it. */
  pipeline: number;
  stage: number;
  /** Offset range of the `$(…)` the command runs in, if any. */
  inSub: [number, number] | null;
}

type Tok = { kind: 'word'; word: Word } | { kind: 'op'; op: string; start: number; end: number };

const OP_CHARS = new Set(['|', '&', ';', '(', ')', '<', '>', '\n']);
const isSpace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r';
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*/;

/** Lex text[from, to) into words and operators. */
export function lex(text: string, from: number, to: number, bodies: Array<[number, number]> = []): Tok[] {
  const toks: Tok[] = [];
  let i = from;
  const heredocs: Array<{ delim: string; strip: boolean }> = [];
  while (i < to) {
    const ch = text[i]!;
    if (isSpace(ch)) {
      i++;
      continue;
    }
    if (ch === '\\' && (text[i + 1] === '\n' || (text[i + 1] === '\r' && text[i + 2] === '\n'))) {
      i += text[i + 1] === '\r' ? 3 : 2;
      continue;
    }
    if (ch === '#') {
      while (i < to && text[i] !== '\n') i++;
      continue;
    }
    if (ch === '\n') {
      toks.push({ kind: 'op', op: '\n', start: i, end: i + 1 });
      i++;
      // Heredoc bodies follow the line that opened them.
      for (const h of heredocs.splice(0)) {
        const bodyStart = i;
        let bodyEnd = to;
        while (i < to) {
          const lineStart = i;
          let e = text.indexOf('\n', i);
          if (e < 0 || e > to) e = to;
          const line = text.slice(i, e).replace(/\r$/, '');
          i = Math.min(e + 1, to);
          if ((h.strip ? line.replace(/^\t+/, '') : line) === h.delim) {
            bodyEnd = lineStart;
            break;
          }
        }
        bodies.push([bodyStart, bodyEnd]);
      }
      continue;
    }
    if (OP_CHARS.has(ch)) {
      if (text.startsWith('<<', i) && !text.startsWith('<<<', i)) {
        let j = i + 2;
        const strip = text[j] === '-';
        if (strip) j++;
        while (isSpace(text[j] ?? '')) j++;
        const m = /^(['"]?)([A-Za-z0-9_.-]+)\1/.exec(text.slice(j, to));
        if (m) {
          heredocs.push({ delim: m[2]!, strip });
          toks.push({ kind: 'op', op: '<<', start: i, end: j + m[0].length });
          i = j + m[0].length;
          continue;
        }
      }
      const two = text.slice(i, i + 2);
      const op = ['||', '&&', ';;', '|&', '>>', '&>', '<<<'].includes(text.slice(i, i + 3)) ? text.slice(i, i + 3) : ['||', '&&', ';;', '|&', '>>', '&>', '>&', '<&'].includes(two) ? two : ch;
      toks.push({ kind: 'op', op, start: i, end: i + op.length });
      i += op.length;
      continue;
    }
    const { word, end } = lexWord(text, i, to, false);
    toks.push({ kind: 'word', word });
    i = end;
  }
  return toks;
}

/** Lex one word from `i`; `inBrace` stops at an unquoted `}` (a `${…}` default). */
function lexWord(text: string, start: number, to: number, inBrace: boolean): { word: Word; end: number } {
  const parts: Part[] = [];
  let i = start;
  let run = i;
  // Unquoted runs of one word are one literal: a URL split by `$VAR` is still written in one place.
  const flush = (end: number): void => {
    if (end > run) parts.push({ kind: 'lit', text: text.slice(run, end), start: run, editable: true, literal: start });
  };
  while (i < to) {
    const ch = text[i]!;
    if (!inBrace && (isSpace(ch) || OP_CHARS.has(ch))) break;
    if (inBrace && ch === '}') break;
    if (ch === '\\') {
      flush(i);
      if (text[i + 1] === '\n') {
        i += 2;
      } else {
        parts.push({ kind: 'lit', text: text[i + 1] ?? '', start: i, editable: false, literal: i });
        i += 2;
      }
      run = i;
      continue;
    }
    if (ch === "'") {
      flush(i);
      const close = text.indexOf("'", i + 1);
      const end = close < 0 || close > to ? to : close;
      parts.push({ kind: 'lit', text: text.slice(i + 1, end), start: i + 1, editable: true, literal: i });
      i = Math.min(end + 1, to);
      run = i;
      continue;
    }
    if (ch === '$' && text[i + 1] === "'") {
      flush(i);
      let j = i + 2;
      while (j < to && text[j] !== "'") j += text[j] === '\\' ? 2 : 1;
      parts.push({ kind: 'lit', text: text.slice(i + 2, j), start: i + 2, editable: false, literal: i });
      i = Math.min(j + 1, to);
      run = i;
      continue;
    }
    if (ch === '"') {
      flush(i);
      i = lexDouble(text, i, to, parts);
      run = i;
      continue;
    }
    if (ch === '$' || ch === '`') {
      flush(i);
      const r = lexDollar(text, i, to, parts);
      if (r === i) {
        i++;
        continue;
      }
      i = r;
      run = i;
      continue;
    }
    i++;
  }
  flush(i);
  return { word: { parts, start, end: i }, end: i };
}

function lexDouble(text: string, open: number, to: number, parts: Part[]): number {
  let i = open + 1;
  let run = i;
  const flush = (end: number): void => {
    if (end > run) parts.push({ kind: 'lit', text: text.slice(run, end), start: run, editable: true, literal: open });
  };
  while (i < to) {
    const ch = text[i]!;
    if (ch === '"') {
      flush(i);
      return i + 1;
    }
    if (ch === '\\' && '$`"\\\n'.includes(text[i + 1] ?? '')) {
      flush(i);
      if (text[i + 1] !== '\n') parts.push({ kind: 'lit', text: text[i + 1]!, start: i, editable: false, literal: open });
      i += 2;
      run = i;
      continue;
    }
    if (ch === '$' || ch === '`') {
      flush(i);
      const r = lexDollar(text, i, to, parts);
      if (r === i) {
        i++;
        run = i - 1;
        continue;
      }
      i = r;
      run = i;
      continue;
    }
    i++;
  }
  flush(i);
  return i;
}

/** `$NAME`, `${…}`, `$(…)`, `$((…))`, `` `…` ``: pushes a part and returns the offset after it (or `i` if none). */
function lexDollar(text: string, i: number, to: number, parts: Part[]): number {
  if (text[i] === '`') {
    let j = i + 1;
    while (j < to && text[j] !== '`') j += text[j] === '\\' ? 2 : 1;
    parts.push({ kind: 'sub', start: i, end: Math.min(j + 1, to), innerStart: i + 1, innerEnd: Math.min(j, to) });
    return Math.min(j + 1, to);
  }
  const next = text[i + 1];
  if (next === '(') {
    const close = matchParen(text, i + 1, to);
    parts.push({ kind: 'sub', start: i, end: close + 1, innerStart: i + 2, innerEnd: close });
    return Math.min(close + 1, to);
  }
  if (next === '{' && text[i + 2] === '{') {
    // GitHub Actions expressions inside `run:` scripts: `${{ env.API }}` reads the workflow's env.
    const gm = /^\$\{\{\s*(?:(env|vars|secrets|inputs|github|steps|matrix|needs)\.)?([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/.exec(text.slice(i, Math.min(to, i + 200)));
    if (!gm) return i;
    parts.push({ kind: 'var', name: gm[1] === 'env' || !gm[1] ? gm[2]! : `${gm[1]}.${gm[2]}`, op: '', def: null, start: i, end: i + gm[0].length });
    return i + gm[0].length;
  }
  if (next === '{') {
    const m = /^(#?)([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(text.slice(i + 2, to));
    if (!m) return i;
    const name = m[2]!;
    let j = i + 2 + m[0].length;
    const opm = /^(:-|:=|:\?|:\+|-|=|\?|\+|%%|%|##|#|\/\/|\/|\^\^|\^|,,|,|:)?/.exec(text.slice(j, to))!;
    const op = m[1] ? '#' : opm[0];
    j += opm[0].length;
    let def: Part[] | null = null;
    if (op === ':-' || op === '-' || op === ':=' || op === '=') {
      const { word, end } = lexWord(text, j, to, true);
      def = word.parts;
      j = end;
    } else {
      // Skip to the matching brace.
      let depth = 0;
      while (j < to) {
        if (text[j] === '{') depth++;
        else if (text[j] === '}') {
          if (depth === 0) break;
          depth--;
        }
        j++;
      }
    }
    const end = text[j] === '}' ? j + 1 : j;
    parts.push({ kind: 'var', name, op, def, start: i, end });
    return end;
  }
  const m = NAME_RE.exec(text.slice(i + 1, Math.min(to, i + 200))) ?? /^[0-9@*#?$!-]/.exec(text.slice(i + 1, i + 2));
  if (!m) return i;
  parts.push({ kind: 'var', name: m[0], op: '', def: null, start: i, end: i + 1 + m[0].length });
  return i + 1 + m[0].length;
}

function matchParen(text: string, open: number, to: number): number {
  let depth = 0;
  let i = open;
  while (i < to) {
    const ch = text[i]!;
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (ch === "'") {
      const c = text.indexOf("'", i + 1);
      i = c < 0 ? to : c + 1;
      continue;
    }
    if (ch === '"') {
      i++;
      while (i < to && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')') {
      depth--;
      if (depth === 0) return i;
    }
    i++;
  }
  return to;
}

/** Simple commands (words between operators), including those inside `$(…)`. */
export function commands(text: string, from: number, to: number, inSub: [number, number] | null = null, counter = { pipeline: 0 }, bodies: Array<[number, number]> = []): Command[] {
  const toks = lex(text, from, to, bodies);
  const out: Command[] = [];
  let words: Word[] = [];
  let stage = 0;
  let pipeline = counter.pipeline++;
  let redirectNext = false;
  const end = (): void => {
    if (words.length) out.push({ words, start: words[0]!.start, end: words[words.length - 1]!.end, pipeline, stage, inSub });
    words = [];
  };
  for (const t of toks) {
    if (t.kind === 'op') {
      if (['<', '>', '>>', '&>', '>&', '<&', '<<<'].includes(t.op)) {
        redirectNext = t.op !== '<<<';
        if (t.op === '<<<') redirectNext = false;
        continue;
      }
      if (t.op === '<<') continue;
      end();
      if (t.op === '|' || t.op === '|&') stage++;
      else {
        stage = 0;
        pipeline = counter.pipeline++;
      }
      continue;
    }
    if (redirectNext) {
      redirectNext = false;
      continue;
    }
    words.push(t.word);
    for (const p of t.word.parts) {
      if (p.kind === 'sub') out.push(...commands(text, p.innerStart, p.innerEnd, [p.start, p.end], counter, bodies));
      if (p.kind === 'var' && p.def) for (const d of p.def) if (d.kind === 'sub') out.push(...commands(text, d.innerStart, d.innerEnd, [d.start, d.end], counter, bodies));
    }
  }
  end();
  return out;
}

/** The literal text of a word when it has no expansions (quotes removed). */
export function literalOf(word: Word): string | null {
  if (word.parts.some((p) => p.kind !== 'lit')) return null;
  return word.parts.map((p) => (p as { text: string }).text).join('');
}

interface Definition {
  /** End of the assignment word (uses after it see this value) and its start. */
  at: number;
  from: number;
  parts: Part[];
}

const WRAPPERS = new Set(['sudo', 'time', 'command', 'exec', 'nohup', 'env', 'xargs', 'watch']);
const DECLARERS = new Set(['export', 'local', 'readonly', 'declare', 'typeset']);

function assignmentOf(word: Word): { name: string; value: Part[] } | null {
  const first = word.parts[0];
  if (first?.kind !== 'lit' || first.literal !== first.start) return null;
  const m = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(first.text);
  if (!m) return null;
  const rest = first.text.slice(m[0].length);
  const literal = first.start + m[0].length;
  const value: Part[] = rest ? [{ ...first, text: rest, start: literal, literal }] : [];
  const others = word.parts.slice(1).map((p) => (p.kind === 'lit' && p.literal === first.literal ? { ...p, literal } : p));
  return { name: m[1]!, value: [...value, ...others] };
}

/** The command's program word index, after prefix assignments and wrappers (`sudo`, `env X=1`). */
function programIndex(cmd: Command): number {
  let i = 0;
  while (i < cmd.words.length) {
    const w = cmd.words[i]!;
    if (assignmentOf(w)) {
      i++;
      continue;
    }
    const lit = literalOf(w);
    if (lit && WRAPPERS.has(lit)) {
      i++;
      while (i < cmd.words.length && literalOf(cmd.words[i]!)?.startsWith('-')) i++;
      continue;
    }
    return i;
  }
  return -1;
}

export class ShellScope {
  readonly defs = new Map<string, Definition[]>();
  constructor(seeds?: ReadonlyMap<string, TPiece[]>) {
    this.seeds = seeds ?? new Map();
  }
  private readonly seeds: ReadonlyMap<string, TPiece[]>;

  define(name: string, at: number, parts: Part[], from = at): void {
    pushTo(this.defs, name, { at, from, parts });
  }

  /** Variable references read while building a request's URL (offsets of the `$` parts), when recording. */
  recorder: Set<number> | null = null;

  /** Pieces of a word, variables expanded where the file (or a default) says what they hold. */
  pieces(parts: readonly Part[], at: number, depth = 0): TPiece[] {
    const out: TPiece[] = [];
    for (const p of parts) {
      if (p.kind === 'lit') out.push({ kind: 'text', text: p.text, origin: { start: p.start, editable: p.editable, literal: p.literal, local: false } });
      else if (p.kind === 'sub') out.push(holePiece('$(…)', p.start));
      else out.push(...this.variable(p, at, depth));
    }
    return out;
  }

  variable(p: Part & { kind: 'var' }, at: number, depth: number): TPiece[] {
    this.recorder?.add(p.start);
    const label = p.op ? `\${${p.name}${p.op}…}` : `$${p.name}`;
    if (depth > 8) return [holePiece(label, p.start)];
    const defs = this.defs.get(p.name) ?? [];
    const before = defs.filter((d) => d.at <= p.start);
    const usable = p.op === '' || !!p.def;
    if (usable && before.length) return this.pieces(before[before.length - 1]!.parts, before[before.length - 1]!.at, depth + 1);
    if (p.op === '' && defs.length) return this.pieces(defs[defs.length - 1]!.parts, defs[defs.length - 1]!.at, depth + 1);
    const seed = this.seeds.get(p.name);
    if (seed && (p.op === '' || p.def)) return seed;
    if (p.def && (p.op === ':-' || p.op === '-' || p.op === ':=' || p.op === '=')) {
      return this.pieces(p.def, at, depth + 1).map((x) => (x.kind === 'text' ? { ...x, origin: { ...x.origin, envVar: x.origin.envVar ?? p.name } as TextOrigin } : x));
    }
    return [holePiece(label, p.start)];
  }
}

const HTTP = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** curl options that take a value (short letters and long names). */
const SHORT_ARG = new Set('HdXouAebcFwmxETKrzYyCDPQU'.split(''));
const LONG_ARG = new Set([
  'header', 'data', 'data-raw', 'data-binary', 'data-ascii', 'data-urlencode', 'json', 'request', 'output', 'user', 'user-agent', 'referer', 'cookie',
  'cookie-jar', 'form', 'form-string', 'write-out', 'max-time', 'connect-timeout', 'retry', 'retry-delay', 'retry-max-time', 'proxy', 'cacert', 'capath',
  'cert', 'key', 'upload-file', 'config', 'resolve', 'oauth2-bearer', 'range', 'time-cond', 'url', 'limit-rate', 'max-filesize', 'continue-at',
  'interface', 'dns-servers', 'aws-sigv4', 'variable', 'expand-data', 'expand-url', 'url-query', 'trace', 'trace-ascii', 'stderr', 'output-dir',
  'cert-type', 'key-type', 'pass', 'proto', 'proto-redir', 'noproxy', 'local-port', 'max-redirs', 'socks5', 'unix-socket', 'dump-header', 'netrc-file',
  'proxy-user', 'ciphers', 'tls-max', 'header-file', 'etag-save', 'etag-compare', 'quote', 'mail-from', 'mail-rcpt', 'preproxy',
]);
const DATA_SHORT = new Set(['d', 'F', 'T']);
const DATA_LONG = new Set(['data', 'data-raw', 'data-binary', 'data-ascii', 'data-urlencode', 'json', 'form', 'form-string', 'upload-file']);

interface Curl {
  cmd: Command;
  curlWord: Word;
  url: Word | null;
  /** The `-X` value word (its text when literal), and whether it was attached (`-XPOST`). */
  methodWord: Word | null;
  method: HttpMethod | undefined;
  explicitMethod: boolean;
  data: Word[];
  get: boolean;
  jsonOpt: boolean;
  headers: string[];
}

function parseCurl(cmd: Command, at: number): Curl {
  const words = cmd.words;
  const c: Curl = { cmd, curlWord: words[at]!, url: null, methodWord: null, method: undefined, explicitMethod: false, data: [], get: false, jsonOpt: false, headers: [] };
  let head = false;
  let methodText: string | null = null;
  let methodSet = false;
  for (let i = at + 1; i < words.length; i++) {
    const w = words[i]!;
    const lit = literalOf(w);
    const first = w.parts[0];
    const rawStart = first?.kind === 'lit' && first.literal === first.start ? first.text : '';
    if (lit === '--') {
      if (!c.url && words[i + 1]) c.url = words[i + 1]!;
      break;
    }
    if (rawStart.startsWith('--')) {
      const eq = rawStart.indexOf('=');
      const name = rawStart.slice(2, eq < 0 ? undefined : eq);
      let value: Word | null = null;
      if (LONG_ARG.has(name)) {
        if (eq >= 0) value = sliceWord(w, 2 + name.length + 1);
        else value = words[++i] ?? null;
      }
      if (name === 'request' && value) {
        c.methodWord = value;
        methodText = literalOf(value);
        methodSet = true;
      } else if (DATA_LONG.has(name) && value) {
        c.data.push(value);
        if (name === 'json') c.jsonOpt = true;
      } else if (name === 'header' && value) c.headers.push(literalOf(value) ?? '');
      else if (name === 'url' && value) c.url ??= value;
      else if (name === 'get') c.get = true;
      else if (name === 'head') head = true;
      continue;
    }
    if (rawStart.startsWith('-') && rawStart.length > 1) {
      for (let k = 1; k < rawStart.length; k++) {
        const ch = rawStart[k]!;
        if (ch === 'G') c.get = true;
        if (ch === 'I') head = true;
        if (!SHORT_ARG.has(ch)) continue;
        let value: Word | null;
        const attached = k + 1 < rawStart.length || w.parts.length > 1;
        if (attached) value = sliceWord(w, k + 1);
        else value = words[++i] ?? null;
        if (ch === 'X' && value) {
          c.methodWord = value;
          methodText = literalOf(value);
          methodSet = true;
        } else if (DATA_SHORT.has(ch) && value) c.data.push(value);
        else if (ch === 'H' && value) c.headers.push(literalOf(value) ?? '');
        break;
      }
      continue;
    }
    if (!c.url) c.url = w;
  }
  if (methodSet) {
    const m = methodText?.toUpperCase();
    c.method = m && HTTP.has(m) ? (m as HttpMethod) : undefined;
    c.explicitMethod = true;
  } else if (head) c.method = undefined;
  else c.method = c.data.length && !c.get ? 'POST' : 'GET';
  return c;
}

/** The word from character `n` of its first literal part on (`-XPOST` → `POST`). */
function sliceWord(w: Word, n: number): Word {
  const first = w.parts[0]!;
  if (first.kind !== 'lit') return w;
  const rest = first.text.slice(n);
  const parts: Part[] = rest ? [{ ...first, text: rest, start: first.start + n, literal: first.start + n }] : [];
  return { parts: [...parts, ...w.parts.slice(1)], start: first.start + n, end: w.end };
}

export interface ShellOptions {
  /** Variables known from outside the shell text (Dockerfile ENV, workflow `env:`). */
  seeds?: ReadonlyMap<string, TPiece[]>;
  /** Scan GraphQL operations in the text (off when an enclosing engine already does). */
  graphql?: boolean;
  /**
   * Whether text with quotes and `: ` may be inserted at an offset (not inside a YAML plain scalar or a
   * JSON string, where it would need escaping). Default: everywhere.
   */
  canInsert?: (at: number) => boolean;
}

export function scanShell(c: Collector, text: string, opts: ShellOptions = {}): void {
  const heredocs: Array<[number, number]> = [];
  const cmds = commands(text, 0, text.length, null, { pipeline: 0 }, heredocs);
  const scope = new ShellScope(opts.seeds);
  // Variable definitions: `X=…`, `export X=…`, and assignments in front of a command.
  for (const cmd of cmds) {
    let i = 0;
    const first = literalOf(cmd.words[0]!);
    if (first && DECLARERS.has(first)) i = 1;
    for (; i < cmd.words.length; i++) {
      const w = cmd.words[i]!;
      const lit = literalOf(w);
      if (lit?.startsWith('-') && i > 0) continue;
      const as = assignmentOf(w);
      if (!as) break;
      scope.define(as.name, w.end, as.value, w.start);
    }
  }
  const subAssign = new Map<string, string>(); // `$(…)` start → the variable it is assigned to
  for (const [name, defs] of scope.defs) for (const d of defs) for (const p of d.parts) if (p.kind === 'sub') subAssign.set(`${p.start}`, name);
  const curls: Array<{ curl: Curl; outcome: ReturnType<typeof planRequest> | null }> = [];
  const covered = new Set<number>();
  for (const cmd of cmds) {
    const at = programIndex(cmd);
    if (at < 0 || literalOf(cmd.words[at]!) !== 'curl') continue;
    const curl = parseCurl(cmd, at);
    if (!curl.url) continue;
    const reads = new Set<number>();
    scope.recorder = reads;
    const url = scope.pieces(curl.url.parts, curl.url.start).map((p) => (p.kind === 'text' && p.origin.start >= cmd.start && p.origin.start < cmd.end ? { ...p, origin: { ...p.origin, local: true } } : p));
    scope.recorder = null;
    // `curl -G -d desiredStatus=RUNNING …`: the data are query parameters.
    const query = curl.get
      ? curl.data.flatMap((d) => {
          const p = d.parts[0];
          const m = p?.kind === 'lit' ? /^([A-Za-z][A-Za-z0-9_]*)=/.exec(p.text) : null;
          return m && p?.kind === 'lit' ? [{ name: m[1]!, at: p.start, editable: p.editable }] : [];
        })
      : [];
    const outcome = planRequest(c, {
      url,
      query,
      anchor: curl.curlWord.start,
      method: curl.method,
      setMethod: (to) => curlSetMethod(curl, to),
      setJsonBody: (body) => (opts.canInsert && !opts.canInsert(curl.cmd.end) ? 'a body cannot be added inside this quoted or plain value; add it by hand' : curlSetBody(curl, body)),
    });
    curls.push({ curl, outcome });
    if (outcome.shape.base === 'legacy' || outcome.shape.base === 'target') for (const r of reads) covered.add(r);
    if (outcome.op && !curl.get) curlBody(c, cmds, scope, curl, outcome);
  }
  literalPass(c, cmds, scope, covered);
  // Heredoc bodies (a config file written by `cat > … <<EOF`, a script fed to a shell): each URL as written.
  for (const [s, e] of heredocs) urlTokens(c, text, s, e);
  holdUncoveredBases(c, cmds, scope, covered, opts.seeds);
  // jq reads of list responses: in the same pipeline, or through `VAR=$(curl …)`.
  for (const { curl, outcome } of curls) {
    if (!outcome || !isListOp(outcome.op) || (outcome.shape.base !== 'legacy' && outcome.shape.base !== 'target')) continue;
    const jqs: Word[] = [];
    for (const cmd of cmds) {
      if (cmd.pipeline === curl.cmd.pipeline && cmd.stage > curl.cmd.stage) jqs.push(...jqFilters(cmd));
    }
    const assigned = curl.cmd.inSub ? subAssign.get(`${curl.cmd.inSub[0]}`) : undefined;
    if (assigned) {
      for (const cmd of cmds) {
        if (cmd.stage !== 0 || cmd.start <= curl.cmd.end) continue;
        if (!cmd.words.some((w) => w.parts.some((p) => p.kind === 'var' && p.name === assigned))) continue;
        for (const next of cmds) if (next.pipeline === cmd.pipeline && next.stage > 0) jqs.push(...jqFilters(next));
      }
    }
    for (const f of jqs) {
      const filter = literalOf(f);
      if (filter === null) continue;
      if (/^\s*(\.\[\s*-?\d*\s*\]|length\b|map\(|first\b|last\b|sort_by\(|\.\[\]\s*\|)/.test(filter) && !new RegExp(`\\.${outcome.op.resource}\\b`).test(filter)) {
        const env = listEnvelope(outcome.op, `jq '${filter}'`);
        if (env) c.report(env.rule, f.start, env.message);
      }
    }
  }
  if (c.talksRest) {
    const re = new RegExp(`\\.(${DISTINCTIVE_RESPONSE_FIELDS.join('|')})\\b`, 'g');
    for (const cmd of cmds) {
      for (const f of jqFilters(cmd)) {
        for (const p of f.parts) {
          if (p.kind !== 'lit' || !p.editable) continue;
          re.lastIndex = 0;
          for (let m = re.exec(p.text); m; m = re.exec(p.text)) checkResponseField(c, m[1]!, p.start + m.index + 1);
        }
      }
    }
  }
  if (opts.graphql !== false && mentionsGraphql(text)) scanGraphql(c, text, 0, text.length);
}

/** The filter words of a `jq` command. */
function jqFilters(cmd: Command): Word[] {
  const at = programIndex(cmd);
  if (at < 0 || literalOf(cmd.words[at]!) !== 'jq') return [];
  const takesValue = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile', '--args', '--jsonargs', '--indent', '-L', '--tab']);
  for (let i = at + 1; i < cmd.words.length; i++) {
    const lit = literalOf(cmd.words[i]!);
    if (lit === '--arg' || lit === '--argjson' || lit === '--slurpfile' || lit === '--rawfile') {
      i += 2;
      continue;
    }
    if (lit && takesValue.has(lit)) {
      i++;
      continue;
    }
    if (lit?.startsWith('-') && lit.length > 1) continue;
    return [cmd.words[i]!];
  }
  return [];
}

function curlSetMethod(curl: Curl, to: HttpMethod): EditsOrReason {
  const w = curl.methodWord;
  if (!w) {
    if (!curl.data.length) return 'the request method is not visible here';
    // Method implied by -d: say it explicitly.
    return [{ start: curl.curlWord.end, end: curl.curlWord.end, text: ` -X ${to}` }];
  }
  if (w.parts.length !== 1 || w.parts[0]!.kind !== 'lit' || !w.parts[0].editable) return 'its method is not a literal the tool can see';
  const p = w.parts[0];
  const replacement = p.text === p.text.toLowerCase() ? to.toLowerCase() : to;
  return [{ start: p.start, end: p.start + p.text.length, text: replacement }];
}

function curlSetBody(curl: Curl, body: Readonly<Record<string, string>>): EditsOrReason {
  if (!curl.explicitMethod || !curl.methodWord) return 'the request method is not written as -X POST';
  if (!curl.url) return 'the URL is not visible';
  const hasType = curl.headers.some((h) => /^\s*content-type\s*:/i.test(h));
  const json = JSON.stringify(body);
  if (curl.data.length) {
    // An empty JSON body written in place (`-d '{}'`) is replaced.
    const d = curl.data[0]!;
    const p = d.parts[0];
    if (curl.data.length !== 1 || curl.jsonOpt || d.parts.length !== 1 || p?.kind !== 'lit' || !p.editable || !/^\s*\{\s*\}\s*$/.test(p.text)) return 'the command already sends a body';
    const edits = [{ start: p.start, end: p.start + p.text.length, text: json }];
    return hasType ? edits : [...edits, { start: curl.cmd.end, end: curl.cmd.end, text: " -H 'Content-Type: application/json'" }];
  }
  // At the end of the command, so the options read in order.
  const at = curl.cmd.end;
  return [{ start: at, end: at, text: `${hasType ? '' : " -H 'Content-Type: application/json'"} -d '${json}'` }];
}

/** v1 fields in a curl body: a literal JSON `-d`, or a `jq -n` filter that builds it. */
function curlBody(c: Collector, cmds: readonly Command[], scope: ShellScope, curl: Curl, outcome: ReturnType<typeof planRequest>): void {
  const op = bodyOperation(outcome.op);
  if (!op) return;
  for (const d of curl.data) {
    const pieces = scope.pieces(d.parts, d.start);
    const flat = flatText(pieces);
    if (!flat.includes('\u0000')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(flat);
      } catch {
        parsed = null;
      }
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
          const at = keyOffset(pieces, key) ?? d.start;
          checkBodyField(c, key, at, op, { several: Array.isArray(value) && value.length > 1, value: kindOf(value), onV2: outcome.shape.base === 'target' });
        }
      }
    }
    // `-d "$(jq -n …)"` or `-d "$BODY"` with `BODY=$(jq -n …)`.
    const ranges: Array<[number, number]> = [];
    const collect = (parts: readonly Part[], depth: number): void => {
      for (const p of parts) {
        if (p.kind === 'sub') ranges.push([p.start, p.end]);
        if (p.kind === 'var' && depth < 4) for (const def of scope.defs.get(p.name) ?? []) collect(def.parts, depth + 1);
      }
    };
    collect(d.parts, 0);
    for (const cmd of cmds) {
      if (!cmd.inSub || !ranges.some(([s, e]) => cmd.start >= s && cmd.end <= e)) continue;
      for (const f of jqFilters(cmd)) {
        for (const p of f.parts) {
          if (p.kind !== 'lit' || !p.editable) continue;
          const re = /(?:^|[{,\s])"?([A-Za-z][A-Za-z0-9]*)"?\s*:/g;
          for (let m = re.exec(p.text); m; m = re.exec(p.text)) {
            const key = m[1]!;
            checkBodyField(c, key, p.start + m.index + m[0].indexOf(key), op, { onV2: outcome.shape.base === 'target' });
          }
        }
      }
    }
  }
}

function keyOffset(pieces: readonly TPiece[], key: string): number | null {
  for (const p of pieces) {
    if (p.kind !== 'text' || !p.origin.editable) continue;
    const i = p.text.indexOf(`"${key}"`);
    if (i >= 0) return p.origin.start + i + 1;
  }
  return null;
}

/** v1 URLs in words no curl used: assignments, other commands' arguments, messages. */
function literalPass(c: Collector, cmds: readonly Command[], scope: ShellScope, covered: Set<number>): void {
  const seen = new Set<number>();
  const visit = (parts: readonly Part[], at: number, anchor: number, own: readonly [number, number], handedOver = false): void => {
    const lits = parts.filter((p): p is Part & { kind: 'lit' } => p.kind === 'lit');
    // A word made only of variables is planned where the variables are assigned.
    if (!lits.some((p) => p.text.length) || lits.every((p) => c.consumed.has(p.literal))) return;
    const reads = new Set<number>();
    scope.recorder = reads;
    const pieces = scope.pieces(parts, at);
    scope.recorder = null;
    if (!c.bases.legacy.some((b) => flatText(pieces).includes(b))) return;
    planValue(c, pieces, { anchor, own });
    // A URL this run plans as a whole (`wget "$API/endpoints"`) is a use that moves with its base.
    for (const r of reads) covered.add(r);
    // A bare base handed to another program (`tool --api https://…/v1`): it appends paths the tool cannot see.
    if (handedOver && !isCompleteUrl(pieces, c.bases)) {
      for (const p of lits) if (c.bases.legacy.some((b) => p.text.includes(b))) c.hold(p.literal, c.lines.pos(p.start).line);
    }
  };
  for (const cmd of cmds) {
    for (const w of cmd.words) {
      if (seen.has(w.start)) continue;
      seen.add(w.start);
      const as = assignmentOf(w);
      if (as) {
        visitDefaults(as.value);
        visit(as.value, w.end, as.value[0]?.kind === 'lit' ? (as.value[0] as { literal: number }).literal : w.start, [w.start, w.end]);
      } else {
        visitDefaults(w.parts);
        const prog = programIndex(cmd);
        const printer = prog >= 0 && PRINTERS.has(literalOf(cmd.words[prog]!) ?? '');
        visit(w.parts, w.start, w.start, [w.start, w.end], !printer);
      }
    }
  }
  function visitDefaults(parts: readonly Part[]): void {
    for (const p of parts) {
      if (p.kind === 'var' && p.def && !scope.defs.get(p.name)?.length) {
        const lits = p.def.filter((d): d is Part & { kind: 'lit' } => d.kind === 'lit');
        if (!lits.length || lits.every((d) => c.consumed.has(d.literal))) continue;
        if (!lits.some((d) => c.bases.legacy.some((b) => d.text.includes(b)))) continue;
        const pieces = scope.variable(p, p.start, 0);
        planValue(c, pieces, { anchor: lits[0]!.literal });
      }
    }
  }
}

/** A URL token as found in running text, without trailing punctuation or an unbalanced closing brace. */
export function trimUrlToken(token: string): string {
  let url = token;
  for (;;) {
    const before = url;
    url = url.replace(/[.,;:!?]+$/, '');
    if (url.endsWith('}') && (url.match(/\}/g) ?? []).length > (url.match(/\{/g) ?? []).length) url = url.slice(0, -1);
    if (url === before) return url;
  }
}

/** Every v1 URL token in text[from, to), planned as a literal on its own. */
export function urlTokens(c: Collector, text: string, from: number, to: number): void {
  for (const legacy of c.bases.legacy) {
    for (let i = text.indexOf(legacy, from); i >= 0 && i < to; i = text.indexOf(legacy, i + legacy.length)) {
      const m = /^[^\s<>()[\]"'`*|\\]*/.exec(text.slice(i, Math.min(to, i + 2000)))!;
      const url = trimUrlToken(m[0]);
      planValue(c, [{ kind: 'text', text: url, origin: { start: i, editable: true, literal: i, local: false } }]);
    }
  }
}

/** Commands that only print: a base they print is not a request sent to it. */
const PRINTERS = new Set(['echo', 'printf', 'log', 'info', 'warn', 'debug', 'notice']);

/**
 * Bases move with their paths (as in the JS engine): a v1 value assigned to a variable stays v1 when
 * some `$VAR` read of it is not part of a request this run migrates (`tool --api "$API"`, a function of
 * another script). Reads inside another assignment count through that variable's own reads; reads by
 * commands that only print do not count.
 */
function holdUncoveredBases(c: Collector, cmds: readonly Command[], scope: ShellScope, covered: ReadonlySet<number>, seeds: ReadonlyMap<string, TPiece[]> | undefined): void {
  const refs: Array<{ name: string; start: number; printed: boolean }> = [];
  const walk = (parts: readonly Part[], printed: boolean): void => {
    for (const p of parts) {
      if (p.kind !== 'var') continue;
      refs.push({ name: p.name, start: p.start, printed });
      if (p.def) walk(p.def, printed);
    }
  };
  for (const cmd of cmds) {
    const at = programIndex(cmd);
    const printed = at >= 0 && PRINTERS.has(literalOf(cmd.words[at]!) ?? '');
    for (const w of cmd.words) walk(w.parts, printed);
  }
  const defRanges: Array<{ name: string; from: number; to: number }> = [];
  for (const [name, defs] of scope.defs) for (const d of defs) defRanges.push({ name, from: d.from, to: d.at });
  const uncovered = (name: string, seen: Set<string>): number | null => {
    if (seen.has(name)) return null;
    seen.add(name);
    for (const r of refs) {
      if (r.name !== name || r.printed || covered.has(r.start)) continue;
      const outer = defRanges.find((d) => d.from <= r.start && r.start < d.to);
      if (outer?.name === name) continue; // `API="${API:-…}"`: the variable's own default
      if (outer) {
        const u = uncovered(outer.name, seen);
        if (u === null) continue;
        return u;
      }
      return r.start;
    }
    return null;
  };
  const literalsIn = (parts: readonly Part[], out: number[]): number[] => {
    for (const p of parts) {
      if (p.kind === 'lit' && c.bases.legacy.some((b) => p.text.includes(b))) out.push(p.literal);
      if (p.kind === 'var' && p.def) literalsIn(p.def, out);
    }
    return out;
  };
  for (const [name, defs] of scope.defs) {
    const lits = defs.flatMap((d) => literalsIn(d.parts, []));
    if (!lits.length) continue;
    const use = uncovered(name, new Set());
    if (use !== null) for (const l of lits) c.hold(l, c.lines.pos(use).line);
  }
  for (const [name, pieces] of seeds ?? []) {
    const lits = pieces.filter((p) => p.kind === 'text' && c.bases.legacy.some((b) => p.text.includes(b))).map((p) => p.origin.literal);
    if (!lits.length || scope.defs.has(name)) continue;
    const use = uncovered(name, new Set());
    if (use !== null) for (const l of lits) c.hold(l, c.lines.pos(use).line);
  }
}

export type { Edit };
