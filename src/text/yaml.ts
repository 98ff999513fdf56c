/**
 * YAML, line by line (no YAML library: edits are splices and only scalars matter): scalars holding v1
 * URLs are planned as literals (with the env var they set, from `KEY: url`, `KEY=url` items or a k8s
 * `- name: KEY` / `value: url` pair); shell in `run: |` / `script:` blocks and `curl …` items is
 * scanned as shell (with the file's env keys as variables); OpenAPI documents get their v1 server
 * rewritten and their v1 path keys reported.
 */
import { REGENERATE_NOTE, planValue, type Collector, type TPiece } from './plan.js';
import { backslash, doubledQuote, looksLikeEnvVar, runs } from './strings.js';
import { maskOutside } from './source.js';
import { scanShell } from './shell.js';
import { openapiPathKey } from './json.js';
import { mentionsGraphql, scanGraphql } from './fields.js';

const SHELL_KEYS = new Set(['run', 'script', 'before_script', 'after_script', 'command', 'commands', 'cmd', 'args', 'entrypoint', 'shell', 'steps', 'exec', 'post_start', 'postStart', 'preStop']);

interface Scalar {
  pieces: TPiece[];
  start: number;
  plain: boolean;
  raw: string;
}

/** The scalar starting at `from` on a line ending at `to` (comment excluded), or null. */
function scalarAt(text: string, from: number, to: number): Scalar | null {
  const q = text[from];
  if (q === '"') {
    let i = from + 1;
    while (i < to && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= to) return null;
    return { pieces: runs(text, from + 1, i, from, backslash), start: from, plain: false, raw: text.slice(from + 1, i) };
  }
  if (q === "'") {
    let i = from + 1;
    while (i < to && !(text[i] === "'" && text[i + 1] !== "'")) i += text[i] === "'" ? 2 : 1;
    if (i >= to) return null;
    return { pieces: runs(text, from + 1, i, from, doubledQuote), start: from, plain: false, raw: text.slice(from + 1, i) };
  }
  let end = to;
  const hash = text.slice(from, to).search(/\s#/);
  if (hash >= 0) end = from + hash;
  while (end > from && /\s/.test(text[end - 1]!)) end--;
  if (end <= from) return null;
  return { pieces: [{ kind: 'text', text: text.slice(from, end), origin: { start: from, editable: true, literal: from, local: false } }], start: from, plain: true, raw: text.slice(from, end) };
}

const withEnv = (pieces: TPiece[], name: string | undefined): TPiece[] => (name ? pieces.map((p) => (p.kind === 'text' ? { ...p, origin: { ...p.origin, envVar: name } } : p)) : pieces);

export function scanYaml(c: Collector, text: string): void {
  const shellRanges: Array<[number, number]> = [];
  /** Plain scalars run as shell: inserting quotes or `: ` there would break the YAML. */
  const plainShell: Array<[number, number]> = [];
  const values: Array<{ pieces: TPiece[]; anchor: number; server: boolean }> = [];
  const seeds = new Map<string, TPiece[]>();
  const pathKeys: Array<{ key: string; at: number }> = [];
  let isOpenapi = false;
  let top = '';
  let pathsChildIndent = -1;
  let block: { indent: number; key: string; lines: Array<[number, number]> } | null = null;
  let pendingName: { name: string; indent: number } | null = null;

  const endBlock = (): void => {
    if (!block) return;
    const content = block.lines.map(([s, e]) => text.slice(s, e)).join('\n');
    if (SHELL_KEYS.has(block.key) || /(^|\s)curl\s/.test(content)) shellRanges.push(...block.lines);
    else {
      for (const [s, e] of block.lines) {
        const lead = text.slice(s, e).search(/\S/);
        if (lead < 0) continue;
        const sc = scalarAt(text, s + lead, e);
        if (sc && c.bases.legacy.some((b) => sc.raw.includes(b))) values.push({ pieces: sc.pieces, anchor: sc.start, server: false });
      }
    }
    block = null;
  };

  let at = 0;
  while (at <= text.length) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    const le = nl > at && text[nl - 1] === '\r' ? nl - 1 : nl;
    const line = text.slice(at, le);
    const indent = line.search(/\S/);
    if (block) {
      if (indent < 0 || indent > block.indent) {
        if (indent >= 0) block.lines.push([at, le]);
        at = nl + 1;
        continue;
      }
      endBlock();
    }
    if (indent < 0 || line[indent] === '#' || line.startsWith('---') || line.startsWith('...')) {
      at = nl + 1;
      continue;
    }
    // Sequence markers, then `key: rest` or a bare scalar.
    let i = at + indent;
    let seq = false;
    while (text[i] === '-' && (text[i + 1] === ' ' || i + 1 === le)) {
      seq = true;
      i += 2;
      while (text[i] === ' ') i++;
    }
    const keyCol = i - at;
    const km = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{[][^#]*?)\s*:(?:\s|$)/.exec(text.slice(i, le));
    let key: string | null = null;
    let restFrom = i;
    if (km) {
      key = km[1]!.replace(/^["']|["']$/g, '');
      restFrom = i + km[0].length;
      while (text[restFrom] === ' ' || text[restFrom] === '\t') restFrom++;
    }
    if (seq && key !== 'name') pendingName = pendingName && keyCol > pendingName.indent ? pendingName : null;
    if (indent === 0 && key) {
      top = key;
      if (key === 'openapi' || key === 'swagger') isOpenapi = true;
    }
    if (top === 'paths' && indent > 0 && key?.startsWith('/')) {
      if (pathsChildIndent < 0) pathsChildIndent = indent;
      if (indent === pathsChildIndent) pathKeys.push({ key, at: i + (text[i] === '"' || text[i] === "'" ? 1 : 0) });
    }
    const rest = text.slice(restFrom, le);
    if (/^[|>][-+0-9]*\s*(#.*)?$/.test(rest)) {
      block = { indent: key ? keyCol : indent, key: key ?? '', lines: [] };
      at = nl + 1;
      continue;
    }
    if (rest.startsWith('[') || rest.startsWith('{')) {
      // Flow collection: each quoted string or plain item.
      const re = /"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s,[\]{}:#][^,[\]{}#]*/g;
      for (let m = re.exec(rest); m; m = re.exec(rest)) {
        const sc = scalarAt(text, restFrom + m.index, restFrom + m.index + m[0].length);
        if (sc && c.bases.legacy.some((b) => sc.raw.includes(b))) values.push({ pieces: sc.pieces, anchor: sc.start, server: false });
      }
      at = nl + 1;
      continue;
    }
    const sc = rest ? scalarAt(text, restFrom, le) : null;
    if (sc) {
      if (key === 'name' && seq) pendingName = { name: sc.raw, indent: keyCol };
      let envVar: string | undefined;
      let pieces = sc.pieces;
      let anchor = sc.start;
      if (key && looksLikeEnvVar(key)) envVar = key;
      else if (key === 'value' && pendingName && looksLikeEnvVar(pendingName.name)) envVar = pendingName.name;
      else if (!key && sc.plain) {
        const am = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(sc.raw);
        if (am && looksLikeEnvVar(am[1]!)) {
          envVar = am[1]!;
          const n = am[0].length;
          const p = sc.pieces[0]!;
          pieces = [{ kind: 'text', text: sc.raw.slice(n), origin: { ...p.origin, start: p.origin.start + n, literal: p.origin.literal + n } }];
          anchor += n;
        }
      }
      if (sc.plain && /^curl\s/.test(sc.raw)) {
        shellRanges.push([sc.start, sc.start + sc.raw.length]);
        plainShell.push([sc.start, sc.start + sc.raw.length]);
      }
      else {
        if (envVar) seeds.set(envVar, withEnv(pieces, envVar));
        if (c.bases.legacy.some((b) => sc.raw.includes(b))) values.push({ pieces: withEnv(pieces, envVar), anchor, server: top === 'servers' && key === 'url' });
      }
    }
    at = nl + 1;
  }
  endBlock();
  const canInsert = (at: number): boolean => !plainShell.some(([s, e]) => at >= s && at <= e);
  if (shellRanges.length) scanShell(c, maskOutside(text, shellRanges), { seeds, graphql: false, canInsert });
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
