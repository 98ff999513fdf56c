/**
 * A string literal the codemod rewrites may be held to a literal type: `rawList('endpoints')` where
 * `function rawList(kind: 'endpoints' | 'templates')`. Writing `'serverless'` there alone would not
 * compile, so the member of the type is renamed with it, when that is certain: the type is written
 * on the parameter (or variable) itself, and the value is only ever used as a string (in a template
 * literal, a `+` concatenation, `encodeURIComponent(…)`), so nothing compares or narrows on the old
 * name. Otherwise the rewrite is held with the reason.
 */
import type { SourceEdit } from './edits.js';
import { EMPTY_CTX } from './context.js';
import { isFunctionPath, lookupScope } from './scope.js';
import type { N, P, t } from './ast.js';
import { isResolved, resolveExpr } from './values.js';
import { typeDeclarationOf } from './responses/static-type.js';
import { callersOf, climb, parentOf, referencesOf } from './responses/tree.js';

export interface LiteralTypeEdits {
  edits: SourceEdit[];
  /** Nodes the rewrite now depends on (the type member): requests that disagree about them conflict. */
  touched: N[];
}

/** Where a literal's value lands: the binding whose declared type must accept it. */
interface Slot {
  /** The annotated pattern (parameter or variable id). */
  pattern: P;
  /** For a parameter: the function and position, so every call can be checked. */
  fn?: P<t.Function>;
  index?: number;
}

/** The edits that keep the literal's declared type in step with its new value, or why the rewrite must wait. */
export function literalTypeEdits(literal: P<t.StringLiteral>, to: string, source: string): LiteralTypeEdits | string | null {
  const from = literal.node.value;
  const outer = climb(literal);
  if (outer !== literal && outer.value.type !== 'ParenthesizedExpression' && !isAsConst(outer.value)) return null;
  const slot = slotOf(outer);
  const annotation = slot && annotationNode(slot.pattern);
  if (!slot || !annotation) return null;
  const members = literalUnion(annotation);
  if (members === 'named') return namedTypeReason(annotation, slot.pattern, from, to);
  if (!members || !members.some((m) => m.literal.value === from) || members.some((m) => m.literal.value === to)) return null;
  const where = `the type of ${describe(slot)} (line ${annotation.loc?.start.line ?? '?'}) allows "${from}" but not "${to}"`;
  const uses = stringOnlyUses(slot);
  if (uses !== true) return `${where}, and ${uses}: change both by hand`;
  if (slot.fn && !everyCallPassesLiterals(slot.fn, slot.index!)) return `${where}, and a call passes it a value the tool cannot see: change both by hand`;
  const member = members.find((m) => m.literal.value === from)!.literal;
  const raw = source.slice(member.start!, member.end!);
  if (raw.slice(1, -1) !== from) return `${where}: change both by hand`;
  return { edits: [{ start: member.start! + 1, end: member.end! - 1, text: to, node: member }], touched: [member] };
}

const isAsConst = (n: N): boolean => n.type === 'TSAsExpression' && n.typeAnnotation.type === 'TSTypeReference' && (n.typeAnnotation.typeName as t.Identifier).name === 'const';

function slotOf(expr: P): Slot | null {
  const parent = parentOf(expr);
  const pn = parent?.value;
  if (!pn) return null;
  if ((pn.type === 'CallExpression' || pn.type === 'NewExpression') && pn.callee !== expr.value) {
    const index = (pn.arguments as N[]).indexOf(expr.value);
    const r = resolveExpr(parent!.get('callee'), EMPTY_CTX);
    if (!isResolved(r) || !isFunctionPath(r.path)) return null;
    const param = r.path.value.params[index];
    if (!param || param.type === 'RestElement') return null;
    return { pattern: r.path.get('params', index), fn: r.path, index };
  }
  if (pn.type === 'AssignmentPattern' && pn.right === expr.value) return { pattern: parent!.get('left') };
  if (pn.type === 'VariableDeclarator' && pn.init === expr.value) return { pattern: parent!.get('id') };
  return null;
}

/** The identifier a slot binds, with its annotation. */
function boundId(pattern: P): P<t.Identifier> | null {
  const n = pattern.value;
  if (n.type === 'Identifier') return pattern as P<t.Identifier>;
  if (n.type === 'AssignmentPattern') return boundId(pattern.get('left'));
  if (n.type === 'TSParameterProperty') return boundId(pattern.get('parameter'));
  return null;
}

function annotationNode(pattern: P): N | null {
  const annotation = boundId(pattern)?.value.typeAnnotation;
  // A Flow or TypeScript annotation (a Noop holds none).
  return (annotation as t.TSTypeAnnotation | null | undefined)?.typeAnnotation ?? null;
}

function describe(slot: Slot): string {
  const name = boundId(slot.pattern)?.value.name ?? 'it';
  return slot.fn ? `parameter ${name}` : name;
}

interface LiteralMember {
  literal: t.StringLiteral;
}

/** `'a' | 'b'` (with null/undefined) → its string members; 'named' for a type alias; null for anything else. */
function literalUnion(t: N): LiteralMember[] | 'named' | null {
  const parts: N[] = t.type === 'TSUnionType' ? t.types : [t];
  const out: LiteralMember[] = [];
  for (const part of parts) {
    if (part.type === 'TSNullKeyword' || part.type === 'TSUndefinedKeyword') continue;
    if (part.type === 'TSLiteralType' && part.literal.type === 'StringLiteral') out.push({ literal: part.literal });
    else if (part.type === 'TSTypeReference' && parts.length === 1) return 'named';
    else return null;
  }
  return out.length ? out : null;
}

/**
 * `kind: Kind` where `type Kind = 'endpoints' | 'templates'`: a named type may hold other values too,
 * so the tool does not change it; the rewrite waits when the name's type rejects the new value.
 */
function namedTypeReason(annotation: N, at: P, from: string, to: string): string | null {
  const typeName = (annotation as t.TSTypeReference).typeName;
  const name = typeName?.type === 'Identifier' ? typeName.name : null;
  const found = name ? typeDeclarationOf(name, at) : null;
  const decl = found && found !== 'many' && found.value.type === 'TSTypeAliasDeclaration' ? found.value : null;
  const members = decl ? literalUnion(decl.typeAnnotation) : null;
  if (!members || members === 'named' || !members.some((m) => m.literal.value === from) || members.some((m) => m.literal.value === to)) return null;
  return `its value is declared with the type ${name} (line ${decl!.loc?.start.line ?? '?'}), which allows "${from}" but not "${to}": add "${to}" to ${name} (or replace "${from}" once nothing else uses it), then rewrite this value`;
}

const STRING_CALLS = new Set(['String', 'encodeURIComponent', 'encodeURI']);

/** true when every read of the slot's binding only uses it as a string, else what else it does. */
function stringOnlyUses(slot: Slot): true | string {
  const id = boundId(slot.pattern);
  if (!id || !lookupScope(id, id.value.name)) return 'the tool cannot find where it is used';
  for (const ref of referencesOf(id)) {
    const q = climb(ref);
    const parent = parentOf(q)?.value;
    if (parent?.type === 'TemplateLiteral') continue;
    if (parent?.type === 'BinaryExpression' && parent.operator === '+') continue;
    if (parent?.type === 'CallExpression' && parent.callee.type === 'Identifier' && STRING_CALLS.has(parent.callee.name)) continue;
    return `it is used as more than a string (line ${ref.value.loc?.start.line ?? '?'})`;
  }
  return true;
}

/** Every call of the function in the run passes a string literal at `index` (so each is rewritten or stays visibly). */
function everyCallPassesLiterals(fn: P, index: number): boolean {
  return callersOf(fn).every((call) => {
    const arg = call.value.arguments[index];
    return arg?.type === 'StringLiteral';
  });
}
