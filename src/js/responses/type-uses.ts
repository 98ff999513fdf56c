/**
 * Where a declared type is used beyond the RunPod responses the tool follows. A type the code also
 * gives to data it makes (`const row: PodInfo = { imageName: … }`, `lines.map(parse)[0] as PodInfo`,
 * a function declared `Promise<PodInfo[]>` that returns rows it parsed from a CLI) describes more than
 * a RunPod response, and a member read in code the tool does not follow may be read through the type:
 * renaming the member to its v2 name would break those places. Judged from the type's own file and
 * the files that import it, the same way for every request that meets the type.
 */
import type { N, P, t } from '../ast.js';
import { currentProject } from '../project.js';
import { isResolved, resolveExpr } from '../values.js';
import { EMPTY_CTX } from '../context.js';
import { isFunctionPath, keyName } from '../scope.js';
import { pathsMatching } from '../walk.js';
import { typeDeclarationOf } from './static-type.js';
import { responseFieldsNamed } from '../../map/responses.js';
import { parentOf, returnedExpressions } from './tree.js';

/** Array methods and constructors whose elements the code makes (`rows.map(parse)`, `Array.from(…)`). */
const MAKES = new Set(['map', 'flatMap', 'reduce', 'reduceRight', 'from', 'of', 'fill', 'concat']);
/** Array methods whose result holds elements of the array they are called on (`pods.filter(…)`). */
const KEEPS = new Set(['filter', 'slice', 'sort', 'toSorted', 'reverse', 'toReversed', 'find', 'findLast', 'at']);
/** Type syntax around a type that keeps it what the value is (`T[]`, `Promise<T>`, `T | null`, `readonly T[]`). */
const CONTAINERS = new Set(['Array', 'ReadonlyArray', 'Promise', 'PromiseLike']);

const cache = new WeakMap<N, N | null>();

/**
 * Where the code gives the type declared at `decl` (an interface, a type alias or an inline type
 * literal) to a value it builds itself, or null when every value of it comes from elsewhere.
 */
export function builtAt(decl: N): N | null {
  let found = cache.get(decl);
  if (found === undefined) cache.set(decl, (found = firstBuilt(decl)));
  return found;
}

function firstBuilt(decl: N): N | null {
  for (const ref of namings(decl)) {
    const at = builtThrough(ref);
    if (at) return at;
  }
  return null;
}

/** Where a type's name can be used: its own file, and each file that imports it (with the local name there). */
function scopesOf(decl: t.TSInterfaceDeclaration | t.TSTypeAliasDeclaration): Array<{ program: P; local: string }> {
  const project = currentProject();
  const file = project?.fileAt(decl.start ?? 0);
  if (!project || !file?.parsed) return [];
  const name = decl.id.name;
  const scopes: Array<{ program: P; local: string }> = [{ program: file.parsed.root.get('program'), local: name }];
  for (const site of project.importersOf(file)) {
    const stmt = site.file.parsed?.root.value.program.body[site.statement];
    if (stmt?.type !== 'ImportDeclaration' || !site.file.parsed) continue;
    for (const spec of stmt.specifiers) {
      if (spec.type === 'ImportSpecifier' && keyName(spec.imported) === name) scopes.push({ program: site.file.parsed.root.get('program'), local: spec.local.name });
    }
  }
  return scopes;
}

/**
 * The programs whose reads may go through the type: its own file and the files that import it, and the
 * files that import one of those (a client module's methods hand the type to callers that never name
 * it: `const pod = await client.getPod(id)` is a `Pod`).
 */
function readScopesOf(decl: t.TSInterfaceDeclaration | t.TSTypeAliasDeclaration): P[] {
  const project = currentProject();
  const out = new Map<N, P>();
  for (const { program } of scopesOf(decl)) {
    out.set(program.value, program);
    const file = project?.fileAt(program.value.start ?? 0);
    for (const site of file && project ? project.importersOf(file) : []) {
      const root = site.file.parsed?.root;
      if (root) out.set(root.value.program, root.get('program'));
    }
  }
  return [...out.values()];
}

/** The places the type is named: the literal itself, or each reference to the declared name. */
function namings(decl: N): P[] {
  if (decl.type === 'TSTypeLiteral') {
    const parsed = currentProject()?.fileAt(decl.start ?? 0).parsed;
    return parsed ? pathsMatching(parsed.root.get('program'), (n) => n === decl) : [];
  }
  if (decl.type !== 'TSInterfaceDeclaration' && decl.type !== 'TSTypeAliasDeclaration') return [];
  return scopesOf(decl).flatMap(({ program, local }) =>
    pathsMatching(program, (n): n is t.TSTypeReference => n.type === 'TSTypeReference' && n.typeName.type === 'Identifier' && n.typeName.name === local).filter((ref) => {
      const d = typeDeclarationOf(local, ref);
      return d !== 'many' && d?.value === decl;
    }),
  );
}

/**
 * A read of property `name` (`x.name`, `x['name']`, `{ name } = x`) in the code that can see the type
 * declared at `decl`, other than the ones in `known` (their property or key nodes): the first such
 * read, which may go through the type, or null. An inline type literal types only its own value.
 */
export function otherRead(decl: N, name: string, known: ReadonlySet<N>): N | null {
  if (decl.type !== 'TSInterfaceDeclaration' && decl.type !== 'TSTypeAliasDeclaration') return null;
  for (const program of readScopesOf(decl)) {
    const reads = pathsMatching(
      program,
      (n): n is t.MemberExpression | t.OptionalMemberExpression | t.ObjectProperty =>
        ((n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') && keyName(n.property, n.computed) === name) ||
        (n.type === 'ObjectProperty' && keyName(n.key, n.computed) === name),
      { skipTypes: true },
    );
    for (const r of reads) {
      const n = r.value;
      if (n.type === 'ObjectProperty' && parentOf(r)?.value.type !== 'ObjectPattern') continue; // a key written, not read
      const at = n.type === 'ObjectProperty' ? n.key : n.property;
      if (!known.has(at)) return at;
    }
  }
  return null;
}

/** The syntax that holds a type once the containers around it are climbed (`Promise<T[] | null>` → its holder). */
function holderOf(ref: P): { holder: P; child: P } | null {
  let child = ref;
  for (let q = parentOf(ref); q; child = q, q = parentOf(q)) {
    const n = q.value;
    if (n.type === 'TSArrayType' || n.type === 'TSUnionType' || n.type === 'TSParenthesizedType' || n.type === 'TSTypeOperator') continue;
    if (n.type === 'TSTypeParameterInstantiation') {
      const outer = parentOf(q)?.value;
      if (outer?.type === 'TSTypeReference' && outer.typeName.type === 'Identifier' && CONTAINERS.has(outer.typeName.name)) {
        q = parentOf(q);
        if (!q) return null;
        continue;
      }
    }
    return { holder: q, child };
  }
  return null;
}

/** Where a value the type is given to (through this naming of it) is built by the code, if it is. */
function builtThrough(ref: P): N | null {
  const held = holderOf(ref);
  if (!held) return null;
  const { holder } = held;
  const h = holder.value;
  if (h.type === 'TSAsExpression' || h.type === 'TSTypeAssertion' || h.type === 'TSSatisfiesExpression') return built(holder.get('expression'), 0);
  if (h.type !== 'TSTypeAnnotation') return null;
  const owner = parentOf(holder);
  const o = owner?.value;
  if (!owner || !o) return null;
  // `const rows: PodInfo[] = …`, a class field's initial value.
  if (o.type === 'Identifier') {
    const declarator = parentOf(owner);
    return declarator?.value.type === 'VariableDeclarator' && declarator.value.id === o && declarator.value.init ? built(declarator.get('init'), 0) : null;
  }
  if (o.type === 'ClassProperty' && o.value) return built(owner.get('value'), 0);
  // A function's declared return type: what each of its returns hands back.
  if (isFunctionPath(owner) && owner.value.returnType === h) return returnedExpressions(owner).map((r) => built(r, 0)).find((b) => b) ?? null;
  return null;
}

/** A key v2 names otherwise (renamed or nested) on some RunPod object. */
const renamedField = (key: string | null): boolean => key === null || responseFieldsNamed(key).some((r) => r.fate.kind === 'rename' || r.fate.kind === 'nest');

const UNWRAPPED = new Set(['ParenthesizedExpression', 'TSAsExpression', 'TSTypeAssertion', 'TSSatisfiesExpression', 'TSNonNullExpression', 'AwaitExpression']);

/** Is the value of `p` made by the code (a literal with content, an array built from other data)? Where, if so. */
function built(p: P, depth: number): N | null {
  let q = p;
  while (UNWRAPPED.has(q.value.type)) q = q.get(q.value.type === 'AwaitExpression' ? 'argument' : 'expression');
  const n = q.value;
  if (depth > 4) return null;
  switch (n.type) {
    case 'ObjectExpression': {
      // `{ ...pod, portMappings: … }`: a copy of another value is made only as far as that value is, or
      // where the copy sets a field v2 renames itself (the type's member and that key would part).
      const [first, ...rest] = n.properties;
      if (first?.type === 'SpreadElement' && rest.every((prop) => prop.type !== 'SpreadElement' && !renamedField(keyName(prop.key, prop.computed)))) return built(q.get('properties', 0).get('argument'), depth + 1);
      return n.properties.length ? n : null;
    }
    case 'ArrayExpression':
      return n.elements.length ? n : null;
    case 'ConditionalExpression':
      return built(q.get('consequent'), depth + 1) ?? built(q.get('alternate'), depth + 1);
    case 'LogicalExpression':
      return built(q.get('left'), depth + 1) ?? built(q.get('right'), depth + 1);
    case 'CallExpression':
    case 'OptionalCallExpression': {
      const callee = n.callee;
      if (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') return null;
      const method = keyName(callee.property, callee.computed);
      if (method && KEEPS.has(method)) return built(q.get('callee', 'object'), depth + 1);
      // `pods.map((p) => normalize(p))`: made only where the callback makes what it returns.
      const callback = method === 'map' && n.arguments.length === 1 ? q.get('arguments', 0) : null;
      if (callback && isFunctionPath(callback)) return returnedExpressions(callback).map((r) => built(r, depth + 1)).find((b) => b !== null) ?? null;
      return method && MAKES.has(method) ? n : null;
    }
    case 'MemberExpression':
    case 'OptionalMemberExpression':
      // `rows.map(parse)[0]`: an element of a built array.
      return n.computed ? built(q.get('object'), depth + 1) : null;
    case 'Identifier': {
      const r = resolveExpr(q, EMPTY_CTX);
      return isResolved(r) && r.path.value !== n ? built(r.path, depth + 1) : null;
    }
    default:
      return null;
  }
}
