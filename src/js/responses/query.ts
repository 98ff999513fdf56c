/**
 * The query parameters a request sends, wherever they are written: in the URL's literal text
 * (`'/pods?desiredStatus=RUNNING'`, `` `?endpointId=${id}` ``), in a `URLSearchParams` built from an
 * object literal or filled with `.set` / `.append`, or in the client's query option (axios `params`,
 * ky/got `searchParams`, ofetch `query`). Each comes with the node to report on and, where the name is
 * written literally, a way to rename it in place.
 */
import type { SiteInstance } from '../analyze.js';
import { pieceEditsToSource, type SourceEdit } from '../edits.js';
import { bindingOf, keyName, memberName, unwrap } from '../scope.js';
import type { N, P, t } from '../ast.js';
import { isResolved, resolveExpr, type UrlPiece } from '../values.js';
import { flatEditToPieces, HOLE } from '../../url/pieces.js';
import type { Bases } from '../../url/shape.js';
import { shapeOf } from '../../url/shape.js';
import { renameObjectKey } from './edits.js';
import { objectEdits, type PropChange } from '../body/text.js';
import { parentOf, referencesOf } from './tree.js';

export interface QueryParam {
  name: string;
  /** The value when written literally. */
  value: string | null;
  /** The value as a JS expression, for recipes (`'RUNNING'`, `name`), or null when unknown. */
  expr: string | null;
  /** Where to report it. */
  anchor: N | PieceAnchor;
  /** Edits that rename the parameter, or null when its name is not written where it can be edited. */
  rename: (to: string) => SourceEdit[] | null;
  /** Where the whole parameter is written, for removing it (removeQueryParams), or null when it cannot be. */
  removal: Removal | null;
  /**
   * The expression the parameter reaches the request through (a query option, the URL as written around
   * a hole holding a query string or around the parameter itself): where a run-time guard can wrap it.
   */
  carrier?: P | null;
}

/**
 * A parameter as written: a `name=value` range of the URL's literal text (flat offsets, the query part
 * spanning [section.from, section.to)), or a property of an object literal (a client's query option).
 */
type Removal =
  | { kind: 'url'; from: number; to: number; section: { from: number; to: number } }
  | { kind: 'prop'; object: P<t.ObjectExpression>; prop: N };

/** A JS string literal for a value (numbers and booleans as they are). */
export function quoteJs(value: string): string {
  return /^-?\d+(\.\d+)?$|^(true|false)$/.test(value) ? value : `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A node-like anchor at the exact character of a literal piece (for the finding's line and column). */
export interface PieceAnchor {
  type: 'QueryParameter';
  start: number;
  end: number;
  loc: { start: { line: number; column: number }; end: { line: number; column: number } };
}

function anchorAt(pieces: readonly UrlPiece[], at: { piece: number; offset: number }, source: string): N | PieceAnchor {
  const piece = pieces[at.piece]!;
  const node = piece.origin.path.node;
  const inner = node.type === 'StringLiteral' ? 1 : 0;
  const raw = source.slice(node.start! + inner, node.end! - inner);
  if (piece.kind !== 'text' || raw.slice(0, piece.text.length) !== piece.text || !node.loc) return node;
  const offset = node.start! + inner + at.offset;
  const before = source.slice(node.start!, offset);
  const nl = before.lastIndexOf('\n');
  const line = node.loc.start.line + (before.match(/\n/g)?.length ?? 0);
  const column = nl < 0 ? node.loc.start.column + before.length : before.length - nl - 1;
  return { type: 'QueryParameter', start: offset, end: offset, loc: { start: { line, column }, end: { line, column } } };
}

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

/** Parameters in the literal part of the URL after `?`, plus those of URLSearchParams values in holes. */
function urlParams(pieces: readonly UrlPiece[], bases: Bases, source: string): QueryParam[] {
  const shape = shapeOf(pieces, bases);
  const flat = shape.flat;
  if (flat.text[shape.pathEnd] !== '?') return [];
  const hash = flat.text.indexOf('#', shape.pathEnd);
  const end = hash < 0 ? flat.text.length : hash;
  const out: QueryParam[] = [];
  let pos = shape.pathEnd + 1;
  while (pos <= end) {
    let next = flat.text.indexOf('&', pos);
    if (next < 0 || next > end) next = end;
    const part = flat.text.slice(pos, next);
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? null : part.slice(eq + 1);
    if (rawName && !rawName.includes(HOLE)) {
      const from = pos;
      const value = rawValue === null || rawValue.includes(HOLE) ? null : decode(rawValue);
      const hole = rawValue === HOLE ? pieces[flat.at(from + rawName.length + 1).piece] : undefined;
      out.push({
        name: decode(rawName),
        value,
        expr: value !== null ? quoteJs(value) : hole?.kind === 'hole' && /^[\w$.]+$/.test(hole.label) ? hole.label : null,
        anchor: anchorAt(pieces, flat.at(from), source),
        rename: (to) => {
          const edits = flatEditToPieces(flat, from, from + rawName.length, to);
          return edits ? pieceEditsToSource(pieces, edits, source) : null;
        },
        removal: part.includes(HOLE) ? null : { kind: 'url', from, to: next, section: { from: shape.pathEnd, to: end } },
        // Always sent: a guard around the URL as written throws each time, which beats a 200 with another meaning.
        carrier: writtenUrl(pieces, flat.at(from).piece + 1),
      });
    }
    pos = next + 1;
  }
  // Holes in the query: `?${params}` where params is a URLSearchParams the tool can read.
  for (let i = shape.pathEnd; i < end; i++) {
    if (flat.text[i] !== HOLE) continue;
    const piece = pieces[flat.at(i).piece]!;
    if (piece.kind === 'hole') out.push(...searchParamsOf(piece.origin.path, source).map((q) => ({ ...q, carrier: writtenUrl(pieces, flat.at(i).piece) })));
  }
  return out;
}

/**
 * The URL expression as written around piece `index` (the template literal or `+` chain holding the text
 * just before it): where a guard sees the whole query at the moment the request is made.
 */
function writtenUrl(pieces: readonly UrlPiece[], index: number): P | null {
  for (let i = index - 1; i >= 0; i--) {
    const piece = pieces[i];
    if (piece?.kind !== 'text' || piece.origin.declared) continue;
    let p: P | null = piece.origin.path;
    if (p.node.type === 'TemplateElement') p = p.parentPath?.parentPath ?? null;
    while (p?.parentPath?.node.type === 'BinaryExpression' && p.parentPath.node.operator === '+') p = p.parentPath;
    return p && (p.node.type === 'TemplateLiteral' || p.node.type === 'BinaryExpression' || p.node.type === 'StringLiteral') ? p : null;
  }
  return null;
}

/** A hole known to be a query string (`qs ? \`?${qs}\` : ''`): the parameters of its non-empty forms. */
function queryHoleParams(pieces: readonly UrlPiece[], bases: Bases, source: string): QueryParam[] {
  return pieces.flatMap((piece, i) => (piece.kind === 'hole' && piece.origin.queryParts ? urlParams(piece.origin.queryParts, bases, source).map((q) => ({ ...q, removal: null, carrier: writtenUrl(pieces, i) })) : []));
}

/** Parameters of `new URLSearchParams({ … })` (and of `.set` / `.append` calls on the variable holding it). */
export function searchParamsOf(expr: P, source: string): QueryParam[] {
  let p = unwrap(expr);
  if (p.value.type === 'Identifier' || p.value.type === 'MemberExpression') {
    const r = resolveExpr(p, new Map());
    if (!isResolved(r) || r.path === p) return [];
    p = r.path;
  }
  const n = p.value;
  if (n.type === 'ObjectExpression') return objectParams(p as P<t.ObjectExpression>, source);
  if (n.type !== 'NewExpression' || n.callee.type !== 'Identifier' || n.callee.name !== 'URLSearchParams') return [];
  const out: QueryParam[] = [];
  if (n.arguments.length) {
    const init = resolveExpr(p.get('arguments', 0), new Map());
    if (isResolved(init) && init.path.value.type === 'ObjectExpression') out.push(...objectParams(init.path as P<t.ObjectExpression>, source));
    if (isResolved(init) && init.path.value.type === 'StringLiteral') out.push(...stringParams(init.path as P<t.StringLiteral>, source));
  }
  // `const params = new URLSearchParams(); params.set('desiredStatus', 'RUNNING')`
  const holder = parentOf(p);
  if (holder?.value.type === 'VariableDeclarator' && holder.value.init === n && holder.value.id.type === 'Identifier') {
    for (const ref of referencesOf(holder.get('id'))) {
      const member = parentOf(ref);
      const call = member && parentOf(member);
      if (!member || !call || call.value.type !== 'CallExpression' || call.value.callee !== member.value) continue;
      const method = memberName(member.value);
      if (method !== 'set' && method !== 'append') continue;
      const nameArg = call.value.arguments[0];
      if (nameArg?.type !== 'StringLiteral') continue;
      const valueArg = call.value.arguments[1];
      const value = valueArg ? literalValue(valueArg) : null;
      out.push({
        name: nameArg.value,
        value,
        expr: value !== null ? quoteJs(value) : exprText(valueArg, source),
        anchor: nameArg,
        rename: (to) => (source.slice(nameArg.start! + 1, nameArg.end! - 1) === nameArg.value ? [{ start: nameArg.start! + 1, end: nameArg.end! - 1, text: to, node: call.value }] : null),
        removal: null,
      });
    }
  }
  return out;
}

/** Short source text of a simple value expression (`name`, `opts.id`), for recipes. */
function exprText(n: N, source: string): string | null {
  if (!n) return null;
  const text = source.slice(n.start!, n.end!);
  return /^[\w$]+(\.[\w$]+)*$/.test(text) ? text : null;
}

function literalValue(n: N): string | null {
  if (n.type === 'StringLiteral') return n.value;
  if (n.type === 'NumericLiteral' || n.type === 'BooleanLiteral') return String(n.value);
  if (n.type === 'TemplateLiteral' && n.expressions.length === 0) return n.quasis[0]!.value.cooked as string; // cooked: an untagged template has no invalid escapes
  return null;
}

function objectParams(obj: P<t.ObjectExpression>, source: string): QueryParam[] {
  const out: QueryParam[] = [];
  obj.value.properties.forEach((prop) => {
    if (prop.type !== 'ObjectProperty') return;
    const name = keyName(prop.key, prop.computed);
    if (name === null) return;
    const value = literalValue(prop.value);
    out.push({ name, value, expr: value !== null ? quoteJs(value) : exprText(prop.value, source), anchor: prop.key, rename: (to) => renameObjectKey(source, prop, to), removal: { kind: 'prop', object: obj, prop } });
  });
  return out;
}

function stringParams(lit: P<t.StringLiteral>, source: string): QueryParam[] {
  const n = lit.value;
  const raw = source.slice(n.start! + 1, n.end! - 1);
  if (raw !== n.value) return [];
  const out: QueryParam[] = [];
  let offset = 0;
  for (const part of raw.replace(/^\?/, '').split('&')) {
    const at = raw.indexOf(part, offset);
    offset = at + part.length;
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    if (!name) continue;
    const start = n.start! + 1 + at;
    const value = eq < 0 ? null : decode(part.slice(eq + 1));
    out.push({ name: decode(name), value, expr: value === null ? null : quoteJs(value), anchor: n, rename: (to) => [{ start, end: start + name.length, text: to, node: n }], removal: null });
  }
  return out;
}

/** The query option of the request (axios `params`, ky/got `searchParams`, ofetch `query`, openapi-fetch `params.query`). */
function optionParams(inst: SiteInstance, source: string): QueryParam[] {
  const value = inst.site.query;
  const carrier = inst.site.queryOption ?? null;
  if (!value) return [];
  const params = value.path.value.type === 'ObjectExpression' ? objectParams(value.path as P<t.ObjectExpression>, source) : searchParamsOf(value.path, source);
  return params.map((q) => ({ ...q, carrier }));
}

/**
 * The run-time query carriers of a request whose query the tool cannot read (`{ params: filters }` with
 * `filters` a parameter, `` `/pods${qs}` `` with `qs` from elsewhere): nothing visible, but anything may be sent.
 */
export function opaqueQueryCarriers(inst: SiteInstance): P[] {
  const option = inst.site.queryOption;
  if (!option) return [];
  if (!inst.site.query) return [option];
  // A parameter no caller in the run fills (`filters = {}`) resolves to its default, but holds whatever the caller passes.
  const p = unwrap(option);
  const b = p.node.type === 'Identifier' ? bindingOf(p) : null;
  return b?.kind === 'param' && !inst.ctx.get(b.fn.node)?.args[b.index] ? [option] : [];
}

/** Every query parameter the request visibly sends. */
export function queryParamsOf(inst: SiteInstance, bases: Bases, source: string): QueryParam[] {
  const out = [...urlParams(inst.site.url, bases, source), ...queryHoleParams(inst.site.url, bases, source)];
  out.push(...optionParams(inst, source));
  return out;
}

/**
 * Edits that take `remove` out of the request's query, or null when one of them cannot be: URL text
 * loses each `name=value` with its separator (and the `?` when nothing is left), an object literal
 * loses the property.
 */
export function removeQueryParams(inst: SiteInstance, bases: Bases, source: string, remove: readonly QueryParam[]): SourceEdit[] | null {
  const edits: SourceEdit[] = [];
  const props = new Map<P<t.ObjectExpression>, Map<N, PropChange>>();
  for (const q of remove) {
    if (q.removal?.kind !== 'prop') continue;
    const changes = props.get(q.removal.object) ?? new Map<N, PropChange>();
    props.set(q.removal.object, changes.set(q.removal.prop, { kind: 'remove' }));
  }
  for (const [object, changes] of props) {
    // An option left empty (`searchParams: {}`) goes too.
    const holder = parentOf(object);
    const outer = holder && parentOf(holder);
    if (changes.size === object.value.properties.length && holder?.value.type === 'ObjectProperty' && outer?.value.type === 'ObjectExpression') {
      edits.push(...objectEdits(source, outer as P<t.ObjectExpression>, new Map([[holder.value, { kind: 'remove' }]]), []));
    } else edits.push(...objectEdits(source, object, changes, []));
  }
  const inUrl = remove.filter((q) => q.removal?.kind === 'url');
  if (inUrl.length) {
    const flatEdits = urlRemovals(inst.site.url, bases, source, new Set(inUrl.map((q) => q.removal?.kind === 'url' ? q.removal.from : -1)));
    if (!flatEdits) return null;
    edits.push(...flatEdits);
  }
  return remove.every((q) => q.removal) ? edits : null;
}

/** Edits removing the URL parameters that start at `starts` (flat offsets), with their separators. */
function urlRemovals(pieces: readonly UrlPiece[], bases: Bases, source: string, starts: ReadonlySet<number>): SourceEdit[] | null {
  const all = urlParams(pieces, bases, source).flatMap((q) => (q.removal?.kind === 'url' ? [q.removal] : []));
  const section = all[0]?.section;
  if (!section) return null;
  const flat = shapeOf(pieces, bases).flat;
  const ranges: Array<[number, number]> = [];
  if (all.every((r) => starts.has(r.from))) ranges.push([section.from, section.to]);
  else {
    for (let i = 0; i < all.length; i++) {
      if (!starts.has(all[i]!.from)) continue;
      let j = i;
      while (j + 1 < all.length && starts.has(all[j + 1]!.from)) j++;
      // A run at the front gives up the separator after it; any other run, the one before it.
      ranges.push(i === 0 ? [all[i]!.from, all[j + 1]!.from] : [all[i - 1]!.to, all[j]!.to]);
      i = j;
    }
  }
  const edits: SourceEdit[] = [];
  for (const [from, to] of ranges) {
    const pieceEdits = flatEditToPieces(flat, from, to, '');
    const sourceEdits = pieceEdits && pieceEditsToSource(pieces, pieceEdits, source);
    if (!sourceEdits) return null;
    edits.push(...sourceEdits);
  }
  return edits;
}
