import type { Project } from './project.js';
import { enclosingFunction, keyName, lookupScope, memberName } from './scope.js';
import type { N, P, t } from './ast.js';
import { returnedExpression } from './values.js';
import { pathsMatching } from './walk.js';

/**
 * Where a value is read, for coverage.ts: the reads of a variable (in its scope and in the files that
 * import it), and the reads of an object's property (`cfg.base`, `const { base } = getConfig()`).
 */

/** Syntax that passes a value through unchanged (`x as T`, `(x)`, `await x`). */
const TRANSPARENT = new Set<string>(['TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'TSTypeAssertion', 'ParenthesizedExpression', 'AwaitExpression'] satisfies Array<N['type']>);

/** The outermost path that holds the same value as `p`. */
function outward(p: P): P {
  let q = p;
  while (q.parentPath && TRANSPARENT.has(q.parentPath.value?.type)) q = q.parentPath;
  return q;
}

/** Identifier reads of a variable: in its own scope, and in project files that import it. */
export function references(id: P, project: Project): N[] {
  return referencePaths(id, project).map((p) => p.node);
}

/** The same reads as paths; `skipTypes` leaves out type positions (`typeof api`). */
export function referencePaths(id: P, project: Project, options: { skipTypes?: boolean } = {}): P[] {
  const name = (id.node as t.Identifier).name;
  const scope = lookupScope(id, name);
  if (!scope) return [];
  const out: P[] = [];
  for (const p of pathsMatching(scope.path, (n) => n.type === 'Identifier' && n.name === name && n !== id.node, options)) {
    const parent = p.parentPath?.value;
    // Property keys and import and export specifiers are not reads (`import { BASE }` holds an
    // `imported` and a `local` identifier of the same name; a shorthand `{ BASE }` reads through its value).
    if ((parent?.type === 'ObjectProperty' || parent?.type === 'ClassProperty') && p.name === 'key' && !parent.computed) continue;
    if ((parent?.type === 'MemberExpression' || parent?.type === 'OptionalMemberExpression') && p.name === 'property' && !parent.computed) continue;
    if (parent?.type === 'ExportSpecifier' || parent?.type === 'ImportSpecifier') continue;
    if (lookupScope(p, name) !== scope || onlyLogged(p)) continue;
    out.push(p);
  }
  if (scope.path.value.type === 'Program') out.push(...importedReferences(id, name, project, options));
  return out;
}

const LOGGERS = new Set(['console', 'logger', 'log']);

/**
 * A read that only goes into a log line (`console.log('using', BASE)`, `logger.info(\`base ${BASE}\`)`):
 * it sends no request, so it does not hold a base back (the text engine treats print/echo alike).
 */
function onlyLogged(p: P): boolean {
  // `.parent` is the nearest node path (`.parentPath` can be an array such as the call's arguments).
  let q: P = p;
  while (q.parent && ['TemplateLiteral', 'BinaryExpression'].includes(q.parent.value.type)) q = q.parent;
  const call = q.parent?.value;
  if (call?.type !== 'CallExpression' || call.callee === q.value) return false;
  const callee = call.callee;
  return (callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && LOGGERS.has(callee.object.name)) || (callee.type === 'Identifier' && LOGGERS.has(callee.name));
}

/** References, in other project files, of an exported module-level variable (through the run's import resolution). */
function importedReferences(id: P, name: string, project: Project, options: { skipTypes?: boolean }): P[] {
  const here = project.fileAt(id.node.start!);
  const out: P[] = [];
  for (const { file: f, statement: i } of project.importersOf(here)) {
    if (f === here) continue;
    const program = f.parsed!.root.get('program') as P<t.Program>;
    (program.value.body[i] as t.ImportDeclaration).specifiers.forEach((spec, k) => {
      const local: P = program.get('body', i, 'specifiers', k, 'local');
      if (spec.type === 'ImportSpecifier' && keyName(spec.imported) === name) out.push(...referencePaths(local, project, options));
      if (spec.type === 'ImportNamespaceSpecifier') {
        out.push(...pathsMatching(program, (n) => n.type === 'MemberExpression' && n.object.type === 'Identifier' && n.object.name === spec.local.name && memberName(n) === name, options));
      }
    });
  }
  return out;
}

/** `this.name` reads in a class (not the assignments that set it). */
function thisReads(cls: P, name: string): N[] {
  return thisReadPaths(cls, name).map((p) => p.node);
}

/** The same reads as paths. */
export function thisReadPaths(cls: P, name: string): P[] {
  return pathsMatching(cls, (n) => n.type === 'MemberExpression' && n.object.type === 'ThisExpression' && memberName(n) === name).filter(
    (p) => !(p.parentPath?.value?.type === 'AssignmentExpression' && p.name === 'left'),
  );
}

/**
 * The reads of the property that holds `value` (a literal, or what a getter returns), when the object
 * it belongs to can be followed: an object held by a variable, or returned by a named function (every
 * call of it, in any file that imports it). `getConfig().rest.base`, `const { base } = getConfig()`,
 * `const cfg = getConfig(); cfg.base` are reads; reads of other properties are not; the object going
 * anywhere else (an argument, a return) is a read as a whole. Undefined when `value` is no such
 * property, null when the object leaves through an export v2-migrate does not follow (CommonJS,
 * `export default`).
 */
export function propertyReads(value: P, project: Project): N[] | null | undefined {
  const owner = owningObject(value);
  if (!owner) return undefined;
  const handles = objectHandles(owner.object, project);
  if (handles === undefined) return undefined;
  if (handles === null) return null;
  const out: N[] = [];
  return readsOf(handles, owner.keys, project, out) ? out : null;
}

/** The outermost object literal `value` is a property of, and the keys down to it (`{ rest: { base } }` → rest, base). */
function owningObject(value: P): { object: P; keys: string[] } | null {
  const keys: string[] = [];
  let at = getterOf(value) ?? value;
  for (;;) {
    const holder = at.parentPath?.value;
    if (at.node.type === 'ObjectMethod') {
      const key = keyName(at.node.key, at.node.computed);
      if (key === null) return null;
      keys.unshift(key);
      at = outward(at.parentPath.parentPath);
    } else if (holder?.type === 'ObjectProperty' && at.name === 'value') {
      const key = keyName(holder.key, holder.computed);
      if (key === null) return null;
      keys.unshift(key);
      at = outward(at.parentPath.parentPath.parentPath);
    } else break;
  }
  return keys.length ? { object: at, keys } : null;
}

/** The object getter whose one returned value `value` is (`get base() { return '…' }`). */
function getterOf(value: P): P | null {
  const q = outward(value);
  if (q.parentPath?.value?.type !== 'ReturnStatement') return null;
  const fn = enclosingFunction(q);
  return fn?.node.type === 'ObjectMethod' && fn.node.kind === 'get' && returnedExpression(fn)?.node === q.node ? fn : null;
}

/**
 * Paths whose value is the object: a variable's reads, or the calls of the named function that returns
 * it. Undefined when the object is held some other way (an argument, a class field); null when the
 * function or variable leaves through an export that is not followed, or is used other than called.
 */
function objectHandles(object: P, project: Project): P[] | null | undefined {
  const holder = object.parentPath?.value;
  if (holder?.type === 'VariableDeclarator' && object.name === 'init' && holder.id.type === 'Identifier') {
    const reads = referencePaths(object.parentPath.get('id'), project);
    return reads.some(isExported) ? null : reads;
  }
  const fn = holder?.type === 'ArrowFunctionExpression' && object.name === 'body' ? object.parentPath : holder?.type === 'ReturnStatement' ? enclosingFunction(object) : null;
  if (!fn || returnedExpression(fn)?.node !== object.node) return undefined;
  const name = functionName(fn);
  if (!name) return undefined;
  const calls: P[] = [];
  for (const ref of referencePaths(name, project)) {
    const call = ref.parentPath?.value;
    if (call?.type !== 'CallExpression' || ref.name !== 'callee') return null;
    calls.push(ref.parentPath);
  }
  return calls;
}

/** The identifier that names a function (or a class expression): its declaration's, or the variable it initializes. */
function functionName(fn: P): P | null {
  if (fn.node.type === 'FunctionDeclaration') return fn.node.id ? fn.get('id') : null;
  const at = outward(fn);
  const holder = at.parentPath?.value;
  return holder?.type === 'VariableDeclarator' && at.name === 'init' && holder.id.type === 'Identifier' ? at.parentPath.get('id') : null;
}

/** `module.exports = x`, `module.exports = { x }`, `exports.y = x`, `export default x`. */
function isExported(p: P): boolean {
  let q = outward(p);
  if (q.parentPath?.value?.type === 'ExportDefaultDeclaration') return true;
  while (q.parentPath?.value?.type === 'ObjectProperty' && q.name === 'value') q = outward(q.parentPath.parentPath.parentPath);
  const holder = q.parentPath?.value;
  if (holder?.type !== 'AssignmentExpression' || q.name !== 'right') return false;
  const left = holder.left;
  const isModule = (n: N): boolean => n.type === 'Identifier' && (n.name === 'module' || n.name === 'exports');
  return isModule(left) || (left.type === 'MemberExpression' && (isModule(left.object) || (left.object.type === 'MemberExpression' && isModule(left.object.object))));
}

/** Adds to `out` the reads of `keys` on each handle; false when one leaves through an export. */
function readsOf(handles: readonly P[], keys: readonly string[], project: Project, out: N[]): boolean {
  for (const handle of handles) {
    const at = outward(handle);
    const holder = at.parentPath?.value;
    if ((holder?.type === 'MemberExpression' || holder?.type === 'OptionalMemberExpression') && at.name === 'object') {
      const name = memberName(holder);
      if (name === null) out.push(holder);
      else if (name === keys[0] && keys.length === 1) out.push(...valueReads(at.parentPath, project));
      else if (name === keys[0] && !readsOf([at.parentPath], keys.slice(1), project, out)) return false;
      continue;
    }
    if (holder?.type === 'VariableDeclarator' && at.name === 'init') {
      const id: P = at.parentPath.get('id');
      if (id.node.type === 'Identifier') {
        const reads = referencePaths(id, project);
        if (reads.some(isExported) || !readsOf(reads, keys, project, out)) return false;
      } else if (id.node.type !== 'ObjectPattern') out.push(id.node);
      else if (!patternReads(id as P<t.ObjectPattern>, keys, project, out)) return false;
      continue;
    }
    if (isExported(at)) return false;
    if (!onlyLogged(at)) out.push(at.node);
  }
  return true;
}

/** The reads of a value that a variable takes over (`const base = cfg.base`), else the value's own node. */
function valueReads(p: P, project: Project): N[] {
  const at = outward(p);
  const holder = at.parentPath?.value;
  if (holder?.type === 'VariableDeclarator' && at.name === 'init' && holder.id.type === 'Identifier') return references(at.parentPath.get('id'), project);
  return [at.node];
}

/** Reads of `keys` through a destructuring pattern (`const { rest: { base } } = …`, defaults, `...rest`). */
function patternReads(pattern: P<t.ObjectPattern>, keys: readonly string[], project: Project, out: N[]): boolean {
  const props = pattern.node.properties;
  const named = props.some((prop) => prop.type === 'ObjectProperty' && keyName(prop.key, prop.computed) === keys[0]);
  for (let i = 0; i < props.length; i++) {
    const prop = props[i]!;
    if (prop.type === 'RestElement') {
      if (named) continue;
      const rest: P = pattern.get('properties', i, 'argument');
      if (rest.node.type !== 'Identifier' || !readsOf(referencePaths(rest, project), keys, project, out)) return false;
      continue;
    }
    if (prop.computed) {
      out.push(prop);
      continue;
    }
    if (keyName(prop.key) !== keys[0]) continue;
    let target: P = pattern.get('properties', i, 'value');
    if (target.node.type === 'AssignmentPattern') target = target.get('left');
    if (target.node.type === 'Identifier') {
      if (keys.length === 1) out.push(...references(target, project));
      else if (!readsOf(referencePaths(target, project), keys.slice(1), project, out)) return false;
    } else if (target.node.type === 'ObjectPattern' && keys.length > 1) {
      if (!patternReads(target as P<t.ObjectPattern>, keys.slice(1), project, out)) return false;
    } else out.push(target.node);
  }
  return true;
}

/**
 * Reads of a class member: `this.name` in the class, and `.name` on its instances (`new C().name`,
 * `const c = new C(); c.name`) or, for a static member, on the class (`C.name`), when they can be
 * followed (not when an instance or the class leaves through an export v2-migrate does not follow:
 * then the `this` reads alone).
 */
export function memberReads(cls: P<t.Class>, name: string, isStatic: boolean, project: Project): N[] {
  const own = thisReads(cls, name);
  const id = cls.node.id ? cls.get('id') : functionName(cls);
  if (!id) return own;
  const holders: P[] = [];
  for (const ref of referencePaths(id, project)) {
    const holder = ref.parentPath?.value;
    // `C.name` reads a static member; `new C()` makes an instance whose `.name` reads the others.
    if (isStatic && holder?.type === 'MemberExpression' && ref.name === 'object') holders.push(ref);
    else if (!isStatic && holder?.type === 'NewExpression' && ref.name === 'callee') holders.push(ref.parentPath);
    else if (isExported(ref)) return own;
  }
  const out = [...own];
  return readsOf(holders, [name], project, out) ? out : own;
}
