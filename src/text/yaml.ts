/**
 * YAML, read by the `yaml` package's CST (every token with its exact offset; tolerant of broken
 * files, all documents of a stream): scalars holding v1 URLs are planned as literals (with the env
 * var they set, from `KEY: url`, `KEY=url` items or a k8s `name: KEY` / `value: url` pair); shell in
 * `run: |` / `script:` blocks and `curl …` items is scanned as shell (with the file's env keys as
 * variables); OpenAPI documents get their v1 server rewritten and their v1 path keys reported.
 * A scalar's value maps back to its source piece by piece: verbatim runs are editable, escapes and
 * line folds are not (so a URL split over two lines is reported, never rewritten).
 */
import { CST, Parser } from 'yaml';
import { REGENERATE_NOTE, planValue, type Collector, type TPiece } from './plan.js';
import { backslash, doubledQuote, looksLikeEnvVar, none, runs, type Special } from './strings.js';
import { overwrite } from './source.js';
import { maskOutside } from '../util/mask.js';
import { scanShell } from './shell.js';
import { openapiPathKey } from './json.js';
import { mentionsGraphql, scanGraphql } from './fields.js';

const SHELL_KEYS = new Set(['run', 'script', 'before_script', 'after_script', 'command', 'commands', 'cmd', 'args', 'entrypoint', 'shell', 'steps', 'exec', 'post_start', 'postStart', 'preStop']);

type Token = CST.Token;
type FlowScalar = CST.FlowScalar;

interface Where {
  /** The mapping key this value belongs to, or null for a sequence item or a document. */
  key: string | null;
  /** The document's top-level key above this value ('' at the top). */
  top: string;
  /** The env var a k8s `name:` sibling names, for a `value:` key. */
  envName?: string;
}

const SPECIAL: Record<string, Special> = { 'double-quoted-scalar': backslash, 'single-quoted-scalar': doubledQuote, scalar: none };

/**
 * The pieces of a flow scalar (plain or quoted, on one line or folded over several): each line's
 * verbatim text is editable, escapes and the folds between lines are not. When the pieces do not
 * spell the value the parser resolved (an escaped line break), the value is one uneditable piece.
 */
function scalarPieces(text: string, token: FlowScalar, value: string): TPiece[] {
  const quoted = token.type !== 'scalar';
  const literal = token.offset;
  const from = token.offset + (quoted ? 1 : 0);
  const to = token.offset + token.source.length - (quoted ? 1 : 0);
  const special = SPECIAL[token.type]!;
  const lines: Array<[number, number]> = [];
  for (let at = from; ; ) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 || nl >= to ? to : nl;
    lines.push([at, end]);
    if (end === to) break;
    at = end + 1;
  }
  const pieces: TPiece[] = [];
  let breaks = 0;
  lines.forEach(([s, e], i) => {
    // Folding drops the spaces around each line break; the first line keeps its start, the last its end.
    if (i > 0) while (s < e && /[ \t]/.test(text[s]!)) s++;
    if (i < lines.length - 1) while (e > s && /[ \t\r]/.test(text[e - 1]!)) e--;
    if (s === e && i > 0 && i < lines.length - 1) {
      breaks++;
      return;
    }
    if (i > 0) pieces.push({ kind: 'text', text: breaks ? '\n'.repeat(breaks) : ' ', origin: { start: s, editable: false, literal, local: false } });
    breaks = 0;
    pieces.push(...runs(text, s, e, literal, special));
  });
  if (pieces.map((p) => (p.kind === 'text' ? p.text : '')).join('') === value) return pieces;
  return [{ kind: 'text', text: value, origin: { start: from, editable: false, literal, local: false } }];
}

const withEnv = (pieces: TPiece[], name: string | undefined): TPiece[] => (name ? pieces.map((p) => (p.kind === 'text' ? { ...p, origin: { ...p.origin, envVar: name } } : p)) : pieces);

function resolve(token: Token | undefined): { value: string; range: [number, number, number] } | null {
  if (!token || (token.type !== 'scalar' && token.type !== 'single-quoted-scalar' && token.type !== 'double-quoted-scalar' && token.type !== 'block-scalar')) return null;
  const r = CST.resolveAsScalar(token, false, () => {});
  return r && { value: r.value, range: r.range };
}

const keyOf = (token: Token | undefined): string | null => resolve(token)?.value ?? null;

export function scanYaml(c: Collector, text: string): void {
  const shellRanges: Array<[number, number]> = [];
  /** Plain scalars run as shell: inserting quotes or `: ` there would break the YAML. */
  const plainShell: Array<[number, number]> = [];
  /** Line folds inside plain shell scalars: YAML reads them as spaces, and so must the shell scan. */
  const folds: number[] = [];
  const values: Array<{ pieces: TPiece[]; anchor: number; server: boolean }> = [];
  const seeds = new Map<string, TPiece[]>();
  const pathKeys: Array<{ key: string; at: number }> = [];
  let isOpenapi = false;

  const blockScalar = (token: CST.BlockScalar, where: Where): void => {
    // The body starts on the line after the header (`|`, `>-`, a comment).
    const bodyStart = text.indexOf('\n', token.offset) + 1;
    if (!bodyStart) return;
    const lines: Array<[number, number]> = [];
    for (let at = bodyStart; at < bodyStart + token.source.length; ) {
      let nl = text.indexOf('\n', at);
      if (nl < 0 || nl > bodyStart + token.source.length) nl = bodyStart + token.source.length;
      const le = nl > at && text[nl - 1] === '\r' ? nl - 1 : nl;
      if (/\S/.test(text.slice(at, le))) lines.push([at, le]);
      at = nl + 1;
    }
    const content = lines.map(([s, e]) => text.slice(s, e)).join('\n');
    if (SHELL_KEYS.has(where.key ?? '') || /(^|\s)curl\s/.test(content)) return void shellRanges.push(...lines);
    // Other block text line by line: each line is verbatim, and a URL in it is that line's value.
    for (const [s, e] of lines) {
      let from = s;
      let to = e;
      while (/\s/.test(text[from]!)) from++;
      while (/\s/.test(text[to - 1]!)) to--;
      const line = text.slice(from, to);
      if (c.bases.legacy.some((b) => line.includes(b))) values.push({ pieces: [{ kind: 'text', text: line, origin: { start: from, editable: true, literal: from, local: false } }], anchor: from, server: false });
    }
  };

  const flowScalar = (token: FlowScalar, where: Where): void => {
    const { value, range } = resolve(token)!;
    const plain = token.type === 'scalar';
    const start = token.offset;
    if (plain && /^curl\s/.test(value)) {
      shellRanges.push([start, range[1]]);
      plainShell.push([start, range[1]]);
      for (let nl = text.indexOf('\n', start); nl >= 0 && nl < range[1]; nl = text.indexOf('\n', nl + 1)) folds.push(nl);
      return;
    }
    const keyVar = where.key && looksLikeEnvVar(where.key) ? where.key : where.key === 'value' ? where.envName : undefined;
    const assignment = !where.key && plain ? /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(value) : null;
    const assigned = assignment && looksLikeEnvVar(assignment[1]!) ? assignment : null;
    const v1 = c.bases.legacy.some((b) => value.includes(b));
    // Most scalars are neither: their pieces are never needed.
    if (!keyVar && !assigned && !v1) return;
    let pieces = scalarPieces(text, token, value);
    let envVar = keyVar;
    let anchor = start;
    if (!keyVar && assigned && pieces.length === 1) {
      envVar = assigned[1]!;
      const n = assigned[0].length;
      const p = pieces[0]!;
      pieces = [{ kind: 'text', text: value.slice(n), origin: { ...p.origin, start: p.origin.start + n, literal: p.origin.literal + n } }];
      anchor += n;
    }
    if (envVar) seeds.set(envVar, withEnv(pieces, envVar));
    if (v1) values.push({ pieces: withEnv(pieces, envVar), anchor, server: where.top === 'servers' && where.key === 'url' });
  };

  const node = (token: Token | undefined, where: Where, depth: number): void => {
    if (!token) return;
    switch (token.type) {
      case 'scalar':
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
        return flowScalar(token, where);
      case 'block-scalar':
        return blockScalar(token, where);
      case 'block-seq':
        for (const item of token.items) node(item.value ?? undefined, { key: null, top: where.top }, depth + 1);
        return;
      case 'block-map':
      case 'flow-collection': {
        const keys = token.items.map((item) => keyOf(item.key ?? undefined));
        const name = token.items.find((_, i) => keys[i] === 'name')?.value ?? undefined;
        const envName = name && resolve(name)?.value;
        token.items.forEach((item, i) => {
          const key = keys[i] ?? null;
          if (!depth && key !== null) {
            if (key === 'openapi' || key === 'swagger') isOpenapi = true;
          }
          if (where.top === 'paths' && depth === 1 && key?.startsWith('/') && item.key) pathKeys.push({ key, at: item.key.offset + (item.key.type === 'scalar' ? 0 : 1) });
          const top = depth ? where.top : (key ?? '');
          node(item.value ?? undefined, { key: item.key ? key : null, top, envName: envName && looksLikeEnvVar(envName) ? envName : undefined }, depth + 1);
        });
        return;
      }
      default:
        return;
    }
  };
  for (const token of new Parser().parse(text)) if (token.type === 'document') node(token.value, { key: null, top: '' }, 0);

  const canInsert = (at: number): boolean => !plainShell.some(([s, e]) => at >= s && at <= e);
  if (shellRanges.length) {
    let shellText = maskOutside(text, shellRanges);
    for (const nl of folds) shellText = overwrite(shellText, nl, ' ');
    scanShell(c, shellText, { seeds, graphql: false, canInsert });
  }
  let v1Doc = false;
  for (const v of values) {
    if (v.pieces.some((p) => p.kind === 'text' && c.consumed.has(p.origin.literal))) continue;
    const server = isOpenapi && v.server;
    if (server) v1Doc = true;
    planValue(c, v.pieces, { anchor: v.anchor, ...(server ? { baseNote: REGENERATE_NOTE } : {}) });
  }
  const v2Doc = isOpenapi && new RegExp(`^\\s*-?\\s*url:\\s*["']?${c.bases.target.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/?["']?\\s*$`, 'm').test(text);
  if (isOpenapi && (v1Doc || v2Doc)) for (const p of pathKeys) openapiPathKey(c, p.key, p.at);
  if (mentionsGraphql(text)) scanGraphql(c, text, 0, text.length);
}
