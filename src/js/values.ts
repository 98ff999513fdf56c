import type { Piece } from '../url/pieces.js';
import { bindingOf, enclosingClass, isFunction, keyName, memberName, requiredModule, unwrap } from './scope.js';
import type { CallLike, EnvValueNode, N, P, t } from './ast.js';
import { EMPTY_CTX, withFrame, type Ctx } from './context.js';
import { currentProject } from './project.js';

/**
 * Identifiers, `this.x` reads and `process.env.X` reads that evaluation passed through, while a
 * recorder is active: which uses of a base value a request accounts for (see coverage.ts).
 */
let visits: Set<N | EnvValueNode> | null = null;

export function recordVisits<T>(into: Set<N | EnvValueNode>, fn: () => T): T {
  const previous = visits;
  visits = into;
  try {
    return fn();
  } finally {
    visits = previous;
  }
}

/** Where a URL piece came from: a literal we may edit, or an expression we cannot know. */
export interface Origin {
  path: P;
  /** For holes: the function whose parameter is unbound (expanding its callers may resolve it). */
  unboundFn?: P;
  /** For holes: the environment variable read (`process.env.X ?? 'default'`). */
  envVar?: string;
  /** Text the tool supplied (the v1 base of a config-declared wrapper): never edited. */
  declared?: boolean;
  /** For a hole known to be a query string: the pieces of its non-empty forms (`?${params}`). */
  queryParts?: UrlPiece[];
}
export type UrlPiece = Piece<Origin>;

export interface Resolved {
  path: P;
  ctx: Ctx;
}
export interface Unresolved {
  unresolved: true;
  path: P;
  unboundFn?: P;
  envVar?: string;
  /** A parameter the call being followed passes nothing for, with no default: it is `undefined` there. */
  absent?: true;
}
export type Resolution = Resolved | Unresolved;

const MAX_DEPTH = 40;

export const isResolved = (r: Resolution): r is Resolved => !('unresolved' in r);

function envVarOf(node: N | null | undefined): string | null {
  // process.env.X / process.env['X'] / import.meta.env.X
  if (node?.type !== 'MemberExpression' && node?.type !== 'OptionalMemberExpression') return null;
  const obj = node.object;
  const isEnv =
    (obj.type === 'MemberExpression' && obj.object.type === 'Identifier' && obj.object.name === 'process' && keyName(obj.property, obj.computed) === 'env') ||
    (obj.type === 'MemberExpression' && obj.object.type === 'MetaProperty' && keyName(obj.property, obj.computed) === 'env');
  return isEnv ? keyName(node.property, node.computed) : null;
}

const COMMENT_KEYS = new Set(['leadingComments', 'trailingComments', 'innerComments']);

/** The expression a function returns, when it has exactly one `return` (or an expression body). */
export function returnedExpression(fn: P): P | null {
  const node = fn.node;
  if (node.type === 'ArrowFunctionExpression' && node.body.type !== 'BlockStatement') return fn.get('body');
  const returns: P[] = [];
  const visit = (p: P): void => {
    // `.value`, not `.node`: for a path to a non-node (a comment) `.node` is the enclosing node again.
    const n = p.value;
    if (!n || typeof n.type !== 'string') return;
    if (n.type === 'ReturnStatement') {
      if (n.argument) returns.push(p.get('argument'));
      return;
    }
    if (p !== fn && isFunction(n)) return;
    for (const key of Object.keys(n)) {
      if (key === 'loc' || key === 'comments' || key === 'tokens' || COMMENT_KEYS.has(key)) continue;
      const child = (n as unknown as Record<string, unknown>)[key] as N | Array<N | null> | null;
      if (Array.isArray(child)) child.forEach((c, i) => c && typeof c.type === 'string' && visit(p.get(key, i)));
      else if (child && typeof child.type === 'string') visit(p.get(key));
    }
  };
  visit(fn.get('body'));
  return returns.length === 1 ? returns[0]! : null;
}

/** Find a class member value: a property initializer, a method, or `this.x = value` in the constructor. */
export function classMember(cls: P, name: string): P | null {
  const members = (cls.node as t.Class).body.body;
  const member = (...names: Array<string | number>): P => cls.get('body', 'body', ...names);
  for (let i = 0; i < members.length; i++) {
    const m = members[i]!;
    const keyed = m as MemberFields;
    const k = keyName(keyed.key, keyed.computed);
    if (k !== name && !(keyed.key?.type === 'PrivateName' && `#${keyed.key.id.name}` === name)) continue;
    if ((m.type === 'ClassProperty' || m.type === 'ClassPrivateProperty') && m.value) return member(i, 'value');
    if ((m.type === 'ClassMethod' || m.type === 'ClassPrivateMethod') && m.kind === 'method') return member(i);
    if ((m.type === 'ClassMethod' || m.type === 'ClassPrivateMethod') && m.kind === 'get') return returnedExpression(member(i));
  }
  const ctorIndex = members.findIndex((m) => m.type === 'ClassMethod' && m.kind === 'constructor');
  if (ctorIndex < 0) return null;
  const ctor = member(ctorIndex) as P<t.ClassMethod>;
  // Constructor parameter properties (`constructor(private base: string)`, `private base = 'url'`): the
  // parameter's name, which resolves like a parameter (to its default when no call says otherwise).
  const params = ctor.node.params;
  const propIndex = params.findIndex((p) => p.type === 'TSParameterProperty' && (p.parameter.type === 'Identifier' ? p.parameter.name : (p.parameter.left as t.Identifier).name) === name);
  if (propIndex >= 0) {
    const parameter = ctor.get('params', propIndex, 'parameter');
    return parameter.node.type === 'AssignmentPattern' ? parameter.get('left') : parameter;
  }
  const stmts = ctor.node.body.body;
  for (let i = stmts.length - 1; i >= 0; i--) {
    const e = (stmts[i] as { expression?: N }).expression;
    if (e?.type === 'AssignmentExpression' && e.operator === '=' && e.left.type === 'MemberExpression' && e.left.object.type === 'ThisExpression' && memberName(e.left) === name) {
      return ctor.get('body', 'body', i, 'expression', 'right');
    }
  }
  return null;
}

/** The fields of a class member the lookups read (a static block or an index signature has none). */
type MemberFields = { key?: N; computed?: boolean; static?: boolean; kind?: string };

/** A parameter its callers may leave out or fill only in part: `options?: T`, `options: Partial<T>`. */
function partialParameter(ref: P): boolean {
  const b = bindingOf(ref);
  if (b.kind !== 'param' || b.keyPath.length) return false;
  const param = b.fn.node.params[b.index];
  if (param?.type !== 'Identifier') return false;
  const type = param.typeAnnotation?.type === 'TSTypeAnnotation' ? param.typeAnnotation.typeAnnotation : null;
  const partial = type?.type === 'TSTypeReference' && type.typeName.type === 'Identifier' && type.typeName.name === 'Partial';
  return partial || param.optional === true;
}

/** Look up a property on an object literal, through spreads (last one wins). */
export type PropLookup =
  | { found: Resolved; owner: P }
  | { missing: true; objects: P[] }
  | { opaque: true; objects: P[] };

export function findProp(obj: Resolved, name: string, depth = 0): PropLookup {
  const objects: P[] = [obj.path];
  const props = (obj.path.node as t.ObjectExpression).properties;
  for (let i = props.length - 1; i >= 0; i--) {
    const prop = props[i]!;
    if (prop.type === 'SpreadElement') {
      const inner = optionalSpread(resolveExpr(obj.path.get('properties', i, 'argument'), obj.ctx, depth + 1), depth);
      // `{ ...init, headers }` where the call passes no `init`: it spreads nothing.
      if (!isResolved(inner) && inner.absent) continue;
      // `{ ...DEFAULTS, ...options }` with `options?: Partial<Config>` from callers outside the run: the
      // defaults hold unless a caller overrides them, as a variable with a default does (`process.env.X ?? '…'`).
      if (!isResolved(inner) && inner.unboundFn && partialParameter(inner.path)) continue;
      if (!isResolved(inner)) return { opaque: true, objects };
      if (inner.path.node.type !== 'ObjectExpression') {
        if (inner.path.node.type === 'Identifier' && inner.path.node.name === 'undefined') continue;
        return { opaque: true, objects };
      }
      const sub = findProp(inner, name, depth + 1);
      if ('found' in sub) return sub;
      objects.push(...sub.objects);
      if ('opaque' in sub) return { opaque: true, objects };
      continue;
    }
    if (prop.type === 'ObjectProperty' && keyName(prop.key, prop.computed) === name) {
      return { found: { path: obj.path.get('properties', i, 'value'), ctx: obj.ctx }, owner: obj.path };
    }
    if (prop.type === 'ObjectProperty' && prop.shorthand === false && prop.computed) return { opaque: true, objects };
    if (prop.type === 'ObjectMethod' && prop.kind !== 'set' && keyName(prop.key, prop.computed) === name) {
      const method: P = obj.path.get('properties', i);
      // A getter reads as what it returns (`get base() { return '…' }`).
      const value = prop.kind === 'get' ? returnedExpression(method) : method;
      return value ? { found: { path: value, ctx: obj.ctx }, owner: obj.path } : { opaque: true, objects };
    }
  }
  return { missing: true, objects };
}

const isEmptyish = (n: N): boolean =>
  (n.type === 'ObjectExpression' && n.properties.length === 0) || n.type === 'NullLiteral' || (n.type === 'BooleanLiteral' && !n.value) || (n.type === 'Identifier' && n.name === 'undefined');

/**
 * A spread that adds its properties only sometimes (`...(body ? { body: JSON.stringify(body) } : {})`,
 * `...(cond && { body })`): its object branch, whose properties are the ones the request may send.
 */
function optionalSpread(r: Resolution, depth: number): Resolution {
  if (!isResolved(r)) return r;
  const n = unwrap(r.path).node;
  const branch = (key: string): Resolution => resolveExpr(unwrap(r.path).get(key), r.ctx, depth + 1);
  if (n.type === 'ConditionalExpression') {
    if (isEmptyish(unwrap(unwrap(r.path).get('alternate')).node)) return branch('consequent');
    if (isEmptyish(unwrap(unwrap(r.path).get('consequent')).node)) return branch('alternate');
  }
  if (n.type === 'LogicalExpression' && n.operator === '&&') return branch('right');
  return r;
}

/**
 * Follow an expression to the expression that defines its value: identifiers to their
 * initializers, parameters to the arguments of the current frame, members of object literals and
 * classes, calls of local functions to what they return.
 */
export function resolveExpr(path: P, ctx: Ctx, depth = 0): Resolution {
  if (depth > MAX_DEPTH) return { unresolved: true, path };
  const p = unwrap(path);
  const node = p.node;
  switch (node.type) {
    case 'Identifier': {
      if (node.name === 'undefined') return { path: p, ctx };
      visits?.add(node);
      const b = bindingOf(p);
      if (b.kind === 'param') {
        const frame = ctx.get(b.fn.node);
        let target: Resolution | null = null;
        const arg = frame?.args[b.index];
        if (arg && !(arg.node.type === 'Identifier' && arg.node.name === 'undefined')) target = resolveExpr(arg, ctx, depth + 1);
        else if (b.defaultValue) target = resolveExpr(b.defaultValue, ctx, depth + 1);
        else if (frame) return b.keyPath.length ? { unresolved: true, path: p } : { unresolved: true, path: p, absent: true };
        if (!target) return { unresolved: true, path: p, unboundFn: b.fn };
        return followKeys(target, b.keyPath, depth);
      }
      if (b.kind === 'var') {
        if (b.reassigned || !b.init) return { unresolved: true, path: p };
        // A string default (`process.env.X ?? 'url'`) is evaluated by evalString, which reports the variable.
        if (!b.keyPath.length && isStringDefault(unwrap(b.init).node)) return { path: unwrap(b.init), ctx };
        return followKeys(resolveExpr(b.init, ctx, depth + 1), b.keyPath, depth);
      }
      if (b.kind === 'function') return { path: b.fn, ctx };
      if (b.kind === 'class') return { path: b.cls, ctx };
      if (b.kind === 'import' && b.imported !== '*') {
        // A value imported from another file of the run: continue in that file's AST.
        const project = currentProject();
        const from = project?.moduleFor(p, b.source);
        const target = from && project!.exportOf(from, b.imported);
        // An exported string default (`export const BASE = process.env.X ?? 'url'`), as for a local one.
        if (target && isStringDefault(unwrap(target).node)) return { path: unwrap(target), ctx };
        if (target) return resolveExpr(target, ctx, depth + 1);
      }
      return { path: p, ctx };
    }
    case 'MemberExpression':
    case 'OptionalMemberExpression': {
      // Every member read (`cfg.base`, `getConfig().base`, `process.env.X`): the uses of a property are such reads (coverage.ts).
      visits?.add(node);
      const env = envVarOf(node);
      if (env) return { unresolved: true, path: p, envVar: env };
      const name = memberName(node);
      if (name === null) return { unresolved: true, path: p };
      if (node.object.type === 'ThisExpression') {
        const cls = enclosingClass(p);
        const member = cls && classMember(cls, name);
        return member ? resolveExpr(member, ctx, depth + 1) : { unresolved: true, path: p };
      }
      const obj = resolveExpr(p.get('object'), ctx, depth + 1);
      if (!isResolved(obj)) return { unresolved: true, path: p, ...(obj.unboundFn ? { unboundFn: obj.unboundFn } : {}) };
      return memberOf(obj, name, p, depth);
    }
    case 'CallExpression': {
      const required = requiredModule(node);
      if (required) {
        const project = currentProject();
        const from = project?.moduleFor(p, required);
        const target = from && project!.exportOf(from, 'default');
        return target ? resolveExpr(target, ctx, depth + 1) : { path: p, ctx };
      }
      const callee = resolveExpr(p.get('callee'), ctx, depth + 1);
      if (isResolved(callee) && isFunction(callee.path.node)) {
        const ret = returnedExpression(callee.path);
        if (ret) {
          // The call is a use of what the function returns (a config object's properties): recorded.
          visits?.add(node);
          const call = p as P<t.CallExpression>;
          return resolveExpr(ret, withFrame(callee.ctx, callee.path.node, { call, args: argsOf(call) }), depth + 1);
        }
      }
      return { path: p, ctx };
    }
    case 'LogicalExpression': {
      if (node.operator === '&&') return { unresolved: true, path: p };
      const left = resolveExpr(p.get('left'), ctx, depth + 1);
      if (isResolved(left)) return left;
      return resolveExpr(p.get('right'), ctx, depth + 1);
    }
    default:
      return { path: p, ctx };
  }
}

export function argsOf(call: P<CallLike>): P[] {
  return call.node.arguments.map((_a, i) => call.get('arguments', i));
}

function followKeys(r: Resolution, keys: readonly string[], depth: number): Resolution {
  let cur = r;
  for (const k of keys) {
    if (!isResolved(cur)) return cur;
    cur = memberOf(cur, k, cur.path, depth);
  }
  return cur;
}

/** `obj.name` where `obj` is already resolved. */
function memberOf(obj: Resolved, name: string, at: P, depth: number): Resolution {
  const t = obj.path.node.type;
  const project = currentProject();
  if (project && (t === 'Identifier' || t === 'CallExpression')) {
    // `ns.name` on `import * as ns from './x'`, or `require('./x').name`.
    const b = t === 'Identifier' ? bindingOf(obj.path) : null;
    const source = b?.kind === 'import' && b.imported === '*' ? b.source : t === 'CallExpression' ? requiredModule(obj.path.node) : null;
    const from = source ? project.moduleFor(obj.path, source) : null;
    const target = from && project.exportOf(from, name);
    if (target) return resolveExpr(target, obj.ctx, depth + 1);
  }
  if (t === 'ObjectExpression') {
    const r = findProp(obj, name, depth + 1);
    if ('found' in r) return resolveExpr(r.found.path, r.found.ctx, depth + 1);
    return { unresolved: true, path: at };
  }
  if (t === 'NewExpression') {
    const cls = resolveExpr(obj.path.get('callee'), obj.ctx, depth + 1);
    if (isResolved(cls) && (cls.path.node.type === 'ClassDeclaration' || cls.path.node.type === 'ClassExpression')) {
      const member = classMember(cls.path, name);
      if (member) return resolveExpr(member, constructorFrame(cls.path, obj.path as P<t.NewExpression>, cls.ctx), depth + 1);
    }
    return { unresolved: true, path: at };
  }
  if (t === 'ClassDeclaration' || t === 'ClassExpression') {
    // Static members.
    const body = (obj.path.node as t.Class).body.body;
    const i = body.findIndex((m) => (m as MemberFields).static && (m as MemberFields).kind !== 'set' && keyName((m as MemberFields).key, (m as MemberFields).computed) === name);
    const path = (...names: string[]): P => obj.path.get('body', 'body', i, ...names);
    const member = i < 0 ? null : (body[i] as MemberFields).kind === 'get' ? returnedExpression(path()) : body[i]!.type === 'ClassProperty' ? path('value') : path();
    if (member) return resolveExpr(member, obj.ctx, depth + 1);
    return { unresolved: true, path: at };
  }
  // Imports, globals (`axios.get`, `globalThis.fetch`): the member expression itself.
  return { path: at, ctx: obj.ctx };
}

/** A frame binding a class's constructor parameters to the arguments of `new C(...)`. */
export function constructorFrame(cls: P, newExpr: P<t.NewExpression>, ctx: Ctx): Ctx {
  const members = (cls.node as t.Class).body.body;
  const i = members.findIndex((m) => m.type === 'ClassMethod' && m.kind === 'constructor');
  if (i < 0) return ctx;
  return withFrame(ctx, members[i]!, { call: newExpr, args: argsOf(newExpr) });
}

/** Evaluate an expression to URL pieces: literal text where known, holes elsewhere. */
export function evalString(path: P, ctx: Ctx, depth = 0): UrlPiece[] {
  const hole = (p: P, extra: Partial<Origin> = {}): UrlPiece[] => [
    { kind: 'hole', origin: { path: p, ...extra }, label: labelOf(p), ...(extra.unboundFn ? { unboundParam: true } : {}) },
  ];
  if (depth > MAX_DEPTH) return hole(path);
  const p = unwrap(path);
  const node = p.node;
  switch (node.type) {
    case 'StringLiteral':
      return [{ kind: 'text', text: node.value, origin: { path: p } }];
    case 'NumericLiteral':
      return [{ kind: 'text', text: String(node.value), origin: { path: p } }];
    case 'TemplateLiteral': {
      const out: UrlPiece[] = [];
      node.quasis.forEach((q, i) => {
        if (q.value.cooked) out.push({ kind: 'text', text: q.value.cooked, origin: { path: p.get('quasis', i) } });
        if (i < node.expressions.length) out.push(...evalString(p.get('expressions', i), ctx, depth + 1));
      });
      return out;
    }
    case 'BinaryExpression':
      if (node.operator !== '+') return hole(p);
      return [...evalString(p.get('left'), ctx, depth + 1), ...evalString(p.get('right'), ctx, depth + 1)];
    case 'LogicalExpression': {
      if (node.operator === '&&') return hole(p);
      const left = evalString(p.get('left'), ctx, depth + 1);
      if (left.length === 1 && left[0]!.kind === 'hole') {
        const envVar = left[0].origin.envVar;
        const right = evalString(p.get('right'), ctx, depth + 1);
        // `process.env.ID || ''`: an empty default says the value is unknown, not that it is empty.
        if (envVar && right.every((r) => r.kind === 'text' && r.text === '')) return left;
        return envVar ? right.map((piece) => (piece.kind === 'text' ? { ...piece, origin: { ...piece.origin, envVar } } : piece)) : right;
      }
      // The variable's value came from a .env file of the run: the request also runs on the code's
      // default wherever the variable is unset, so that default is one of its uses (coverage.ts) and
      // moves with it rather than being held as code nobody follows.
      if (left.length === 1 && left[0]!.kind === 'text' && left[0]!.origin.envVar && visits) {
        for (const piece of evalString(p.get('right'), ctx, depth + 1)) if (piece.kind === 'text') visits.add(piece.origin.path.node);
      }
      return left;
    }
    case 'CallExpression':
    case 'OptionalCallExpression': {
      const callee = node.callee;
      const method = memberName(callee);
      // Value-preserving string methods: `x.toString()`, `String(x)`, `x.trim()`, `x.replace(/\/$/, '')`.
      if ((method === 'toString' || method === 'trim' || method === 'valueOf') && node.arguments.length === 0) return evalString(p.get('callee', 'object'), ctx, depth + 1);
      if (method === 'replace' && node.arguments.length === 2 && stripsTrailing(p.get('arguments', 0), ctx)) return evalString(p.get('callee', 'object'), ctx, depth + 1);
      if (callee.type === 'Identifier' && callee.name === 'String' && node.arguments.length === 1) return evalString(p.get('arguments', 0), ctx, depth + 1);
      // A method call's callee is a member expression (memberName said so).
      if (method === 'join' && (callee as t.MemberExpression).object.type === 'ArrayExpression' && node.arguments.length <= 1) {
        const sep = node.arguments.length ? evalString(p.get('arguments', 0), ctx, depth + 1) : [{ kind: 'text', text: ',', origin: { path: p } } as UrlPiece];
        const out: UrlPiece[] = [];
        ((callee as t.MemberExpression).object as t.ArrayExpression).elements.forEach((_e, i) => {
          if (i > 0) out.push(...sep.map((s) => (s.kind === 'text' ? { ...s, origin: { path: p } } : s)));
          out.push(...evalString(p.get('callee', 'object', 'elements', i), ctx, depth + 1));
        });
        return out;
      }
      const target = resolveExpr(p.get('callee'), ctx, depth + 1);
      if (isResolved(target) && isFunction(target.path.node)) {
        const ret = returnedExpression(target.path);
        if (ret) {
          visits?.add(node);
          const call = p as P<t.CallExpression | t.OptionalCallExpression>;
          return evalString(ret, withFrame(target.ctx, target.path.node, { call, args: argsOf(call) }), depth + 1);
        }
      }
      return hole(p);
    }
    case 'NewExpression':
      if (node.callee.type === 'Identifier' && node.callee.name === 'URL') return evalNewUrl(p as P<t.NewExpression>, ctx, depth);
      return hole(p);
    case 'ConditionalExpression':
      return evalChoice(p, ctx, depth);
    case 'MemberExpression':
    case 'OptionalMemberExpression': {
      const name = memberName(node);
      if (name === 'href' && node.object.type === 'NewExpression') return evalString(p.get('object'), ctx, depth + 1);
      break;
    }
  }
  if (node.type === 'Identifier' || node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression' || node.type === 'ThisExpression') {
    const r = resolveExpr(p, ctx, depth + 1);
    if (!isResolved(r)) {
      const fromEnvFile = r.envVar ? envFilePieces(r.envVar) : null;
      if (fromEnvFile) return fromEnvFile;
      return hole(p, { ...(r.unboundFn ? { unboundFn: r.unboundFn } : {}), ...(r.envVar ? { envVar: r.envVar } : {}) });
    }
    if (r.path === p) return hole(p);
    return evalString(r.path, r.ctx, depth + 1);
  }
  return hole(p);
}

/**
 * `test ? a : b`: the same text either way, or a query string either way (`q ? \`?${q}\` : ''`), which
 * becomes a hole known to end the path; anything else is a hole.
 */
function evalChoice(p: P, ctx: Ctx, depth: number): UrlPiece[] {
  const branches = [evalString(p.get('consequent'), ctx, depth + 1), evalString(p.get('alternate'), ctx, depth + 1)];
  const [a, b] = branches.map((pieces) => pieces.filter((piece) => piece.kind === 'hole' || piece.text !== ''));
  const text = (pieces: UrlPiece[]): string | null => (pieces.every((x) => x.kind === 'text') ? pieces.map((x) => (x.kind === 'text' ? x.text : '')).join('') : null);
  if (text(a!) !== null && text(a!) === text(b!)) return branches[0]!;
  const isQuery = (pieces: UrlPiece[]): boolean => {
    const first = pieces[0];
    return !first || (first.kind === 'text' ? /^[?#]/.test(first.text) : first.known === 'query');
  };
  if (!isQuery(a!) || !isQuery(b!)) return [{ kind: 'hole', origin: { path: p }, label: labelOf(p) }];
  return [{ kind: 'hole', origin: { path: p, queryParts: [...a!, ...b!] }, label: labelOf(p), known: 'query' }];
}

/** `new URL(x)` and `new URL(relative, base)` where the result is certain. */
function evalNewUrl(p: P<t.NewExpression>, ctx: Ctx, depth: number): UrlPiece[] {
  const args = p.node.arguments;
  const hole: UrlPiece[] = [{ kind: 'hole', origin: { path: p }, label: labelOf(p) }];
  if (args.length === 1) return evalString(p.get('arguments', 0), ctx, depth + 1);
  if (args.length !== 2) return hole;
  const rel = evalString(p.get('arguments', 0), ctx, depth + 1);
  const first = rel[0];
  if (first?.kind === 'text' && /^[a-z][a-z0-9+.-]*:\/\//i.test(first.text)) return rel;
  const base = evalString(p.get('arguments', 1), ctx, depth + 1);
  const last = base[base.length - 1];
  // Only the unambiguous join: base ends with '/' and the relative path does not start with one.
  if (last?.kind === 'text' && last.text.endsWith('/') && first?.kind === 'text' && !first.text.startsWith('/')) return [...base, ...rel];
  return hole;
}

/**
 * `a ?? 'https://…'` / `a || \`…\``: a value with a string default, which evalString resolves (and
 * reports the environment variable of), rather than following the left side as a value.
 */
function isStringDefault(n: N): boolean {
  if (n.type !== 'LogicalExpression' || n.operator === '&&') return false;
  const right = n.right.type === 'TSAsExpression' ? n.right.expression : n.right;
  return envVarOf(n.left) !== null || right.type === 'StringLiteral' || right.type === 'TemplateLiteral';
}

/** `x.replace(/\/+$/, '')` (also through a constant regex): removes a trailing part, so x's text is kept. */
function stripsTrailing(arg: P, ctx: Ctx): boolean {
  const r = resolveExpr(arg, ctx);
  const n = isResolved(r) ? r.path.node : arg.node;
  return n.type === 'RegExpLiteral' && /\$$/.test(n.pattern);
}

/**
 * `process.env.X` with no default in code, when a .env file of the run sets X to one value: that value,
 * as an editable piece (so a base held in .env migrates together with the code that uses it).
 */
function envFilePieces(name: string): UrlPiece[] | null {
  const entries = currentProject()?.envEntries(name) ?? [];
  const values = new Set(entries.map((e) => e.value));
  if (values.size !== 1) return null;
  return entries.slice(0, 1).map((e) => ({ kind: 'text', text: e.value, origin: { path: { node: e.node, value: e.node } as unknown as P, envVar: name } }));
}

export function labelOf(p: P): string {
  const n = p.node;
  if (n.type === 'Identifier') return n.name;
  if (n.type === 'ThisExpression') return 'this';
  if (n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') {
    const name = memberName(n);
    return `${labelOf(p.get('object'))}.${name ?? '[…]'}`;
  }
  if (n.type === 'CallExpression') return `${labelOf(p.get('callee'))}(…)`;
  return n.type === 'TemplateLiteral' ? '`…`' : '…';
}

const isClassPath = (p: P): p is P<t.Class> => p.node.type === 'ClassDeclaration' || p.node.type === 'ClassExpression';

/**
 * The method `x.name` names where `x` is a parameter declared with a class of the run
 * (`client: RunPodClient`, `constructor(private client: RunPodClient)`): a client handed in by its
 * callers has no `new` the tool can follow, but its type says which class's method runs.
 */
export function typedReceiverMethod(callee: P): P | null {
  const m = unwrap(callee);
  if (m.node.type !== 'MemberExpression' && m.node.type !== 'OptionalMemberExpression') return null;
  const name = memberName(m.node);
  const obj = unwrap(m.get('object'));
  if (name === null || obj.node.type !== 'Identifier') return null;
  const b = bindingOf(obj);
  if (b.kind !== 'param' || b.keyPath.length) return null;
  let param: P = b.fn.get('params', b.index);
  if (param.node.type === 'TSParameterProperty') param = param.get('parameter');
  if (param.node.type === 'AssignmentPattern') param = param.get('left');
  const annotation = param.node.type === 'Identifier' ? param.node.typeAnnotation : null;
  if (annotation?.type !== 'TSTypeAnnotation' || annotation.typeAnnotation.type !== 'TSTypeReference' || annotation.typeAnnotation.typeName.type !== 'Identifier') return null;
  const cls = resolveExpr(param.get('typeAnnotation', 'typeAnnotation', 'typeName'), EMPTY_CTX);
  if (!isResolved(cls) || !isClassPath(cls.path)) return null;
  const method = classMember(cls.path, name);
  return method && isFunction(method.node) ? method : null;
}
