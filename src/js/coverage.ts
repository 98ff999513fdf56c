import type { Bases } from '../url/shape.js';
import { isClientInstance } from './clients/index.js';
import { EMPTY_CTX } from './context.js';
import type { Project } from './project.js';
import { enclosingFunction, keyName, memberName } from './scope.js';
import type { EnvValueNode, N, P, t } from './ast.js';
import { memberReads, propertyReads, referencePaths, thisReadPaths } from './reads.js';
import { returnedExpression } from './values.js';
import { pathsMatching } from './walk.js';

/**
 * Whether moving a v1 base to v2 is safe: a base literal may only change when every use of it is a
 * request v2-migrate understood (and so migrates its path, method and body in the same run). A base
 * also read by code the tool cannot follow would send that code's v1 paths to the v2 host (a 404 at
 * best, the /billing/endpoints trap at worst), and lint would no longer see it.
 */
const WRAPPERS = new Set<string>(['LogicalExpression', 'ConditionalExpression', 'TemplateLiteral', 'BinaryExpression', 'TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'ParenthesizedExpression'] satisfies Array<N['type']>);

/**
 * The first use of the literal's value that no understood request accounts for, or null. `visited`
 * holds the nodes understood requests read (their URL literals and the identifiers they resolved).
 */
export function uncoveredUse(literal: P, visited: ReadonlySet<N | EnvValueNode>, project: Project, bases: Bases): N | null {
  // A .env value is used wherever its variable is read, and wherever those reads flow (a
  // `const BASE = process.env.X ?? '…'` read by code the tool cannot follow holds it too).
  const env = literal.node as N | EnvValueNode;
  if (env.type === 'EnvValue') {
    // `const { X } = process.env`: the tool does not follow a destructured variable, so it is a use it cannot account for.
    const destructured = envDestructurings(env.name ?? '', project)[0];
    if (destructured) return destructured.node;
    for (const read of envReads(env.name ?? '', project)) {
      const use = uncoveredUse(read, visited, project, bases);
      if (use) return use;
    }
    return null;
  }
  const q = climb(literal.node.type === 'TemplateElement' ? literal.parentPath.parentPath : literal);
  const holder = q.parentPath?.value;
  if (holder?.type === 'VariableDeclarator' && q.name === 'init' && holder.id.type === 'Identifier') {
    for (const r of referencePaths(q.parentPath.get('id'), project)) {
      const use = visited.has(r.node) ? instanceUse(r, visited, project, bases) : r.node;
      if (use) return use;
    }
    return null;
  }
  // A class field, constructor assignment or getter: `this.x` reads in the class, `.x` on its instances.
  const member = classMemberName(q);
  if (member) return memberReads(member.cls, member.name, member.isStatic, project).find((r) => !visited.has(r)) ?? null;
  // A property of an object held by a variable or returned by a function (`const { base } = getConfig()`).
  const reads = propertyReads(q, project);
  if (reads) return reads.find((r) => !visited.has(r)) ?? null;
  // Elsewhere (a call argument, an object passed on, …): the literal itself must be part of an understood
  // request, and, given to a client factory, so must every use of the client. Not part of one, the use is
  // the literal itself, so a request that read it and holds it can be named.
  return visited.has(literal.node) ? instanceUse(q, visited, project, bases) : literal.node;
}

function climb(p: P): P {
  let q = p;
  while (q.parentPath && WRAPPERS.has(q.parentPath.value?.type)) q = q.parentPath;
  return q;
}

/** Reads of a client instance that configure it rather than send a request (`api.defaults.headers`, `api.interceptors`). */
const CONFIGURING = new Set(['defaults', 'interceptors']);

/**
 * A base given to a client factory (`const api = createAxios({ baseURL: BASE })`) is used by every
 * request made on what it returns: the first use of that instance that is not part of an understood
 * request (passed to a helper, a method the tool does not know), or null.
 */
function instanceUse(value: P, visited: ReadonlySet<N | EnvValueNode>, project: Project, bases: Bases): N | null {
  const prop = climb(value).parent;
  const options = prop?.value.type === 'ObjectProperty' && prop.value.value === climb(value).value ? prop.parent : null;
  const call = options?.value.type === 'ObjectExpression' ? options.parent : null;
  if (!call || (call.value.type !== 'CallExpression' && call.value.type !== 'NewExpression') || !call.value.arguments.includes(options!.value as t.ObjectExpression)) return null;
  if (!isClientInstance({ path: call, ctx: EMPTY_CTX }, bases)) return null;
  const made = climb(call);
  const holder = made.parentPath?.value;
  const isRequest = (r: P): boolean => visited.has(r.node) || (!!r.parent && (r.parent.value as t.MemberExpression).object === r.value && CONFIGURING.has(memberName(r.parent.value) ?? ''));
  if (holder?.type === 'VariableDeclarator' && made.name === 'init' && holder.id.type === 'Identifier') {
    return referencePaths(made.parentPath.get('id'), project, { skipTypes: true }).find((r) => !isRequest(r))?.node ?? null;
  }
  // A client held by a class (`this.http = createAxios(…)`): its uses in the class. An instance of the
  // class passed on whole is not a use of the client (the field's own base rule covers bases read there).
  const member = classMemberName(made);
  return member && !member.isStatic ? thisReadPaths(member.cls, member.name).find((r) => !isRequest(r))?.node ?? null : null;
}

/** The class member a literal is the value of: a field, a constructor assignment, or what a getter returns. */
// `cls` is the class (declaration or expression) the member belongs to: ClassBody's parent.
function classMemberName(q: P): { cls: P<t.Class>; name: string; isStatic: boolean } | null {
  const holder = q.parentPath?.value;
  if ((holder?.type === 'ClassProperty' || holder?.type === 'ClassPrivateProperty') && q.name === 'value') {
    const name = holder.key.type === 'PrivateName' ? `#${holder.key.id.name}` : keyName(holder.key, (holder as t.ClassProperty).computed);
    return name ? { cls: q.parentPath.parentPath.parentPath.parentPath as P<t.Class>, name, isStatic: !!holder.static } : null;
  }
  if (holder?.type === 'AssignmentExpression' && q.name === 'right' && holder.left.type === 'MemberExpression' && holder.left.object.type === 'ThisExpression') {
    const name = memberName(holder.left);
    let c: P | null = q.parentPath;
    while (c && c.value?.type !== 'ClassBody') c = c.parentPath;
    return name && c ? { cls: c.parentPath as P<t.Class>, name, isStatic: false } : null;
  }
  if (holder?.type === 'ReturnStatement') {
    const getter = enclosingFunction(q);
    const name = getter && getter.node.type === 'ClassMethod' && getter.node.kind === 'get' && returnedExpression(getter)?.node === q.node ? keyName(getter.node.key, getter.node.computed) : null;
    return name ? { cls: getter!.parentPath.parentPath.parentPath as P<t.Class>, name, isStatic: !!(getter!.node as t.ClassMethod).static } : null;
  }
  return null;
}

const isEnvObject = (n: N | null | undefined): boolean => (n?.type === 'MemberExpression' || n?.type === 'OptionalMemberExpression') && memberName(n) === 'env';

/** `process.env.NAME` / `process.env['NAME']` / `import.meta.env.NAME` reads in the project's JS files. */
function envReads(name: string, project: Project): P[] {
  const isRead = (n: N): boolean => (n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') && memberName(n) === name && isEnvObject(n.object);
  return project.files.flatMap((f) => (f.parsed ? pathsMatching(f.parsed.root.get('program'), isRead) : []));
}

/** `const { NAME } = process.env` (renamed or with a default too): the pattern properties that read NAME. */
function envDestructurings(name: string, project: Project): P[] {
  const isRead = (n: N): boolean => n.type === 'VariableDeclarator' && n.id.type === 'ObjectPattern' && isEnvObject(n.init) && n.id.properties.some((p) => p.type === 'ObjectProperty' && keyName(p.key, p.computed) === name);
  return project.files.flatMap((f) => (f.parsed ? pathsMatching(f.parsed.root.get('program'), isRead) : []));
}
