import { establishesScope, scanBindings, type Steps } from './bindings.js';
import type { N, P, t } from './ast.js';
import type { NodePath } from './path.js';
import { LIST_QUERY_NAME } from '../adapters/adapter-file.js';

export type Binding =
  | { kind: 'param'; fn: P<t.Function>; index: number; keyPath: string[]; defaultValue: P | null }
  | { kind: 'var'; declarator: P<t.VariableDeclarator>; init: P | null; keyPath: string[]; reassigned: boolean }
  | { kind: 'function'; fn: P<t.Function> }
  | { kind: 'class'; cls: P<t.Class> }
  | { kind: 'import'; source: string; imported: string; specifier: P<ImportSpecifierNode> }
  | { kind: 'global'; name: string }
  | { kind: 'other' };

type ImportSpecifierNode = t.ImportSpecifier | t.ImportDefaultSpecifier | t.ImportNamespaceSpecifier;

/** The types of `t.Function`, Babel's alias for every function node. */
export const FUNCTION_TYPES = new Set<string>([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ObjectMethod',
  'ClassMethod',
  'ClassPrivateMethod',
] satisfies Array<t.Function['type']>);

export const isFunction = (node: N | null | undefined): node is t.Function => !!node && FUNCTION_TYPES.has(node.type);
/** `isFunction` of a path's value, narrowing the path. */
export const isFunctionPath = (path: P): path is P<t.Function> => isFunction(path.value);

const TRANSPARENT = new Set<string>([
  'TSAsExpression',
  'TSSatisfiesExpression',
  'TSNonNullExpression',
  'TSTypeAssertion',
  'TypeCastExpression',
  'ParenthesizedExpression',
  'AwaitExpression',
] satisfies Array<N['type']>);

/** Skip type assertions, parentheses and `await` around an expression. */
export function unwrap(path: NodePath): P {
  let p: P = path;
  for (;;) {
    if (p.node && TRANSPARENT.has(p.node.type)) p = p.get(p.node.type === 'AwaitExpression' ? 'argument' : 'expression');
    else if (isQueryGuard(p.node)) p = p.get('arguments', 1);
    else return p;
  }
}

/**
 * `v2ListQuery('ListPods', query)`, the generated list-query guard (adapters/list-query.ts): it hands
 * its query back unchanged (or throws), so the analysis sees straight through it, and a later run reads
 * the query it guards as before.
 */
function isQueryGuard(n: N | null | undefined): boolean {
  return n?.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === LIST_QUERY_NAME && n.arguments.length === 2 && n.arguments[0]?.type === 'StringLiteral' && n.arguments[1]?.type !== 'SpreadElement';
}

/** Name of a non-computed property key (or a string-literal key). */
export function keyName(node: N | null | undefined, computed = false): string | null {
  if (!node) return null;
  if (!computed && node.type === 'Identifier') return node.name;
  if (node.type === 'StringLiteral') return node.value;
  if (!computed && node.type === 'PrivateName') return `#${node.id.name}`;
  return null;
}

export function memberName(node: N): string | null {
  if (node.type !== 'MemberExpression' && node.type !== 'OptionalMemberExpression') return null;
  return keyName(node.property, node.computed);
}

const reassignedCache = new WeakMap<object, Set<string>>();

/** Names assigned to after their declaration anywhere inside the scope's node. */
function reassignedNames(scopePath: P): Set<string> {
  const cached = reassignedCache.get(scopePath.node);
  if (cached) return cached;
  const names = new Set<string>();
  const visit = (node: N | null): void => {
    if (!node || typeof node.type !== 'string') return;
    if (node.type === 'AssignmentExpression' && node.left.type === 'Identifier') names.add(node.left.name);
    if (node.type === 'UpdateExpression' && node.argument.type === 'Identifier') names.add(node.argument.name);
    for (const key of Object.keys(node)) {
      if (key === 'loc' || key === 'tokens' || key === 'comments' || key === 'extra') continue;
      const child = (node as unknown as Record<string, unknown>)[key] as N | Array<N | null> | null;
      if (Array.isArray(child)) child.forEach(visit);
      else if (child && typeof child.type === 'string') visit(child);
    }
  };
  visit(scopePath.node);
  reassignedCache.set(scopePath.node, names);
  return names;
}

/** A Program, function or catch clause (or a class or type declaration, which only scope type names). */
export class Scope {
  private declared: Map<string, Steps[]> | null = null;

  constructor(
    readonly path: P,
    readonly parent: Scope | null,
  ) {}

  get node(): N {
    return this.path.value;
  }

  declares(name: string): boolean {
    return this.bindings().has(name);
  }

  /** The path of the identifier that first declares `name` in this scope. */
  declaration(name: string): P | undefined {
    const steps = this.bindings().get(name)?.[0];
    return steps && this.path.get(...steps);
  }

  private bindings(): Map<string, Steps[]> {
    return (this.declared ??= scanBindings(this.node));
  }
}

const scopes = new WeakMap<object, Scope>();

/** The innermost scope around `path` (its own, if its node starts one). */
function scopeOf(path: P | null): Scope | null {
  for (let p = path; p; p = p.parentPath) {
    if (!establishesScope(p.value)) continue;
    let scope = scopes.get(p.value);
    if (!scope) scopes.set(p.value, (scope = new Scope(p, scopeOf(p.parentPath))));
    return scope;
  }
  return null;
}

/** The scope that declares `name`, seen from `path`, or null for a global. */
export function lookupScope(path: P, name: string): Scope | null {
  for (let scope = scopeOf(path); scope; scope = scope.parent) if (scope.declares(name)) return scope;
  return null;
}

const bindingsOf = new WeakMap<P, Binding>();

/** Resolve what an identifier refers to, through the scopes around it (once per identifier: rules ask again and again). */
export function bindingOf(idPath: P): Binding {
  let binding = bindingsOf.get(idPath);
  if (!binding) bindingsOf.set(idPath, (binding = resolveBinding(idPath)));
  return binding;
}

function resolveBinding(idPath: P): Binding {
  const name = (idPath.node as t.Identifier).name;
  const scope = lookupScope(idPath, name);
  if (!scope) return parameterProperty(idPath, name) ?? { kind: 'global', name };
  const decl = scope.declaration(name);
  if (!decl) return { kind: 'other' };
  // Climb out of destructuring patterns, remembering the property path.
  const keyPath: string[] = [];
  let top = decl;
  for (;;) {
    const parent = top.parentPath?.node;
    const parentPath: P | undefined = top.parentPath;
    if (!parent || !parentPath) break;
    if (parent.type === 'ObjectProperty' && top.name === 'value') {
      const k = keyName(parent.key, parent.computed);
      if (k === null) return { kind: 'other' };
      keyPath.unshift(k);
      top = parentPath.parentPath.parentPath; // property -> properties[] -> ObjectPattern
      continue;
    }
    // `const { json, ...rest } = init`: `rest` reads like `init` (the keys taken out are named, so never asked for).
    if (parent.type === 'RestElement' && top.name === 'argument' && parentPath.parentPath?.parentPath?.node?.type === 'ObjectPattern') {
      top = parentPath.parentPath.parentPath;
      continue;
    }
    if (parent.type === 'AssignmentPattern' && top.name === 'left' && parentPath.parentPath?.node?.type === 'ObjectProperty') {
      top = parentPath;
      continue;
    }
    break;
  }
  const holder = top.parentPath?.node;
  if (!holder) return { kind: 'other' };
  // Below, `top.parentPath` is the path of `holder`, whose type each test has narrowed.
  if (holder.type === 'VariableDeclarator' && top.name === 'id') {
    const declaration = top.parentPath.parentPath.parentPath?.node as t.VariableDeclaration | undefined;
    const reassigned = declaration?.kind !== 'const' && reassignedNames(scope.path).has(name);
    return { kind: 'var', declarator: top.parentPath as P<t.VariableDeclarator>, init: holder.init ? top.parentPath.get('init') : null, keyPath, reassigned };
  }
  if (holder.type === 'AssignmentPattern' && top.name === 'left' && isFunction(top.parentPath.parentPath?.parentPath?.node)) {
    const fn = top.parentPath.parentPath.parentPath as P<t.Function>;
    return { kind: 'param', fn, index: Number(top.parentPath.name), keyPath, defaultValue: top.parentPath.get('right') };
  }
  if (holder.type === 'TSParameterProperty') {
    const fn = top.parentPath.parentPath.parentPath as P<t.Function>;
    return { kind: 'param', fn, index: Number(top.parentPath.name), keyPath, defaultValue: null };
  }
  if (isFunction(holder) && top.parentPath.name === 'params') {
    return { kind: 'param', fn: top.parentPath.parentPath as P<t.Function>, index: Number(top.name), keyPath, defaultValue: null };
  }
  if (isFunction(holder) && top.name === 'id') return { kind: 'function', fn: top.parentPath as P<t.Function> };
  if ((holder.type === 'ClassDeclaration' || holder.type === 'ClassExpression') && top.name === 'id') return { kind: 'class', cls: top.parentPath as P<t.Class> };
  if (holder.type === 'ImportDefaultSpecifier' || holder.type === 'ImportNamespaceSpecifier' || holder.type === 'ImportSpecifier') {
    const source = (top.parentPath.parentPath.parentPath.node as t.ImportDeclaration).source.value;
    const imported = holder.type === 'ImportDefaultSpecifier' ? 'default' : holder.type === 'ImportNamespaceSpecifier' ? '*' : (keyName(holder.imported) ?? name);
    return { kind: 'import', source, imported, specifier: top.parentPath as P<ImportSpecifierNode> };
  }
  return { kind: 'other' };
}

/** TypeScript `constructor(private base: string)`: scopes do not declare these names (as in ast-types). */
function parameterProperty(idPath: P, name: string): Binding | null {
  for (let fn = isFunctionPath(idPath) ? idPath : enclosingFunction(idPath); fn; fn = enclosingFunction(fn)) {
    const index = fn.node.params.findIndex((p) => p.type === 'TSParameterProperty' && (p.parameter.type === 'Identifier' ? p.parameter.name : (p.parameter.left as t.Identifier).name) === name);
    if (index >= 0) {
      const param = (fn.node.params[index] as t.TSParameterProperty).parameter;
      return { kind: 'param', fn, index, keyPath: [], defaultValue: param.type === 'AssignmentPattern' ? fn.get('params', index, 'parameter', 'right') : null };
    }
  }
  return null;
}

/** The nearest enclosing function path (or null at module level). */
export function enclosingFunction(path: P): P<t.Function> | null {
  // `.value`, not `.node`: for an array path `.node` is the parent node.
  let p: P | null = path.parentPath;
  while (p && !isFunction(p.value)) p = p.parentPath;
  return p as P<t.Function> | null;
}

/** The class whose `this` an expression inside `path` refers to (arrow functions are transparent). */
export function enclosingClass(path: P): P | null {
  let p: P | null = path.parentPath;
  while (p) {
    const t = p.value?.type;
    if (t === 'FunctionDeclaration' || t === 'FunctionExpression' || t === 'ObjectMethod') return null;
    if (t === 'ClassBody') return p.parentPath;
    p = p.parentPath;
  }
  return null;
}

/** `require('x')` → 'x'. */
export function requiredModule(node: N): string | null {
  if (node?.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'StringLiteral') {
    return node.arguments[0].value;
  }
  return null;
}
