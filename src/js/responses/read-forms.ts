/**
 * Which form a rewritten response read takes, from the type the value is declared with
 * (static-type.ts): the rewrite must compile wherever the v1 read did, and must not throw where it
 * did not. Where no form is certain, the read is held and the reason says what a person must do.
 */
import path from 'node:path';
import { currentProject } from '../project.js';
import { enclosingFunction } from '../scope.js';
import type { N, P, t } from '../ast.js';
import { unhandled } from '../exhaustive.js';
import { pathsMatching } from '../walk.js';
import type { NestForm } from './edits.js';
import { memberOf, type StaticType } from './static-type.js';

/** Is the read in a TypeScript file (where types must still check)? */
function isTypeScriptAt(node: N): boolean {
  const file = currentProject()?.fileAt(node.start!).file ?? '';
  return /\.(m|c)?tsx?$/.test(file);
}

/** Can `x.name` be read on a value of type t: yes, no (the declaration lacks it), or not visible. */
type Access = 'yes' | 'no' | 'unseen';

function access(t: StaticType, name: string): Access {
  switch (t.kind) {
    case 'any':
    case 'unknown': // the v1 read did not compile either: nothing new breaks
      return 'yes';
    case 'object':
      if (t.members.has(name) || t.index) return 'yes';
      return t.open ? 'unseen' : 'no';
    case 'array':
    case 'promise':
      return 'no';
    case 'opaque':
      return 'unseen';
    default:
      return unhandled(t);
  }
}

/** `PodInfo (line 12)`, `PodInfo (line 3 of types.ts)`, `an inline type (line 4)`, for messages about a read at `from`. */
function describeType(t: StaticType, from: N): string {
  if (t.kind === 'object') {
    const line = t.decl?.loc?.start.line;
    const project = currentProject();
    const file = t.decl && project ? project.fileAt(t.decl.start!).file : null;
    const other = file && file !== project!.fileAt(from.start!).file ? ` of ${path.basename(file)}` : '';
    const at = line ? ` (line ${line}${other})` : '';
    return t.name ? `${t.name}${at}` : `an inline type${at}`;
  }
  if (t.kind === 'array') return 'an array type';
  if (t.kind === 'promise') return 'a promise type';
  return 'a type';
}

/** The value's type is declared where the tool cannot see it (a package, an `extends`, an inferred generic). */
const unseen = (read: string): string => `the tool cannot see the type this value is declared with, so ${read} might not compile: make sure that type has it, then change this by hand`;

function declaredWithout(t: StaticType, from: string, to: string, at: N): string {
  return `its type ${describeType(t, at)} declares the v1 "${from}", not "${to}": update the type to the v2 shape (or generate types from the v2 schema), then read .${to} here`;
}

export type RenamePlan = { ok: true; /** A type literal member to rename along (the literal types only this value). */ literalKey: N | null } | { ok: false; why: string };

/**
 * `x.desiredStatus` → `x.status` on a value of type t. A type literal written for this value is renamed
 * with it; a named type is not (other values may have it, and the tool cannot see their reads), unless
 * its member is already being renamed (`renamed`: keys planTypes renames).
 */
export function planRename(t: StaticType | undefined, from: string, to: string, at: N, renamed: ReadonlySet<N>): RenamePlan {
  if (!isTypeScriptAt(at) || !t) return { ok: true, literalKey: null };
  const a = access(t, to);
  if (a === 'yes') return { ok: true, literalKey: null };
  if (a === 'unseen') return { ok: false, why: unseen(`.${to}`) };
  const own = t.kind === 'object' ? t.members.get(from) : undefined;
  if (own && (renamed as ReadonlySet<N | null>).has(own.key)) return { ok: true, literalKey: null };
  if (own && t.kind === 'object' && t.name === null && t.decl?.type === 'TSTypeLiteral') {
    // `return this.call<{ imageName: string }>(…)` in a function declared `Promise<{ imageName: string }>`:
    // the value is typed twice, and renaming the type argument alone breaks the declared return type.
    const line = returnTypeAlsoDeclared(t.decl);
    if (line !== null) return { ok: false, why: `its type is written twice: in the call's type argument and in the declared return type of the function that returns it (line ${line}); rename "${from}" to "${to}" in both, then read .${to} here` };
    return { ok: true, literalKey: own.key };
  }
  return { ok: false, why: declaredWithout(t, from, to, at) };
}

/** The line of a declared return type that also types the value of the call this type literal is an argument of, or null. */
export function returnTypeAlsoDeclared(literal: N): number | null {
  const file = currentProject()?.fileAt(literal.start!);
  if (!file?.parsed) return null;
  let p: P | null | undefined = pathsMatching(file.parsed.root.get('program'), (n) => n === literal)[0];
  if (!p || p.parent?.value.type !== 'TSTypeParameterInstantiation') return null;
  p = p.parent.parent;
  if (!p || !/CallExpression$/.test(p.value.type)) return null;
  while (p.parent && ['AwaitExpression', 'ParenthesizedExpression', 'TSAsExpression'].includes(p.parent.value.type)) p = p.parent;
  const holder = p.parent?.value;
  const fn = holder?.type === 'ReturnStatement' ? enclosingFunction(p) : holder && /Function/.test(holder.type) && (holder as t.ArrowFunctionExpression).body === p.value ? (p.parent as P<t.Function>) : null;
  return fn?.value.returnType ? fn.value.returnType.loc?.start.line ?? 0 : null;
}

export type NestPlan = { ok: true; form: NestForm } | { ok: false; why: string };

/** `x.workersMin` → workers.min on a value of type t (`write`: the read is assigned to). */
export function planNest(t: StaticType | undefined, from: string, to: string, at: N, write: boolean): NestPlan {
  const [head, ...rest] = to.split('.') as [string, ...string[]];
  if (write) return { ok: false, why: `it is assigned to, and v2 nests the field under "${head}", which may be absent: change it by hand` };
  if (!isTypeScriptAt(at) || !t) return { ok: true, form: 'optional' };
  switch (t.kind) {
    case 'any':
      return { ok: true, form: 'optional' };
    case 'unknown':
      return { ok: true, form: 'cast' };
    case 'object': {
      if (t.members.has(head)) {
        const parent = memberOf(t, head);
        if (parent.kind === 'any') return { ok: true, form: 'optional' };
        if (parent.kind === 'unknown') return { ok: true, form: 'cast' };
        const inner = rest.length === 1 ? access(parent, rest[0]!) : 'unseen';
        if (parent.kind === 'object' && inner === 'yes') return { ok: true, form: parent.nullable ? 'optional' : 'plain' };
        if (parent.kind === 'opaque' || inner === 'unseen') return { ok: false, why: unseen(`.${to}`) };
        return { ok: false, why: declaredWithout(t, from, to, at) };
      }
      // An index signature: `x.workers` is its value type.
      if (t.index?.kind === 'any') return { ok: true, form: 'optional' };
      if (t.index?.kind === 'unknown') return { ok: true, form: 'cast' };
      if (t.open || t.index) return { ok: false, why: unseen(`.${to}`) };
      return { ok: false, why: declaredWithout(t, from, to, at) };
    }
    case 'opaque':
      return { ok: false, why: unseen(`.${to}`) };
    case 'array':
    case 'promise':
      return { ok: false, why: declaredWithout(t, from, to, at) };
    default:
      return unhandled(t);
  }
}

export type UnwrapPlan = { ok: true; cast: boolean; /** The type of the list once unwrapped. */ list: StaticType | undefined } | { ok: false; why: string };

/**
 * `body` → `body.pods` where body has type t (the awaited value). `typeArgument`: the call's type
 * argument is wrapped too (`api<{ pods: Pod[] }>`), so t is already the list's type.
 */
export function planUnwrap(t: StaticType | undefined, key: string, at: N, typeArgument: boolean): UnwrapPlan {
  if (!isTypeScriptAt(at) || !t || t.kind === 'any') return { ok: true, cast: false, list: t };
  if (typeArgument) return { ok: true, cast: false, list: t };
  if (t.kind === 'unknown') return { ok: true, cast: true, list: t };
  if (t.kind === 'object' && (t.members.has(key) || t.index)) return { ok: true, cast: false, list: memberOf(t, key) };
  const why = t.kind === 'opaque' || (t.kind === 'object' && t.open) ? unseen(`.${key}`) : `the body is declared as ${describeType(t, at)} here, which has no "${key}": update that type to the v2 envelope`;
  return { ok: false, why };
}
