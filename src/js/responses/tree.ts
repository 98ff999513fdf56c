/**
 * Navigation the response rules need on top of scope.ts: a per-file index of identifiers, calls and
 * member reads, references of a binding, callers of a function, and the syntactic role of a node in
 * its parent.
 */
import { EMPTY_CTX } from '../context.js';
import { enclosingFunction, isFunction, isFunctionPath, keyName, lookupScope } from '../scope.js';
import type { N, P, t } from '../ast.js';
import type { NodePath } from '../path.js';
import { currentProject } from '../project.js';
import { isResolved, resolveExpr, typedReceiverMethod } from '../values.js';
import { pathsMatching } from '../walk.js';

/** The Program path above any path. */
export function programOf(path: NodePath): P<t.Program> {
  let p: P = path;
  while (p.parentPath) p = p.parentPath;
  // The File node sits above Program when the parser hands back a File.
  return (p.value?.type === 'File' ? p.get('program') : p) as P<t.Program>;
}

/** Paths of the nodes under `root` that `match` accepts, in source order, skipping type-only syntax. */
export function findPaths<T extends N>(root: P, match: (n: N) => n is T): Array<P<T>> {
  return pathsMatching(root, match, { skipTypes: true });
}

type Call = t.CallExpression | t.OptionalCallExpression;

const identCache = new WeakMap<object, Map<string, Array<P<t.Identifier>>>>();
const callCache = new WeakMap<object, Map<string, Array<P<Call>>>>();

function cached<T extends N>(cache: WeakMap<object, Map<string, Array<P<T>>>>, anyPath: P, name: string, match: (n: N) => n is T): Array<P<T>> {
  const program = programOf(anyPath);
  let byName = cache.get(program.value);
  if (!byName) cache.set(program.value, (byName = new Map()));
  let hit = byName.get(name);
  if (!hit) byName.set(name, (hit = pathsMatching(program, match, { skipTypes: true })));
  return hit;
}

/** Identifier paths named `name` in the file of `anyPath`. */
export function identifiersNamed(anyPath: P, name: string): Array<P<t.Identifier>> {
  return cached(identCache, anyPath, name, (n): n is t.Identifier => n.type === 'Identifier' && n.name === name);
}

/** Calls of `name(…)` or `x.name(…)` in the file of `anyPath`. */
export function callsNamed(anyPath: P, name: string): Array<P<Call>> {
  return cached(callCache, anyPath, name, (n): n is Call => {
    if (n.type !== 'CallExpression' && n.type !== 'OptionalCallExpression') return false;
    const c = n.callee;
    if (c.type === 'Identifier') return c.name === name;
    return (c.type === 'MemberExpression' || c.type === 'OptionalMemberExpression') && !c.computed && c.property.type === 'Identifier' && c.property.name === name;
  });
}

/** The node path above `p`, skipping array containers (`p.parentPath` of an argument is the array). */
export function parentOf(p: P): P | null {
  let q: P | null = p.parentPath ?? null;
  while (q && Array.isArray(q.value)) q = q.parentPath ?? null;
  return q;
}

/** Is this Identifier a name read or written as a variable (not a property key, label or import name)? */
function isVariablePosition(p: P): boolean {
  const parent = parentOf(p);
  if (!parent) return false;
  const pn = parent.value;
  const n = p.value;
  switch (pn.type) {
    case 'MemberExpression':
    case 'OptionalMemberExpression':
      return pn.object === n || (pn.computed && pn.property === n);
    case 'ObjectProperty':
    case 'ClassProperty':
      return pn.value === n || (pn.computed && pn.key === n);
    case 'ObjectMethod':
    case 'ClassMethod':
      return pn.computed && pn.key === n;
    case 'ClassPrivateProperty':
      return pn.value === n;
    case 'LabeledStatement':
    case 'BreakStatement':
    case 'ContinueStatement':
    case 'ImportSpecifier':
    case 'ImportDefaultSpecifier':
    case 'ImportNamespaceSpecifier':
    case 'ExportSpecifier':
    case 'MetaProperty':
      return false;
    default:
      return true;
  }
}

/** Identifier paths that read the variable declared at `idPath` (its declaration excluded). */
export function referencesOf(idPath: P): P[] {
  const name = (idPath.value as t.Identifier).name;
  const scope = lookupScope(idPath, name);
  if (!scope) return [];
  const out: P[] = [];
  for (const ref of identifiersNamed(idPath, name)) {
    if (ref.value === idPath.value || !isVariablePosition(ref)) continue;
    if (ref.value.start! < scope.node.start! || ref.value.end! > scope.node.end!) continue;
    if (lookupScope(ref, name)?.node !== scope.node) continue;
    if (isWriteTarget(ref)) continue;
    out.push(ref);
  }
  return out;
}

/** `x = …`, `x++`, or a name declared by a pattern. */
function isWriteTarget(p: P): boolean {
  const parent = parentOf(p);
  const pn = parent?.value;
  if (!pn) return false;
  if (pn.type === 'AssignmentExpression' && pn.left === p.value) return true;
  if (pn.type === 'UpdateExpression') return true;
  if (pn.type === 'VariableDeclarator' && pn.id === p.value) return true;
  if (isFunction(pn) && (pn.params as N[]).includes(p.value)) return true;
  if (pn.type === 'ObjectProperty' && parentOf(parent!)?.value.type === 'ObjectPattern') return true;
  if (pn.type === 'ArrayPattern' || pn.type === 'RestElement' || (pn.type === 'AssignmentPattern' && pn.left === p.value)) return true;
  return false;
}

export const isIdentifierPath = (p: P): p is P<t.Identifier> => p.value.type === 'Identifier';

/** What a function hands back: an arrow's expression body, or the argument of each `return` of its own. */
export function returnedExpressions(fn: P<t.Function>): P[] {
  if (fn.value.body.type !== 'BlockStatement') return [fn.get('body')];
  return pathsMatching(fn.get('body'), (n): n is t.ReturnStatement => n.type === 'ReturnStatement')
    .filter((r) => r.value.argument && enclosingFunction(r)?.value === fn.value)
    .map((r) => r.get('argument'));
}

/** Assignments that put a value in a variable whatever it held (`x = …`, or `x ||= …` / `x ??= …` that may). */
const STORING = new Set(['=', '||=', '??=']);

/**
 * The expressions a variable declared at `idPath` is given: its initialiser, and the right side of
 * each assignment to it (`body = await res.json()` in a try, `body = { message }` in its catch).
 */
export function writesOf(idPath: P<t.Identifier>): P[] {
  const name = idPath.value.name;
  const scope = lookupScope(idPath, name);
  if (!scope) return [];
  const out: P[] = [];
  const declarator = parentOf(idPath);
  if (declarator?.value.type === 'VariableDeclarator' && declarator.value.id === idPath.value && declarator.value.init) out.push(declarator.get('init'));
  for (const ref of identifiersNamed(idPath, name)) {
    const assign = parentOf(ref);
    if (assign?.value.type !== 'AssignmentExpression' || assign.value.left !== ref.value || !STORING.has(assign.value.operator)) continue;
    if (lookupScope(ref, name)?.node === scope.node) out.push(assign.get('right'));
  }
  return out;
}

/** Every reference of a function declared by name or bound to a variable (used to judge sharing). */
export function referenceCount(fn: P): number {
  const id = functionNameId(fn);
  return id ? referencesOf(id).length : Infinity;
}

/** The identifier that names a function: its declaration id or the variable it initialises. */
export function functionNameId(fn: P): P | null {
  if (fn.value.type === 'FunctionDeclaration' && fn.value.id) return fn.get('id');
  const parent = parentOf(fn);
  if (parent?.value.type === 'VariableDeclarator' && parent.value.init === fn.value && parent.value.id.type === 'Identifier') return parent.get('id');
  return null;
}

const callerCache = new WeakMap<object, Array<P<Call>>>();

/** The name a function is called by: its declaration id, the variable, property or method it is bound to. */
function calledName(fn: P): string | null {
  const n = fn.value;
  const id = (n as { id?: N | null }).id;
  if (id?.type === 'Identifier') return id.name;
  if ((n.type === 'ClassMethod' || n.type === 'ObjectMethod') && !n.computed) return keyName(n.key);
  const parent = parentOf(fn);
  const pn = parent?.value;
  if (pn?.type === 'VariableDeclarator' && pn.init === n && pn.id.type === 'Identifier') return pn.id.name;
  if ((pn?.type === 'ObjectProperty' || pn?.type === 'ClassProperty') && pn.value === n && !pn.computed) return keyName(pn.key);
  if (pn?.type === 'AssignmentExpression' && pn.right === n) return pn.left.type === 'Identifier' ? pn.left.name : pn.left.type === 'MemberExpression' && !pn.left.computed ? keyName(pn.left.property) : null;
  return null;
}

/** Calls in the file whose callee resolves to `fn`. */
export function callersOf(fn: P): Array<P<Call>> {
  const hit = callerCache.get(fn.value);
  if (hit) return hit;
  const out: Array<P<Call>> = [];
  callerCache.set(fn.value, out);
  const name = calledName(fn);
  if (!name) return out;
  const project = currentProject();
  project?.lookedPast(project.fileAt(fn.value.start!));
  // This file, then the other files of the run that mention the name (imports are followed by resolveExpr).
  const programs = [programOf(fn)];
  for (const file of project?.filesCalling(name) ?? []) {
    const program = programOf(file.parsed!.root);
    if (program.value !== programs[0]!.value) programs.push(program);
  }
  for (const program of programs) {
    for (const call of callsNamed(program, name)) {
      const r = resolveExpr(call.get('callee'), EMPTY_CTX);
      if ((isResolved(r) && r.path.value === fn.value) || typedReceiverMethod(call.get('callee'))?.value === fn.value) out.push(call);
    }
  }
  return out;
}

/** Enclosing functions of a path, innermost first. */
export function enclosingFunctions(p: P): Array<P<t.Function>> {
  const out: Array<P<t.Function>> = [];
  for (let q = parentOf(p); q; q = parentOf(q)) if (isFunctionPath(q)) out.push(q);
  return out;
}

const TRANSPARENT = new Set<N['type']>(['ParenthesizedExpression', 'TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'TSTypeAssertion', 'TypeCastExpression']);

type Transparent = t.ParenthesizedExpression | t.TSAsExpression | t.TSSatisfiesExpression | t.TSNonNullExpression | t.TSTypeAssertion | t.TypeCastExpression;
const isTransparent = (n: N): n is Transparent => TRANSPARENT.has(n.type);

/** Is `parent` a wrapper that only changes the type (or adds parentheses) of `child`? */
export function isTransparentParent(parent: N, child: N): boolean {
  return isTransparent(parent) && parent.expression === child;
}

/** The expression inside type assertions and parentheses: `(x as T)!` → `x`. */
export function bareExpression(n: N): N {
  let x = n;
  while (isTransparent(x)) x = x.expression;
  return x;
}

/** Climb type assertions and parentheses: the outermost path with the same value as `p`. */
export function climb(p: P): P {
  let q = p;
  for (let parent = parentOf(q); parent && isTransparentParent(parent.value, q.value); parent = parentOf(q)) q = parent;
  return q;
}

/** A member expression's property name: `a.b`, `a['b']`, or a numeric index as its digits. */
export function propertyName(member: t.MemberExpression | t.OptionalMemberExpression): string | null {
  const prop = member.property;
  if (!member.computed) return prop.type === 'Identifier' ? prop.name : null;
  if (prop.type === 'StringLiteral') return prop.value;
  if (prop.type === 'NumericLiteral') return String(prop.value);
  return null;
}


/** Is the expression at `p` written to (`x.a = …`, `x.a++`, `delete x.a`, a destructuring or loop target)? */
export function isAssignmentTarget(p: P): boolean {
  const q = climb(p);
  const parent = parentOf(q);
  const pn = parent?.value;
  if (!pn) return false;
  if (pn.type === 'AssignmentExpression' || pn.type === 'ForInStatement' || pn.type === 'ForOfStatement') return pn.left === q.value;
  if (pn.type === 'UpdateExpression') return true;
  if (pn.type === 'UnaryExpression') return pn.operator === 'delete';
  if (pn.type === 'ArrayPattern' || pn.type === 'RestElement') return true;
  if (pn.type === 'AssignmentPattern') return pn.left === q.value;
  return pn.type === 'ObjectProperty' && pn.value === q.value && parentOf(parent!)?.value.type === 'ObjectPattern';
}
