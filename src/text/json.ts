/**
 * JSON (comments and trailing commas tolerated): every string value is a literal; OpenAPI documents
 * get their v1 server rewritten and their v1 path keys reported (regenerate from the v2 spec); Postman
 * collections get their `{{variables}}` rewritten and every request reported with its method;
 * script strings that run `curl` (package.json) are scanned as shell.
 */
import { V2_OPENAPI_URL } from '../map/hosts.js';
import { matchTemplate } from '../map/match.js';
import type { HttpMethod } from '../map/operations.js';
import { holePiece, planRequest, planValue, REGENERATE_NOTE, type Collector, type TPiece } from './plan.js';
import { decidePathKey } from '../plan/decide.js';
import { bodyOperation, checkBodyField, kindOf, mentionsGraphql, scanGraphql } from './fields.js';
import { createScanner, parseTree, ScanError, SyntaxKind, type Node, type ParseError, type ParseOptions } from 'jsonc-parser';
import { backslash, runs } from './strings.js';
import { maskOutside } from '../util/mask.js';
import { ParseCache } from './parse-cache.js';
import { scanShell } from './shell.js';

export type JNode =
  | { kind: 'object'; start: number; end: number; entries: Array<{ key: string; keyNode: JString; value: JNode }> }
  | { kind: 'array'; start: number; end: number; items: JNode[] }
  | JString
  | { kind: 'other'; start: number; end: number };
export interface JString {
  kind: 'string';
  start: number;
  end: number;
  value: string;
}

/**
 * The JSON value spanning `text[from, to)` (comments and trailing commas allowed), with every node's
 * offsets, read by jsonc-parser; null when that range is not one well-formed value.
 */
export function parseJson(text: string, from = 0, to = text.length): JNode | null {
  const { root, errors } = jsonSyntax(text.slice(from, to));
  return root && !errors ? toJNode(root, from) : null;
}

const parses = new ParseCache<{ root: Node | undefined; errors: number }>();

/** A JSON text's tree and its error count: parsed once for the scan and the check of its rewrite. */
export function jsonSyntax(text: string): { root: Node | undefined; errors: number } {
  return parses.get(text, () => {
    const errors: ParseError[] = [];
    const root = parseTree(text, errors, PARSE_OPTIONS);
    return { root, errors: errors.length };
  });
}

const PARSE_OPTIONS: ParseOptions = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false };

function toJNode(node: Node, shift: number): JNode {
  const start = node.offset + shift;
  const end = start + node.length;
  switch (node.type) {
    case 'object':
      return {
        kind: 'object',
        start,
        end,
        entries: (node.children ?? []).map((property) => {
          const keyNode = toJNode(property.children![0]!, shift) as JString;
          return { key: keyNode.value, keyNode, value: toJNode(property.children![1]!, shift) };
        }),
      };
    case 'array':
      return { kind: 'array', start, end, items: (node.children ?? []).map((item) => toJNode(item, shift)) };
    case 'string':
      return { kind: 'string', start, end, value: node.value as string };
    default:
      return { kind: 'other', start, end };
  }
}

/** The string tokens of text that is not JSON after all (comments are not strings). */
function stringTokens(text: string, from: number, to: number): JString[] {
  const scanner = createScanner(text.slice(from, to), false);
  const out: JString[] = [];
  for (let t = scanner.scan(); t !== SyntaxKind.EOF; t = scanner.scan()) {
    if (t === SyntaxKind.StringLiteral && scanner.getTokenError() === ScanError.None) {
      const start = from + scanner.getTokenOffset();
      out.push({ kind: 'string', start, end: start + scanner.getTokenLength(), value: scanner.getTokenValue() });
    }
  }
  return out;
}

const get = (node: JNode | undefined, key: string): JNode | undefined => (node?.kind === 'object' ? node.entries.find((e) => e.key === key)?.value : undefined);

/** Pieces of a JSON string node (escapes, `\/` included, are not editable). */
export function jsonPieces(text: string, s: JString): TPiece[] {
  return runs(text, s.start + 1, s.end - 1, s.start, backslash);
}

export function scanJson(c: Collector, text: string, from = 0, to = text.length): void {
  const root = parseJson(text, from, to);
  if (!root) {
    // Not JSON after all: plan every string that holds a v1 URL.
    for (const s of stringTokens(text, from, to)) if (c.bases.legacy.some((b) => s.value.includes(b))) planValue(c, jsonPieces(text, s));
    return;
  }
  const handled = new Set<JString>();
  const shellRanges: Array<[number, number]> = [];
  if (get(root, 'openapi') || get(root, 'swagger')) openapi(c, text, root, handled);
  const info = get(root, 'info');
  const schema = get(info, 'schema');
  if ((schema?.kind === 'string' && /getpostman/.test(schema.value)) || get(info, '_postman_id')) postman(c, text, root, handled);
  const walk = (node: JNode): void => {
    if (node.kind === 'object') for (const e of node.entries) walk(e.value);
    else if (node.kind === 'array') node.items.forEach(walk);
    else if (node.kind === 'string' && !handled.has(node)) {
      const raw = text.slice(node.start + 1, node.end - 1);
      if (/(^|[\s;&|(])curl\s/.test(raw) && !raw.includes('\\')) shellRanges.push([node.start + 1, node.end - 1]);
      else if (c.bases.legacy.some((b) => node.value.includes(b))) planValue(c, jsonPieces(text, node));
    }
  };
  walk(root);
  if (shellRanges.length) scanShell(c, maskOutside(text, shellRanges), { graphql: false, canInsert: () => false });
  if (mentionsGraphql(text.slice(from, to))) scanGraphql(c, text, from, to);
}


function openapi(c: Collector, text: string, root: JNode, handled: Set<JString>): void {
  const servers = get(root, 'servers');
  let v1Doc = false;
  let v2Base = false;
  if (servers?.kind === 'array') {
    for (const s of servers.items) {
      const url = get(s, 'url');
      if (url?.kind !== 'string') continue;
      if (c.bases.legacy.some((b) => url.value.startsWith(b))) {
        v1Doc = true;
        handled.add(url);
        planValue(c, jsonPieces(text, url), { baseNote: REGENERATE_NOTE });
      } else if (url.value.replace(/\/+$/, '') === c.bases.target) v2Base = true;
    }
  }
  if (!v1Doc && !v2Base) return;
  const paths = get(root, 'paths');
  if (paths?.kind !== 'object') return;
  for (const e of paths.entries) openapiPathKey(c, e.key, e.keyNode.start + 1);
}

export function openapiPathKey(c: Collector, key: string, at: number): void {
  const t = matchTemplate(key.split('/').filter(Boolean));
  if (!t) return;
  const r = decidePathKey(t, key);
  if (!r) return;
  c.report(r.rule, at, `OpenAPI path ${key} is a REST v1 path; in v2 it is ${r.what}. Regenerate this document from the v2 spec (${V2_OPENAPI_URL}) rather than editing paths by hand.`);
}

/** Postman: `{{variables}}` hold the base (rewritten there); each request is reported with its method. */
function postman(c: Collector, text: string, root: JNode, handled: Set<JString>): void {
  const vars = new Map<string, TPiece[]>();
  const variable = get(root, 'variable');
  if (variable?.kind === 'array') {
    for (const v of variable.items) {
      const key = get(v, 'key');
      const value = get(v, 'value');
      // An empty value is filled in per environment: unknown here.
      if (key?.kind === 'string' && value?.kind === 'string' && value.value) vars.set(key.value, jsonPieces(text, value));
    }
  }
  const expand = (pieces: TPiece[]): TPiece[] =>
    pieces.flatMap((p) => {
      if (p.kind !== 'text' || !p.text.includes('{{')) return [p];
      const out: TPiece[] = [];
      const re = /\{\{\s*([^}\s]+)\s*\}\}/g;
      let last = 0;
      for (let m = re.exec(p.text); m; m = re.exec(p.text)) {
        if (m.index > last) out.push({ ...p, text: p.text.slice(last, m.index), origin: { ...p.origin, start: p.origin.start + last } });
        out.push(...(vars.get(m[1]!) ?? [holePiece(`{{${m[1]}}}`, p.origin.start + m.index)]));
        last = m.index + m[0].length;
      }
      if (last < p.text.length) out.push({ ...p, text: p.text.slice(last), origin: { ...p.origin, start: p.origin.start + last } });
      return out;
    });
  const visit = (node: JNode | undefined): void => {
    if (!node) return;
    if (node.kind === 'array') return node.items.forEach(visit);
    if (node.kind !== 'object') return;
    const request = get(node, 'request');
    if (request) postmanRequest(c, text, request, expand, handled);
    visit(get(node, 'item'));
  };
  visit(get(root, 'item'));
}

function postmanRequest(c: Collector, text: string, request: JNode, expand: (p: TPiece[]) => TPiece[], handled: Set<JString>): void {
  const method = get(request, 'method');
  const url = request.kind === 'string' ? request : get(request, 'url');
  let pieces: TPiece[] | null = null;
  let anchor = request.start;
  if (url?.kind === 'string') {
    // A plain string URL is the request's only URL: plain edits are safe there.
    handled.add(url);
    pieces = expand(jsonPieces(text, url));
    anchor = url.start;
  } else if (url?.kind === 'object') {
    const raw = get(url, 'raw');
    if (raw?.kind === 'string') {
      handled.add(raw);
      // `raw` mirrors `host` and `path`: its own text is not edited alone.
      pieces = expand(jsonPieces(text, raw).map((p) => (p.kind === 'text' ? { ...p, origin: { ...p.origin, editable: false } } : p)));
      anchor = raw.start;
    } else {
      // No `raw`: the URL is `protocol://host.joined/path/joined`.
      const strings = (n: JNode | undefined): string[] => (n?.kind === 'string' ? [n.value] : n?.kind === 'array' ? n.items.flatMap((x) => (x.kind === 'string' ? [x.value] : [])) : []);
      const protocol = strings(get(url, 'protocol'))[0];
      const host = strings(get(url, 'host')).join('.');
      const pathParts = strings(get(url, 'path'));
      if (host) {
        const flat = `${protocol ? `${protocol}://` : ''}${host}${pathParts.length ? `/${pathParts.join('/')}` : ''}`;
        pieces = expand([{ kind: 'text', text: flat, origin: { start: url.start, editable: false, literal: url.start, local: false } }]);
        anchor = url.start;
      }
    }
  }
  if (!pieces) return;
  const m = method?.kind === 'string' ? method.value.toUpperCase() : 'GET';
  const outcome = planRequest(c, {
    client: 'postman',
    url: pieces,
    anchor,
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(m) ? (m as HttpMethod) : undefined,
    bodyReason: 'edit the request in the collection (method, url.raw, url.path and body together)',
    pathReason: url?.kind === 'object' ? 'edit the request in the collection (url.raw, url.host and url.path together)' : 'edit the request in the collection (method, url and body together)',
    setMethod: () => 'edit the request in the collection (method, url.raw and url.path together)',
  });
  const body = get(get(request, 'body'), 'raw');
  const op = bodyOperation(outcome.op);
  if (body?.kind === 'string' && op) {
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(body.value);
    } catch {
      parsed = null;
    }
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
        const rel = text.slice(body.start, body.end).indexOf(`\\"${key}\\"`);
        checkBodyField(c, key, rel >= 0 ? body.start + rel + 2 : body.start, op, { several: Array.isArray(value) && value.length > 1, value: kindOf(value), onV2: outcome.shape.base === 'target' });
      }
    }
  }
}
