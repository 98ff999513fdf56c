/**
 * The TypeScript type of a value the response rules follow, as far as syntax shows it. The tool has
 * no type checker, yet a rewritten read must compile wherever the original did: so the type is
 * carried along the flow from what the code declares. A parsed body starts as `any` (`res.json()`,
 * axios' untyped `data`); annotations, casts and return types it passes through replace it. What
 * syntax cannot show (a type from a package, an inferred generic) is `opaque`.
 */
import { currentProject } from '../project.js';
import type { Ctx } from '../context.js';
import { isFunctionPath, keyName } from '../scope.js';
import type { CallLike, N, P, t } from '../ast.js';
import { programOf } from './tree.js';

export interface Member {
  /** The key node of the property signature (null for members the tool made up, like axios' `data`). */
  key: N | null;
  optional: boolean;
  type: () => StaticType;
}

export type StaticType = (
  | { kind: 'any' }
  | { kind: 'unknown' }
  | {
      kind: 'object';
      /** The interface or alias name, null for a type literal. */
      name: string | null;
      /** The declaration (interface, alias, or the literal itself), for messages. */
      decl: N | null;
      members: ReadonlyMap<string, Member>;
      /** The value type of an index signature (`Record<string, V>`, `{ [k: string]: V }`). */
      index: StaticType | null;
      /** Members may come from elsewhere (`extends`, declaration merging): a missing one proves nothing. */
      open: boolean;
    }
  | { kind: 'array'; element: StaticType }
  | { kind: 'promise'; of: StaticType }
  | { kind: 'opaque' }
) & {
  /** The type also allows null or undefined. */
  nullable?: boolean;
};

export const ANY: StaticType = { kind: 'any' };
export const OPAQUE: StaticType = { kind: 'opaque' };
export const UNKNOWN: StaticType = { kind: 'unknown' };

export const promiseOf = (t: StaticType): StaticType => (t.kind === 'any' ? ANY : t.kind === 'promise' ? t : { kind: 'promise', of: t });

/** `await x`: the promise's value (a non-promise stays what it is). */
export function awaited(t: StaticType): StaticType {
  return t.kind === 'promise' ? t.of : t;
}

/** The element of an array type (`x[i]`, `for (… of x)`, an array method's callback). */
export function elementOf(t: StaticType): StaticType {
  if (t.kind === 'any') return ANY;
  return t.kind === 'array' ? t.element : OPAQUE;
}

/** The type of `x.name`, as far as the declaration of `x`'s type shows it. */
export function memberOf(t: StaticType, name: string | null): StaticType {
  if (t.kind === 'any') return ANY;
  if (t.kind !== 'object') return OPAQUE;
  const m = name === null ? undefined : t.members.get(name);
  if (m) return m.optional ? { ...m.type(), nullable: true } : m.type();
  return t.index ?? OPAQUE;
}

/** `x!`. */
export function nonNull(t: StaticType): StaticType {
  if (!t.nullable) return t;
  const { nullable: _nullable, ...rest } = t;
  return rest as StaticType;
}

/** An object type with the given members (axios' response, whose `data` the call's type argument types). */
export function syntheticObject(members: Record<string, StaticType>): StaticType {
  const map = new Map<string, Member>(Object.entries(members).map(([k, v]) => [k, { key: null, optional: false, type: () => v }]));
  return { kind: 'object', name: null, decl: null, members: map, index: null, open: true };
}

/** Type parameters of a generic function or class bound to the type arguments of one call. */
export type Bindings = ReadonlyMap<string, StaticType>;

const MAX_DEPTH = 12;

/** The type a type annotation node denotes, resolving names declared in the file (or imported from the run). */
export function typeOf(node: N | null | undefined, at: P, bindings: Bindings = new Map(), depth = 0): StaticType {
  if (!node || depth > MAX_DEPTH) return OPAQUE;
  switch (node.type) {
    case 'TSTypeAnnotation':
      return typeOf(node.typeAnnotation, at, bindings, depth + 1);
    case 'TSAnyKeyword':
      return ANY;
    case 'TSUnknownKeyword':
      return UNKNOWN;
    case 'TSParenthesizedType':
      return typeOf(node.typeAnnotation, at, bindings, depth + 1);
    case 'TSTypeOperator':
      return node.operator === 'readonly' ? typeOf(node.typeAnnotation, at, bindings, depth + 1) : OPAQUE;
    case 'TSArrayType':
      return { kind: 'array', element: typeOf(node.elementType, at, bindings, depth + 1) };
    case 'TSUnionType':
      return unionOf(node.types, at, bindings, depth);
    case 'TSTypeLiteral':
      return objectOf(null, node, node.members, at, bindings, depth, false);
    case 'TSTypeReference':
      return referenceOf(node, at, bindings, depth);
    default:
      return OPAQUE;
  }
}

const NULLISH = new Set<N['type']>(['TSNullKeyword', 'TSUndefinedKeyword', 'TSVoidKeyword']);

/** `T | null | undefined` is T that may be absent; any other union is more than syntax can settle. */
function unionOf(types: readonly N[], at: P, bindings: Bindings, depth: number): StaticType {
  const rest = types.filter((t) => !NULLISH.has(t.type));
  const parts = rest.map((t) => typeOf(t, at, bindings, depth + 1));
  if (parts.some((t) => t.kind === 'any')) return ANY;
  if (parts.length !== 1) return OPAQUE;
  return rest.length < types.length ? { ...parts[0]!, nullable: true } : parts[0]!;
}

function objectOf(name: string | null, decl: N, members: readonly N[], at: P, bindings: Bindings, depth: number, open: boolean): StaticType {
  const map = new Map<string, Member>();
  let index: StaticType | null = null;
  for (const m of members) {
    if (m.type === 'TSIndexSignature') {
      const keyType = (m.parameters?.[0]?.typeAnnotation as t.TSTypeAnnotation | null | undefined)?.typeAnnotation?.type;
      if (keyType === 'TSStringKeyword') index = typeOf(m.typeAnnotation, at, bindings, depth + 1);
      continue;
    }
    if (m.type !== 'TSPropertySignature' || m.computed) {
      // Methods and computed keys: the object has members the tool does not model.
      if (m.type === 'TSMethodSignature' && !m.computed) {
        const k = keyName(m.key);
        if (k) map.set(k, { key: m.key, optional: !!m.optional, type: () => OPAQUE });
      }
      continue;
    }
    const k = keyName(m.key);
    if (!k) continue;
    let cached: StaticType | undefined;
    map.set(k, { key: m.key, optional: !!m.optional, type: () => (cached ??= typeOf(m.typeAnnotation, at, bindings, depth + 1)) });
  }
  return { kind: 'object', name, decl, members: map, index, open };
}

function referenceOf(node: t.TSTypeReference, at: P, bindings: Bindings, depth: number): StaticType {
  if (node.typeName.type !== 'Identifier') return OPAQUE;
  const name = node.typeName.name;
  // `typeArguments` is Babel 8's name for them.
  const args: N[] = (node.typeParameters ?? (node as { typeArguments?: t.TSTypeParameterInstantiation }).typeArguments)?.params ?? [];
  const arg = (i: number): StaticType => typeOf(args[i], at, bindings, depth + 1);
  const bound = bindings.get(name);
  if (bound) return bound;
  if (isTypeParameter(name, at)) return OPAQUE;
  const decl = typeDeclarationOf(name, at);
  if (decl === 'many') return OPAQUE;
  if (decl) {
    const n = decl.value;
    if (n.type === 'TSInterfaceDeclaration') return objectOf(name, n, n.body.body, decl, new Map(), depth + 1, !!n.extends?.length);
    if (n.type === 'TSTypeAliasDeclaration' && !n.typeParameters) {
      const t = typeOf(n.typeAnnotation, decl, new Map(), depth + 1);
      return t.kind === 'object' && t.name === null ? { ...t, name, decl: n } : t;
    }
    return OPAQUE;
  }
  switch (name) {
    case 'Promise':
    case 'PromiseLike':
      return args.length === 1 ? { kind: 'promise', of: arg(0) } : OPAQUE;
    case 'Array':
    case 'ReadonlyArray':
      return args.length === 1 ? { kind: 'array', element: arg(0) } : OPAQUE;
    case 'Record':
      return args.length === 2 && args[0]!.type === 'TSStringKeyword' ? { kind: 'object', name: null, decl: node, members: new Map(), index: arg(1), open: false } : OPAQUE;
    // axios' own types, as the tool models axios: the body is `data`, typed by the first argument.
    case 'AxiosResponse':
      return syntheticObject({ data: args.length ? arg(0) : ANY });
    case 'AxiosPromise':
      return { kind: 'promise', of: syntheticObject({ data: args.length ? arg(0) : ANY }) };
    default:
      return OPAQUE;
  }
}

/** Is `name` a type parameter of a function, class or alias around `at`? */
function isTypeParameter(name: string, at: P): boolean {
  for (let q: P | null = at; q; q = q.parentPath ?? null) {
    // A function's, class's or alias's TypeScript type parameters (another node has none).
    const params = (q.value as { typeParameters?: t.TSTypeParameterDeclaration | null } | null)?.typeParameters?.params;
    if (params?.some((p) => p.name === name)) return true;
  }
  return false;
}

const declarationCache = new WeakMap<object, Map<string, P | 'many' | null>>();

/**
 * The interface or type alias `name` names at `at`: declared at the top of its file, or imported from
 * a file of the run. 'many' when it is declared more than once (merged interfaces).
 */
export function typeDeclarationOf(name: string, at: P, depth = 0): P | 'many' | null {
  const program = programOf(at);
  let byName = declarationCache.get(program.value);
  if (!byName) declarationCache.set(program.value, (byName = new Map()));
  if (byName.has(name)) return byName.get(name)!;
  byName.set(name, null);
  const found = findDeclaration(program, name, depth);
  byName.set(name, found);
  return found;
}

function findDeclaration(program: P<t.Program>, name: string, depth: number): P | 'many' | null {
  const body = program.value.body;
  const hits: P[] = [];
  for (let i = 0; i < body.length; i++) {
    const stmt = body[i]!;
    const inner = stmt.type === 'ExportNamedDeclaration' || stmt.type === 'ExportDefaultDeclaration' ? stmt.declaration : stmt;
    if ((inner?.type === 'TSInterfaceDeclaration' || inner?.type === 'TSTypeAliasDeclaration') && inner.id.name === name) {
      hits.push(inner === stmt ? program.get('body', i) : program.get('body', i, 'declaration'));
    }
    if (stmt.type === 'ImportDeclaration' && depth < 4) {
      const spec = stmt.specifiers.find((s): s is t.ImportSpecifier => s.type === 'ImportSpecifier' && s.local.name === name);
      if (spec) return importedDeclaration(program, stmt.source.value, keyName(spec.imported) ?? name, depth);
    }
  }
  if (hits.length > 1) return 'many';
  return hits[0] ?? null;
}

function importedDeclaration(program: P, specifier: string, name: string, depth: number): P | 'many' | null {
  const project = currentProject();
  const target = project?.moduleFor(program, specifier);
  const exported = target && project!.exportOf(target, name);
  if (!exported || (exported.value.type !== 'TSInterfaceDeclaration' && exported.value.type !== 'TSTypeAliasDeclaration')) return null;
  // Merged declarations in the other file make it 'many' too.
  const again = typeDeclarationOf(name, exported, depth + 1);
  return again === 'many' ? 'many' : exported;
}

/** The declared type of a binding pattern (`x: T`, `{ a }: T`), if it has one. */
export function annotationOf(pattern: P): N | null {
  const n = pattern.value;
  if (n?.type === 'AssignmentPattern') return (n.left as t.Identifier).typeAnnotation ?? null;
  if (n?.type === 'TSParameterProperty') return annotationOf(pattern.get('parameter'));
  return (n as t.Identifier | undefined)?.typeAnnotation ?? null;
}

/**
 * What a call of `fn` evaluates to, given what its body returns: its declared return type (with the
 * call's type arguments bound to its type parameters), else the returned value's type, as a promise
 * for an async function.
 */
export function returnTypeOf(fn: P<t.Function>, returned: StaticType, call: P<CallLike> | null): StaticType {
  const declared = fn.value.returnType;
  if (declared) return typeOf(declared, fn, call ? typeArgumentBindings(fn, call) : new Map());
  return fn.value.async ? promiseOf(awaited(returned)) : returned;
}

/**
 * `api<Pod[]>(…)` of `function api<T>(…): Promise<T>`: T is Pod[] (resolved where the call is written).
 * Without a type argument, a T no parameter mentions has nothing to be inferred from: TypeScript
 * takes its default, else its constraint, else `unknown`. One a parameter mentions is inferred from
 * the arguments, which syntax does not settle.
 */
function typeArgumentBindings(fn: P<t.Function>, call: P<CallLike>): Bindings {
  const params = (fn.value.typeParameters as t.TSTypeParameterDeclaration | null | undefined)?.params ?? [];
  const args: N[] = (call.value.typeParameters ?? call.value.typeArguments)?.params ?? [];
  const out = new Map<string, StaticType>();
  params.forEach((p, i) => {
    if (args[i]) out.set(p.name, typeOf(args[i], call));
    else if (!mentionedByParams(fn.value, p.name)) out.set(p.name, p.default ? typeOf(p.default, fn) : p.constraint ? typeOf(p.constraint, fn) : UNKNOWN);
  });
  return out;
}

/** Does a parameter's type annotation name the type `name`? */
function mentionedByParams(fn: t.Function, name: string): boolean {
  const mentions = (n: N | null): boolean => {
    if (!n || typeof n !== 'object') return false;
    if (n.type === 'TSTypeReference' && n.typeName?.type === 'Identifier' && n.typeName.name === name) return true;
    const fields = n as unknown as Record<string, N | Array<N | null> | null>;
    return Object.keys(n).some((k) => k !== 'loc' && k !== 'extra' && (Array.isArray(fields[k]) ? (fields[k] as Array<N | null>).some(mentions) : (fields[k] as N | null)?.type ? mentions(fields[k] as N) : false));
  };
  return (fn.params as N[]).some(mentions);
}

/**
 * Type parameters of the request's wrappers, bound by the calls that entered them (the walk's frames):
 * inside `function api<T>(…)` called as `api<Pod[]>(…)`, T is Pod[].
 */
export function frameBindings(at: P, ctx: Ctx): Bindings {
  const out = new Map<string, StaticType>();
  for (let q: P | null = at; q; q = q.parentPath ?? null) {
    const frame = isFunctionPath(q) ? ctx.get(q.value) : undefined;
    if (!frame) continue;
    for (const [name, t] of typeArgumentBindings(q as P<t.Function>, frame.call)) if (!out.has(name)) out.set(name, t);
  }
  return out;
}
