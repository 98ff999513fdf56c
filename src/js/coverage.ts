import type { Project } from './project.js';
import { keyName, lookupScope, memberName, type N, type P } from './scope.js';
import { collectPaths } from './walk.js';

/**
 * Whether moving a v1 base to v2 is safe: a base literal may only change when every use of it is a
 * request v2-migrate understood (and so migrates its path, method and body in the same run). A base
 * also read by code the tool cannot follow would send that code's v1 paths to the v2 host (a 404 at
 * best, the /billing/endpoints trap at worst), and lint would no longer see it.
 */
const WRAPPERS = new Set(['LogicalExpression', 'ConditionalExpression', 'TemplateLiteral', 'BinaryExpression', 'TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'ParenthesizedExpression']);

/**
 * The first use of the literal's value that no understood request accounts for, or null. `visited`
 * holds the nodes understood requests read (their URL literals and the identifiers they resolved).
 */
export function uncoveredUse(literal: P, visited: ReadonlySet<N>, project: Project): N | null {
  // A .env value is used wherever its variable is read, and wherever those reads flow (a
  // `const BASE = process.env.X ?? '…'` read by code the tool cannot follow holds it too).
  if (literal.node.type === 'EnvValue') {
    for (const read of envReads(literal.node.name ?? '', project)) {
      const use = uncoveredUse(read, visited, project);
      if (use) return use;
    }
    return null;
  }
  let q: P = literal.node.type === 'TemplateElement' ? literal.parentPath.parentPath : literal;
  while (q.parentPath && WRAPPERS.has(q.parentPath.value?.type)) q = q.parentPath;
  const holder = q.parentPath?.value;
  if (holder?.type === 'VariableDeclarator' && q.name === 'init' && holder.id.type === 'Identifier') {
    return references(q.parentPath.get('id'), project).find((r) => !visited.has(r)) ?? null;
  }
  // A class field or constructor assignment: every `this.x` read in the class.
  const member = classMemberName(q);
  if (member) return thisReads(member.cls, member.name).find((r) => !visited.has(r)) ?? null;
  // An object property, a call argument, …: the literal itself must be part of an understood request.
  return visited.has(literal.node) ? null : q.node;
}

function classMemberName(q: P): { cls: P; name: string } | null {
  const holder = q.parentPath?.value;
  if ((holder?.type === 'ClassProperty' || holder?.type === 'ClassPrivateProperty') && q.name === 'value') {
    const name = holder.key.type === 'PrivateName' ? `#${holder.key.id.name}` : keyName(holder.key, holder.computed);
    return name ? { cls: q.parentPath.parentPath.parentPath.parentPath, name } : null;
  }
  if (holder?.type === 'AssignmentExpression' && q.name === 'right' && holder.left.type === 'MemberExpression' && holder.left.object.type === 'ThisExpression') {
    const name = memberName(holder.left);
    let c: P | null = q.parentPath;
    while (c && c.value?.type !== 'ClassBody') c = c.parentPath;
    return name && c ? { cls: c.parentPath, name } : null;
  }
  return null;
}

/** `this.name` reads in a class (not the assignments that set it). */
function thisReads(cls: P, name: string): N[] {
  return collectPaths(cls, (n) => n.type === 'MemberExpression' && n.object.type === 'ThisExpression' && memberName(n) === name)
    .filter((p) => !(p.parentPath?.value?.type === 'AssignmentExpression' && p.name === 'left'))
    .map((p) => p.node);
}

/** Identifier references to a variable: in its own scope, and in project files that import it. */
function references(id: P, project: Project): N[] {
  const name: string = id.node.name;
  const scope = lookupScope(id, name);
  if (!scope) return [];
  const out: N[] = [];
  for (const p of collectPaths(scope.path, (n) => n.type === 'Identifier' && n.name === name && n !== id.node)) {
    const parent = p.parentPath?.value;
    // Property keys and import and export specifiers are not reads (`import { BASE }` holds an
    // `imported` and a `local` identifier of the same name).
    if ((parent?.type === 'ObjectProperty' || parent?.type === 'ClassProperty') && p.name === 'key' && !parent.computed && !parent.shorthand) continue;
    if ((parent?.type === 'MemberExpression' || parent?.type === 'OptionalMemberExpression') && p.name === 'property' && !parent.computed) continue;
    if (parent?.type === 'ExportSpecifier' || parent?.type === 'ImportSpecifier') continue;
    if (lookupScope(p, name) !== scope || onlyLogged(p)) continue;
    out.push(p.node);
  }
  if (scope.path.value.type === 'Program') out.push(...importedReferences(id, name, project));
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

/** References, in other project files, of an exported module-level variable. */
function importedReferences(id: P, name: string, project: Project): N[] {
  const here = project.fileAt(id.node.start);
  const out: N[] = [];
  for (const { file: f, statement: i } of project.importersOf(here)) {
    if (f === here) continue;
    const program: P = f.parsed!.root.get('program');
    (program.value.body[i].specifiers as N[]).forEach((spec, k) => {
      const local: P = program.get('body', i, 'specifiers', k, 'local');
      if (spec.type === 'ImportSpecifier' && keyName(spec.imported) === name) out.push(...references(local, project));
      if (spec.type === 'ImportNamespaceSpecifier') {
        const reads = collectPaths(program, (n) => n.type === 'MemberExpression' && n.object.type === 'Identifier' && n.object.name === spec.local.name && memberName(n) === name);
        out.push(...reads.map((p) => p.node));
      }
    });
  }
  return out;
}

/** `process.env.NAME` reads in the project's JS files. */
function envReads(name: string, project: Project): P[] {
  const isRead = (n: N): boolean => n.type === 'MemberExpression' && memberName(n) === name && n.object.type === 'MemberExpression' && memberName(n.object) === 'env';
  return project.files.flatMap((f) => (f.parsed ? collectPaths(f.parsed.root.get('program'), isRead) : []));
}
