import type { PieceEdit } from '../url/pieces.js';
import type { CallLike, EnvValueNode, N, P, t } from './ast.js';
import type { UrlPiece } from './values.js';

/** A replacement of `source.slice(start, end)`. Edits are exact splices, so untouched text keeps its bytes. */
export interface SourceEdit {
  start: number;
  end: number;
  text: string;
  /** The node whose content changes: requests that share a node must agree on its edits. */
  node: N | EnvValueNode;
  /** True for edits that are right for every use of the node (legacy base → v2 base). */
  universal?: boolean;
}

export class EditError extends Error {}

/** Escape a string for a quoted JS literal. */
function quote(value: string, q: string): string {
  const body = JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"');
  return q + (q === "'" ? body.replace(/'/g, "\\'") : q === '"' ? body.replace(/"/g, '\\"') : body) + q;
}

/** Turn edits on URL pieces into source edits on the literals they came from. Null when a piece cannot be edited. */
export function pieceEditsToSource(pieces: readonly UrlPiece[], edits: readonly PieceEdit[], source: string, universal = false): SourceEdit[] | null {
  const byNode = new Map<N | EnvValueNode, { piece: UrlPiece & { kind: 'text' }; edits: PieceEdit[] }>();
  for (const e of edits) {
    const piece = pieces[e.piece];
    if (!piece || piece.kind !== 'text') return null;
    // A piece from a .env file has a stand-in node (project.ts).
    const node = piece.origin.path.node as N | EnvValueNode;
    const entry = byNode.get(node) ?? { piece, edits: [] };
    entry.edits.push(e);
    byNode.set(node, entry);
  }
  const out: SourceEdit[] = [];
  for (const [node, { piece, edits: nodeEdits }] of byNode) {
    const raw = source.slice(node.start!, node.end!);
    if (node.type === 'EnvValue') {
      // A value in a .env file (project.ts): plain text, spliced in place.
      if (raw !== piece.text) return null;
      for (const e of nodeEdits) out.push({ start: node.start + e.start, end: node.start + e.end, text: e.text, node, universal });
    } else if (node.type === 'TemplateElement') {
      if (node.value.raw !== node.value.cooked || raw !== piece.text) return null;
      for (const e of nodeEdits) out.push({ start: node.start! + e.start, end: node.start! + e.end, text: e.text, node, universal });
    } else if (node.type === 'StringLiteral') {
      const q = raw[0]!;
      let value: string = node.value;
      for (const e of [...nodeEdits].sort((a, b) => b.start - a.start)) value = value.slice(0, e.start) + e.text + value.slice(e.end);
      const dropped = value === '' ? emptiedOperand(piece.origin.path, source) : null;
      if (dropped) out.push({ ...dropped, text: '', node, universal });
      else if (raw.slice(1, -1) === node.value) {
        for (const e of nodeEdits) out.push({ start: node.start! + 1 + e.start, end: node.start! + 1 + e.end, text: e.text, node, universal });
      } else out.push({ start: node.start!, end: node.end!, text: quote(value, q), node, universal }); // escapes: rebuild it whole, same quotes
    } else return null;
  }
  return out;
}

/** A `+` operand that is a string for sure: a string or template literal, or a concatenation holding one. */
const isString = (n: N): boolean => n.type === 'StringLiteral' || n.type === 'TemplateLiteral' || (n.type === 'BinaryExpression' && n.operator === '+' && (isString(n.left) || isString(n.right)));

/**
 * `BASE + '/endpoints/' + id + '/update'` whose last literal an edit empties: the range of ` + ''` to
 * drop rather than leave behind, when the left side is a string anyway (so the value is the same) and
 * nothing but the operator (and parentheses) stands between them: a comment there keeps it.
 */
function emptiedOperand(literal: P, source: string): { start: number; end: number } | null {
  const sum = literal.parentPath?.node;
  if (literal.name !== 'right' || sum?.type !== 'BinaryExpression' || sum.operator !== '+' || !isString(sum.left)) return null;
  // Between them only the operator, after any parentheses closing the left side (which stay).
  const between = /^((?:\s*\))*)\s*\+\s*$/.exec(source.slice(sum.left.end!, literal.node.start!));
  return between ? { start: sum.left.end! + between[1]!.length, end: literal.node.end! } : null;
}

export function lineStart(source: string, pos: number): number {
  return source.lastIndexOf('\n', pos - 1) + 1;
}

export function indentAt(source: string, pos: number): string {
  const start = lineStart(source, pos);
  return /^[ \t]*/.exec(source.slice(start))![0];
}

/** The comment lines (`//`) right above the line that starts at `start`. */
function commentLinesAbove(source: string, start: number): string[] {
  const lines: string[] = [];
  let end = start - 1;
  while (end > 0) {
    const from = lineStart(source, end);
    const line = source.slice(from, end).replace(/\r$/, '');
    if (!line.trimStart().startsWith('//')) break;
    lines.push(line);
    end = from - 1;
  }
  return lines;
}

/**
 * A `// TODO(v2-migrate <rule>): …` line above the line of `node`, unless the comment lines right above
 * already say it. The rule id lets `lint` report the TODO under the rule that raised it once the code
 * is written (rules/todo-comments.ts), so no finding that needs a person is lost by the write.
 */
export function todoEdit(source: string, node: N, rule: string, text: string): SourceEdit | null {
  const start = lineStart(source, node.start!);
  if (commentLinesAbove(source, start).some((l) => l.includes('TODO(v2-migrate') && l.includes(`): ${text}`))) return null;
  return { start, end: start, text: `${indentAt(source, node.start!)}// TODO(v2-migrate ${rule}): ${text}\n`, node, universal: true };
}

/** How many `TODO(v2-migrate <rule>)` lines the comment lines right above the line of `node` hold. */
export function todosAbove(source: string, node: { start?: number | null }, rule: string): number {
  return commentLinesAbove(source, lineStart(source, node.start!)).filter((l) => l.includes(`TODO(v2-migrate ${rule})`)).length;
}


function lineEnd(source: string, pos: number): number {
  const i = source.indexOf('\n', pos);
  return i < 0 ? source.length : i;
}

/** Skip whitespace and comments forward from `pos`. */
function skipTrivia(source: string, pos: number): number {
  let i = pos;
  for (;;) {
    while (i < source.length && /\s/.test(source[i]!)) i++;
    if (source.startsWith('//', i)) i = lineEnd(source, i);
    else if (source.startsWith('/*', i)) i = source.indexOf('*/', i + 2) < 0 ? source.length : source.indexOf('*/', i + 2) + 2;
    else return i;
  }
}

/**
 * Add `propText` as the last property of an object literal, matching its layout. With `beforeSpreads`,
 * it goes before the first spread instead (`{ A, NEW, ...init.headers }`), so values the spread brings
 * in still win: a default, not an override.
 */
export function insertProperty(source: string, object: P<t.ObjectExpression>, propText: string, { beforeSpreads = false } = {}): SourceEdit[] {
  const obj = object.node;
  const props = obj.properties;
  if (!props.length) return [{ start: obj.start!, end: obj.end!, text: `{ ${propText} }`, node: obj }];
  const spread = beforeSpreads ? props.findIndex((p) => p.type === 'SpreadElement') : -1;
  if (spread >= 0) return insertBefore(source, obj, spread, propText);
  const last = props[props.length - 1]!;
  const after = skipTrivia(source, last.end!);
  const hasComma = source[after] === ',';
  const multiline = source.slice(last.end!, obj.end!).includes('\n');
  if (!multiline) return [{ start: last.end!, end: last.end!, text: `, ${propText}`, node: obj }];
  const indent = indentAt(source, last.start!);
  const edits: SourceEdit[] = [];
  const anchor = hasComma ? after + 1 : last.end!;
  if (!hasComma) edits.push({ start: last.end!, end: last.end!, text: ',', node: obj });
  // Keep a trailing line comment on its own property: insert at the end of that line.
  const eol = lineEnd(source, anchor);
  const restOfLine = source.slice(anchor, eol).trim();
  const at = restOfLine.startsWith('//') ? eol : anchor;
  edits.push({ start: at, end: at, text: `\n${indent}${propText}${hasComma ? ',' : ''}`, node: obj });
  return edits;
}

/** Insert `propText` in front of property `index` (which exists), matching the object's layout. */
function insertBefore(source: string, obj: t.ObjectExpression, index: number, propText: string): SourceEdit[] {
  const props = obj.properties;
  const next = props[index]!;
  const from = index > 0 ? props[index - 1]!.end! : obj.start! + 1;
  const multiline = source.slice(from, next.start!).includes('\n');
  if (index === 0) {
    const text = multiline ? `${propText},\n${indentAt(source, next.start!)}` : `${propText}, `;
    return [{ start: next.start!, end: next.start!, text, node: obj }];
  }
  // The previous property is followed by a comma, since `next` comes after it.
  const comma = skipTrivia(source, props[index - 1]!.end!);
  if (!multiline) return [{ start: comma + 1, end: comma + 1, text: ` ${propText},`, node: obj }];
  const eol = lineEnd(source, comma + 1);
  const at = source.slice(comma + 1, eol).trim().startsWith('//') ? eol : comma + 1;
  return [{ start: at, end: at, text: `\n${indentAt(source, props[index - 1]!.start!)}${propText},`, node: obj }];
}

/** Set argument `index` of a call (padding with `undefined`), or replace it when present. */
export function setArgument(source: string, call: P<CallLike>, index: number, text: string): SourceEdit[] {
  const node = call.node;
  const args = node.arguments;
  if (index < args.length) return [{ start: args[index]!.start!, end: args[index]!.end!, text, node }];
  const pad = Array.from({ length: index - args.length }, () => 'undefined');
  const parts = [...pad, text].join(', ');
  if (args.length) {
    const last = args[args.length - 1]!;
    return [{ start: last.end!, end: last.end!, text: `, ${parts}`, node }];
  }
  // No arguments: insert right after the opening parenthesis.
  const from = (node.typeArguments ?? node.typeParameters ?? node.callee).end!;
  const open = source.indexOf('(', from);
  if (open < 0) throw new EditError('no argument list');
  return [{ start: open + 1, end: open + 1, text: parts, node }];
}

export function replaceNode(path: P, text: string): SourceEdit {
  return { start: path.node.start!, end: path.node.end!, text, node: path.node };
}

/** Apply non-overlapping edits (identical duplicates are merged). Throws EditError on overlap. */
/**
 * `edits` as splices that never overlap, in the order they apply: each once, and an edit inside the
 * range another edit replaces (a renamed read inside a body property that is rewritten whole) folded
 * into that edit's text, when the text still holds the original once. Throws EditError otherwise.
 */
export function foldEdits<E extends SourceEdit>(source: string, edits: readonly E[]): E[] {
  const seen = new Set<string>();
  const unique = edits.filter((e) => {
    const k = `${e.start}:${e.end}:${e.text}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const sorted = unique.map((e, i) => ({ e, i })).sort((a, b) => a.e.start - b.e.start || a.e.end - b.e.end || a.i - b.i);
  const outer: E[] = [];
  for (const { e } of sorted) {
    const host = outer[outer.length - 1];
    if (host && e.start < host.end) {
      const inner = source.slice(e.start, e.end);
      const at = host.text.indexOf(inner);
      if (e.end > host.end || e.start === e.end || at < 0 || host.text.indexOf(inner, at + 1) >= 0) throw new EditError(`overlapping edits at offset ${e.start}`);
      outer[outer.length - 1] = { ...host, text: host.text.slice(0, at) + e.text + host.text.slice(at + inner.length) };
      continue;
    }
    outer.push(e);
  }
  return outer;
}

export function applyEdits(source: string, edits: readonly SourceEdit[]): string {
  const outer = foldEdits(source, edits);
  let out = '';
  let pos = 0;
  for (const e of outer) {
    out += source.slice(pos, e.start) + e.text;
    pos = e.end;
  }
  return out + source.slice(pos);
}

/** The quote character most string literals in the file use. */
export function preferredQuote(source: string, literals: readonly N[]): string {
  let single = 0;
  let double = 0;
  for (const l of literals) {
    const c = source[l.start!];
    if (c === "'") single++;
    else if (c === '"') double++;
  }
  return double > single ? '"' : "'";
}
