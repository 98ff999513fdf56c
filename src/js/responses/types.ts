/**
 * TypeScript types that describe a provable RunPod response: the type argument of the call that
 * produces it (`api<Pod[]>('GET', '/pods')`), an `as Pod[]` cast on it, or the annotation of the
 * variable it is stored in (`const pods: Pod[] = …`). Renamed reads must be matched by renamed type
 * members, and an unwrapped list needs its type argument wrapped (`api<{ pods: Pod[] }>`), or the
 * migrated file would not type-check.
 */
import type { SourceEdit } from '../edits.js';
import { keyName, unwrap } from '../scope.js';
import type { N, P, t } from '../ast.js';
import { parentOf, programOf } from './tree.js';

/** The type argument of the call whose result is the value at `p` (`api<Pod[]>(…)`, also under `await`). */
export function callTypeArgument(p: P): N | null {
  const n = unwrap(p).value;
  const call = n.type === 'CallExpression' || n.type === 'OptionalCallExpression' ? n : null;
  const params = call?.typeParameters ?? call?.typeArguments;
  return params?.params?.length === 1 ? params.params[0] : null;
}

/** Types the value at `p` is declared with: the call's type argument, a cast, a variable annotation. */
export function typesAt(p: P): N[] {
  const out: N[] = [];
  const arg = callTypeArgument(p);
  if (arg) out.push(arg);
  let q = p;
  for (let parent = parentOf(q); parent; q = parent, parent = parentOf(q)) {
    const pn = parent.value;
    if ((pn.type === 'TSAsExpression' || pn.type === 'TSSatisfiesExpression') && pn.expression === q.value) {
      out.push(pn.typeAnnotation);
      continue;
    }
    if (pn.type === 'ParenthesizedExpression' || pn.type === 'TSNonNullExpression' || (pn.type === 'AwaitExpression' && pn.argument === q.value)) continue;
    if (pn.type === 'VariableDeclarator' && pn.init === q.value && pn.id.type === 'Identifier' && pn.id.typeAnnotation) out.push((pn.id.typeAnnotation as t.TSTypeAnnotation).typeAnnotation);
    break;
  }
  return out;
}

/** The element type of `X[]` / `Array<X>` / `ReadonlyArray<X>`, or null. */
export function elementType(t: N): N | null {
  if (t?.type === 'TSArrayType') return t.elementType;
  if (t?.type === 'TSTypeReference' && t.typeName.type === 'Identifier' && (t.typeName.name === 'Array' || t.typeName.name === 'ReadonlyArray')) {
    // `typeArguments` is Babel 8's name for it.
    const params = t.typeParameters ?? (t as { typeArguments?: typeof t.typeParameters }).typeArguments;
    return params?.params?.length === 1 ? params.params[0] : null;
  }
  return null;
}

export interface TypeMember {
  /** The declaration's name (`Pod`). */
  typeName: string;
  name: string;
  key: N;
  signature: N;
  /** The declaration is exported: code outside what the tool follows may read the type too. */
  exported: boolean;
}

/** Property signatures of the interface or type alias a type reference names, in the same file. */
export function membersOf(t: N, at: P): TypeMember[] {
  if (t?.type === 'TSTypeLiteral') return signatures('(inline type)', t.members, false);
  if (t?.type !== 'TSTypeReference' || t.typeName.type !== 'Identifier') return [];
  const name: string = t.typeName.name;
  const program = programOf(at).value;
  for (const stmt of program.body as N[]) {
    const decl = stmt.type === 'ExportNamedDeclaration' ? stmt.declaration : stmt;
    if (!decl || (decl as { id?: { name?: string } | null }).id?.name !== name) continue;
    const exported = stmt.type === 'ExportNamedDeclaration';
    if (decl.type === 'TSInterfaceDeclaration') return signatures(name, decl.body.body, exported);
    if (decl.type === 'TSTypeAliasDeclaration' && decl.typeAnnotation.type === 'TSTypeLiteral') return signatures(name, decl.typeAnnotation.members, exported);
  }
  return [];
}

function signatures(typeName: string, members: readonly N[], exported: boolean): TypeMember[] {
  const out: TypeMember[] = [];
  for (const m of members) {
    if (m.type !== 'TSPropertySignature' || m.computed) continue;
    const name = keyName(m.key);
    if (name) out.push({ typeName, name, key: m.key, signature: m, exported });
  }
  return out;
}

/** Rename a property signature's key (`desiredStatus: string` → `status: string`). */
export function renameSignature(source: string, member: TypeMember, to: string): SourceEdit[] | null {
  const key = member.key;
  if (key.type === 'Identifier') return [{ start: key.start!, end: key.end!, text: to, node: member.signature }];
  if (key.type === 'StringLiteral' && source.slice(key.start! + 1, key.end! - 1) === key.value) return [{ start: key.start! + 1, end: key.end! - 1, text: to, node: member.signature }];
  return null;
}

/** `api<Pod[]>(…)` → `api<{ pods: Pod[] }>(…)`: the call now returns the envelope. */
export function wrapTypeArgument(source: string, arg: N, key: string): SourceEdit {
  return { start: arg.start!, end: arg.end!, text: `{ ${key}: ${source.slice(arg.start!, arg.end!)} }`, node: arg };
}

