/**
 * Minimal source edits for response rewrites: unwrapping a parsed body (`(await res.json()).pods`,
 * `res.data.pods`, `.then((body) => body.pods)`, `{ data: { pods: data } }`) and renaming a property
 * read (`pod.desiredStatus` → `pod.status`, `{ desiredStatus }` → `{ status: desiredStatus }`). Only
 * zero-width insertions and replacements of the property name itself, so edits of other rules nearby
 * never overlap.
 */
import type { SourceEdit } from '../edits.js';
import type { N, P, t } from '../ast.js';

/** What Babel's `extra` says about parentheses written around an expression. */
type Parens = { parenthesized?: boolean; parenStart?: number } | undefined;
type Member = t.MemberExpression | t.OptionalMemberExpression;

/** Expressions a `.x` can follow without parentheses. */
const MEMBER_SAFE = new Set<string>(['Identifier', 'MemberExpression', 'OptionalMemberExpression', 'CallExpression', 'OptionalCallExpression', 'ThisExpression'] satisfies Array<N['type']>);

function isSpace(c: string | undefined): boolean {
  return c !== undefined && /\s/.test(c);
}

/** Offset after the closing parentheses that wrap `node` (`(await x)` written with parentheses). */
function endAfterParens(source: string, node: N): number {
  const extra = node.extra as Parens;
  if (!extra?.parenthesized) return node.end!;
  let opens = 0;
  for (let i = extra.parenStart ?? node.start!; i < node.start!; i++) if (source[i] === '(') opens++;
  let pos = node.end!;
  while (opens > 0 && pos < source.length) {
    while (isSpace(source[pos])) pos++;
    if (source.startsWith('/*', pos)) {
      const close = source.indexOf('*/', pos + 2);
      pos = close < 0 ? source.length : close + 2;
      continue;
    }
    if (source[pos] !== ')') break;
    pos++;
    opens--;
  }
  return pos;
}

/** Does `start` begin a statement whose previous token could swallow a `(` (no-semicolon style)? */
function needsSemicolon(source: string, start: number): boolean {
  let i = start - 1;
  for (;;) {
    while (i >= 0 && isSpace(source[i])) i--;
    // Skip a line comment ending here.
    const lineStart = source.lastIndexOf('\n', i) + 1;
    const slash = source.slice(lineStart, i + 1).indexOf('//');
    if (slash >= 0 && !/['"`]/.test(source.slice(lineStart, lineStart + slash))) {
      i = lineStart + slash - 1;
      continue;
    }
    break;
  }
  if (i < 0) return false;
  return !/[;{}(,:=?&|!+\-*/<>[]/.test(source[i]!);
}

function startsStatement(p: P): boolean {
  let q = p;
  for (let parent = q.parentPath; parent; q = parent, parent = parent.parentPath) {
    const n = parent.value;
    if (Array.isArray(n)) continue;
    if (n.type === 'ExpressionStatement') return n.start === p.value.start;
    if (n.start !== p.value.start) return false;
  }
  return false;
}

/** Append `suffix` (`.pods`, `.then(…)`) to the expression at `p`, adding parentheses where needed. */
export function appendTo(source: string, p: P, suffix: string): SourceEdit[] {
  const node = p.value;
  if (node.extra?.parenthesized || MEMBER_SAFE.has(node.type) || (node.type === 'NewExpression' && source[node.end! - 1] === ')')) {
    const end = endAfterParens(source, node);
    return [{ start: end, end, text: suffix, node }];
  }
  const open = startsStatement(p) && needsSemicolon(source, node.start!) ? ';(' : '(';
  return [
    { start: node.start!, end: node.start!, text: open, node },
    { start: node.end!, end: node.end!, text: `)${suffix}`, node },
  ];
}

/** `key` as a property access: `.pods`, or `['odd-key']`. */
export function access(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** `{ pods: unknown }`: the envelope as a type, for a value typed `unknown`. */
const envelopeType = (key: string): string => `{ ${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: unknown }`;

/**
 * Unwrap an envelope at an expression: `x` → `x.pods`; a promise in an async function
 * `x` → `(await x).pods`, elsewhere `x.then((body) => body.pods)`. With `cast` (a value typed
 * `unknown`, which has no members to read) the body is cast to the envelope first:
 * `(x as { pods: unknown }).pods`.
 */
export function unwrapExpression(source: string, p: P, key: string, promise: boolean, inAsync: boolean, cast = false, then = ''): SourceEdit[] {
  const as = cast ? ` as ${envelopeType(key)}` : '';
  const read = access(key) + then;
  if (!promise && !cast) return appendTo(source, p, read);
  if (!promise) return wrapIn(source, p, '(', `${as})${read}`);
  if (!inAsync) return appendTo(source, p, `.then((body) => ${cast ? `(body${as})` : 'body'}${read})`);
  const node = p.value;
  const extra = node.extra as Parens;
  const parenthesized = !!extra?.parenthesized;
  const safe = parenthesized || MEMBER_SAFE.has(node.type) || (node.type === 'NewExpression' && source[node.end! - 1] === ')');
  const start: number = parenthesized ? (extra!.parenStart ?? node.start!) : node.start!;
  const end = endAfterParens(source, node);
  const semi = startsStatement(p) && needsSemicolon(source, start) ? ';' : '';
  return [
    { start, end: start, text: `${semi}${cast ? '(' : ''}(await ${safe ? '' : '('}`, node },
    { start: end, end, text: `${safe ? '' : ')'})${as}${cast ? ')' : ''}${read}`, node },
  ];
}

/** Put `open` before the expression at `p` (and its parentheses) and `close` after them. */
function wrapIn(source: string, p: P, open: string, close: string): SourceEdit[] {
  const node = p.value;
  const extra = node.extra as Parens;
  const start: number = extra?.parenthesized ? (extra.parenStart ?? node.start!) : node.start!;
  const end = endAfterParens(source, node);
  const semi = startsStatement(p) && needsSemicolon(source, start) ? ';' : '';
  return [
    { start, end: start, text: `${semi}${open}`, node },
    { start: end, end, text: close, node },
  ];
}

/**
 * Unwrap an envelope in a destructuring: the property `data` of `const { data } = await api.get(…)`
 * becomes `data: { pods: data }`. Null when the pattern is not simple enough.
 */
export function unwrapPatternProperty(source: string, prop: P<t.ObjectProperty>, key: string): SourceEdit[] | null {
  const n = prop.value;
  const value = n.value;
  const valueText = source.slice(value.start!, value.end!);
  const k = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
  if (value.type === 'AssignmentPattern') {
    // `{ data = [] }` → `{ data: { pods: data = [] } = {} }`
    const keyText = n.shorthand ? source.slice(n.key.start!, n.key.end!) : null;
    if (keyText) return [{ start: n.start!, end: n.end!, text: `${keyText}: { ${k}: ${valueText} } = {}`, node: n }];
    return [{ start: value.start!, end: value.end!, text: `{ ${k}: ${valueText} } = {}`, node: n }];
  }
  if (value.type !== 'Identifier' && value.type !== 'ObjectPattern' && value.type !== 'ArrayPattern') return null;
  if (n.shorthand) return [{ start: n.start!, end: n.end!, text: `${source.slice(n.key.start!, n.key.end!)}: { ${k}: ${valueText} }`, node: n }];
  const inner = value.type === 'Identifier' && value.name === key ? k : `${k}: ${valueText}`;
  return [{ start: value.start!, end: value.end!, text: `{ ${inner} }`, node: n }];
}

/** Rename the property of a member read: `pod.desiredStatus` → `pod.status`, `ep.workersMin` → `ep.workers.min`. */
export function renameMember(source: string, member: Member, to: string): SourceEdit[] | null {
  const prop = member.property;
  if (!member.computed && prop.type === 'Identifier') return [{ start: prop.start!, end: prop.end!, text: to, node: member }];
  if (member.computed && prop.type === 'StringLiteral' && !to.includes('.')) {
    const raw = source.slice(prop.start!, prop.end!);
    if (raw.slice(1, -1) !== prop.value) return null;
    return [{ start: prop.start! + 1, end: prop.end! - 1, text: to, node: member }];
  }
  return null;
}

/**
 * How a read moves one object down (`ep.workersMin` → workers.min):
 * - plain: `ep.workers.min`, where the declared type says `workers` is always there;
 * - optional: `ep.workers?.min`, where `workers` may be absent (v1 code got undefined there, not a TypeError);
 * - cast: `(ep.workers as { min?: unknown } | undefined)?.min`, where the parent's type gives `workers` no
 *   members (`Record<string, unknown>`, `unknown`): the read stays `unknown`, as the v1 one was.
 */
export type NestForm = 'plain' | 'optional' | 'cast';

/** Move a member read one object down, in the given form. Null when the property is not a plain name. */
export function nestMember(source: string, member: P<Member>, to: string, form: NestForm): SourceEdit[] | null {
  const m = member.value;
  const prop = m.property;
  if (m.computed || prop.type !== 'Identifier') return null;
  const [head, ...rest] = to.split('.');
  if (form === 'plain') return [{ start: prop.start!, end: prop.end!, text: to, node: m }];
  const tail = `?.${rest.join('?.')}`;
  if (form === 'optional') return [{ start: prop.start!, end: prop.end!, text: `${head}${tail}`, node: m }];
  const shape = rest.reduceRight((inner, k) => `{ ${k}?: ${inner} }`, 'unknown');
  const open = startsStatement(member) && needsSemicolon(source, m.start!) ? ';(' : '(';
  return [
    { start: m.start!, end: m.start!, text: open, node: m },
    { start: prop.start!, end: prop.end!, text: `${head} as ${shape} | undefined)${tail}`, node: m },
  ];
}

/** Rename the key of a destructuring property: `{ desiredStatus }` → `{ status: desiredStatus }`. */
export function renamePatternKey(source: string, prop: t.ObjectProperty, to: string): SourceEdit[] | null {
  if (to.includes('.') || prop.computed) return null;
  if (prop.shorthand) return [{ start: prop.start!, end: prop.end!, text: `${to}: ${source.slice(prop.value.start!, prop.value.end!)}`, node: prop }];
  const key = prop.key;
  if (key.type === 'Identifier') return [{ start: key.start!, end: key.end!, text: to, node: prop }];
  if (key.type === 'StringLiteral' && source.slice(key.start! + 1, key.end! - 1) === key.value) return [{ start: key.start! + 1, end: key.end! - 1, text: to, node: prop }];
  return null;
}

/** Rename an object literal key (`{ endpointId: x }` → `{ serverlessId: x }`). */
export function renameObjectKey(source: string, prop: N, to: string): SourceEdit[] | null {
  if (prop.type !== 'ObjectProperty' || prop.computed) return null;
  if (prop.shorthand) return [{ start: prop.start!, end: prop.end!, text: `${to}: ${source.slice(prop.value.start!, prop.value.end!)}`, node: prop }];
  const key = prop.key;
  if (key.type === 'Identifier') return [{ start: key.start!, end: key.end!, text: to, node: prop }];
  if (key.type === 'StringLiteral' && source.slice(key.start! + 1, key.end! - 1) === key.value) return [{ start: key.start! + 1, end: key.end! - 1, text: to, node: prop }];
  return null;
}

