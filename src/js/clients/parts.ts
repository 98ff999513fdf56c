/**
 * Building blocks the client adapters share: following a body or an options object from the call to
 * the literal that holds it (through wrapper parameters and later writes), reading method, body,
 * headers, query and base out of an options object, and joining a base with a path.
 */
import type { Ctx } from '../context.js';
import { writesTo } from '../body/props.js';
import { bindingOf, keyName, lookupScope, memberName, unwrap } from '../scope.js';
import type { CallLike, N, P, t } from '../ast.js';
import { evalString, findProp, isResolved, resolveExpr, type Resolved, type UrlPiece } from '../values.js';
import type { BodyForm, BodySlot, HeadersRef, Insertion, MethodRef } from './model.js';

const isNullish = (n: N): boolean => n.type === 'NullLiteral' || (n.type === 'Identifier' && n.name === 'undefined');
const isJsonStringify = (n: N): n is t.CallExpression => n.type === 'CallExpression' && n.callee.type === 'MemberExpression' && n.callee.object.type === 'Identifier' && n.callee.object.name === 'JSON' && memberName(n.callee) === 'stringify';

const UNKNOWN_METHOD: MethodRef = { kind: 'pieces', value: null, pieces: [] };

/**
 * Follow a body expression: `JSON.stringify(x)`, `x ? JSON.stringify(x) : undefined`, wrapper parameters.
 * `carrier` is the user-code expression holding the body object at this level: it moves into the
 * argument of JSON.stringify and of a conditional, but stays at the use when an identifier is followed
 * to its initializer. Crossing to a caller (a bound parameter, the caller's options object) starts a new
 * level; `outer` holds the carriers of the levels already crossed.
 */
export function bodyOf(path: P, ctx: Ctx, form: BodyForm, depth = 0, carrier?: { path: P; form: BodyForm }, outer: readonly P[] = []): BodySlot {
  const p = unwrap(path);
  const n = p.node;
  const here = carrier ?? { path: p, form };
  const carriers = (): P[] => [...outer, ...(here.form === 'object' ? [here.path] : [])];
  // Structural steps: the carrier moves inward while it is the expression being taken apart.
  const inward = (next: P): BodySlot => bodyOf(next, ctx, form, depth + 1, here.path === p ? undefined : here, outer);
  const toCaller = (next: P, nextCtx: Ctx): BodySlot => bodyOf(next, nextCtx, form, depth + 1, undefined, carriers());
  if (depth > 20) return { kind: 'opaque', carriers: carriers() };
  if (isNullish(n)) return { kind: 'absent', insert: { kind: 'replace', path: p, form } };
  if (isJsonStringify(n) && n.arguments.length >= 1) return bodyOf(p.get('arguments', 0), ctx, 'object', depth + 1, here.form === 'object' && here.path !== p ? here : undefined, outer);
  if (n.type === 'ConditionalExpression' && isNullish(n.alternate)) return inward(p.get('consequent'));
  if (n.type === 'ConditionalExpression' && isNullish(n.consequent)) return inward(p.get('alternate'));
  if (n.type === 'LogicalExpression' && n.operator === '&&') return inward(p.get('right'));
  // A choice between two body literals is both bodies (rules/body.ts migrates each), whatever the test.
  if (n.type === 'ConditionalExpression' && unwrap(p.get('consequent')).node.type === 'ObjectExpression' && unwrap(p.get('alternate')).node.type === 'ObjectExpression') {
    return { kind: 'value', value: { path: p, ctx }, form, carriers: carriers() };
  }
  if (n.type === 'ConditionalExpression') {
    const chosen = byPresence(p as P<t.ConditionalExpression>, (branch) => inward(branch));
    if (chosen) return chosen;
  }
  // A property of an options object literal (a caller's `{ json: input }`): the body is written there.
  const read = propertyRead(p, ctx);
  if (read && 'found' in read) return toCaller(read.found.path, read.found.ctx);
  if (read) return { kind: 'absent', insert: { kind: 'prop', object: read.object, key: read.key, form } };
  if (n.type === 'Identifier') {
    const r = resolveParamArg(p, ctx);
    if (r && 'unbound' in r) return { kind: 'opaque', unboundFn: r.unbound, carriers: carriers() };
    if (r && 'missing' in r) return { kind: 'absent', insert: { kind: 'arg', call: r.call, index: r.index, form } };
    // A caller's argument: the body is now written there.
    if (r) return toCaller(r.path, ctx);
  }
  const r = resolveExpr(p, ctx);
  if (!isResolved(r)) return r.unboundFn ? { kind: 'opaque', unboundFn: r.unboundFn, carriers: carriers() } : { kind: 'opaque', carriers: carriers() };
  if (r.path !== p && (r.path.node.type === 'ObjectExpression' || isNullish(r.path.node) || isJsonStringify(r.path.node))) return bodyOf(r.path, r.ctx, form, depth + 1, here, outer);
  return { kind: 'value', value: r, form, carriers: carriers() };
}

/**
 * `json !== undefined ? JSON.stringify(json) : rest.body` (a wrapper's `json` option): the branch a
 * presence test of one value picks. When neither value is given at the call, the body goes where the
 * tested value would be (`json: …` in the caller's options), which makes the test pick that branch.
 */
function byPresence(p: P<t.ConditionalExpression>, follow: (branch: P) => BodySlot): BodySlot | null {
  const test = presenceTest(p.node.test);
  if (!test) return null;
  const [ifPresent, ifAbsent] = test.present ? ['consequent', 'alternate'] : ['alternate', 'consequent'];
  const tested = follow(p.get(ifPresent));
  if (tested.kind !== 'absent') return tested;
  const other = follow(p.get(ifAbsent));
  return other.kind === 'absent' ? tested : other;
}

/** `x`, `!x`, `x !== undefined`, `x != null`, `x === undefined`, `x == null`: whether the test holds when x is present. */
function presenceTest(t: N): { present: boolean } | null {
  if (t.type === 'Identifier') return { present: true };
  if (t.type === 'UnaryExpression' && t.operator === '!' && t.argument.type === 'Identifier') return { present: false };
  if (t.type !== 'BinaryExpression' || !['!==', '!=', '===', '=='].includes(t.operator)) return null;
  const nullish = (x: N): boolean => isNullish(x);
  if (!(t.left.type === 'Identifier' && nullish(t.right)) && !(t.right.type === 'Identifier' && nullish(t.left))) return null;
  return { present: t.operator.startsWith('!') };
}

/**
 * A value read from an options object literal, typically a caller's (`json` of `const { json } = init`
 * with `init` = `{ method: 'POST', json: input }`, or `rest.body`): the property, or where to add it.
 */
function propertyRead(p: P, ctx: Ctx): { found: Resolved } | { object: P<t.ObjectExpression>; key: string } | null {
  let objectExpr: P | null = null;
  let key: string | null = null;
  if (p.node.type === 'Identifier') {
    const b = bindingOf(p);
    if (b.kind !== 'var' || b.keyPath.length !== 1 || !b.init) return null;
    [objectExpr, key] = [b.init, b.keyPath[0]!];
  } else if (p.node.type === 'MemberExpression' && !p.node.computed) {
    [objectExpr, key] = [p.get('object'), memberName(p.node)];
  }
  if (!objectExpr || !key) return null;
  const obj = resolveExpr(objectExpr, ctx);
  if (!isResolved(obj) || obj.path.node.type !== 'ObjectExpression') return null;
  const prop = findProp(obj, key);
  if ('found' in prop) return { found: prop.found };
  return 'missing' in prop ? { object: obj.path as P<t.ObjectExpression>, key } : null;
}

/** For a parameter identifier: the argument passed in the current frame, or where it would go. */
function resolveParamArg(p: P, ctx: Ctx): { path: P } | { missing: true; call: P<CallLike>; index: number } | { unbound: P } | null {
  const name = (p.node as t.Identifier).name;
  const scope = lookupScope(p, name);
  const decl: P | undefined = scope?.declaration(name);
  if (!decl || decl.parentPath?.name !== 'params') return null;
  const fnPath: P = decl.parentPath.parentPath;
  const frame = ctx.get(fnPath.node);
  if (!frame) return { unbound: fnPath };
  const index = Number(decl.name);
  const arg = frame.args[index];
  if (arg && !isNullish(arg.node)) return { path: arg };
  return { missing: true, call: frame.call, index };
}

/** The init/config object of a call, or where a new one would be added. */
export function configObject(call: P<CallLike>, index: number, ctx: Ctx, touched: Set<N>): Resolved | { missingAt: { call: P<CallLike>; index: number } } | null {
  const arg = call.node.arguments[index];
  if (!arg) return { missingAt: { call, index } };
  const p = unwrap(call.get('arguments', index));
  if (p.node.type === 'Identifier') {
    const r = resolveParamArg(p, ctx);
    if (r && 'missing' in r) {
      touched.add(r.call.node);
      return { missingAt: { call: r.call, index: r.index } };
    }
  }
  const r = resolveExpr(p, ctx);
  if (!isResolved(r) || r.path.node.type !== 'ObjectExpression') return null;
  return r;
}

/** A property of an options object (also one written later: `options.body = …`), recording what was read. */
export function lookup(obj: Resolved, key: string, touched: Set<N>): ReturnType<typeof findProp> {
  const r = findProp(obj, key);
  if ('missing' in r) {
    // `const options = { method }; if (body) options.body = JSON.stringify(body);`
    const holder = obj.path.parentPath?.value;
    if (holder?.type === 'VariableDeclarator' && holder.id.type === 'Identifier' && holder.init === obj.path.node) {
      const writes = writesTo(obj.path.parentPath.get('id') as P<t.Identifier>, obj.ctx).filter((w) => w.key === key);
      if (writes.length === 1) {
        touched.add(obj.path.node);
        return { found: { path: writes[0]!.value, ctx: obj.ctx }, owner: obj.path };
      }
    }
  }
  if ('found' in r) touched.add(r.owner.node);
  else r.objects.forEach((o) => touched.add(o.node));
  return r;
}

/** Pick the object literal to add a property to: the first one written at the call (not shared code). */
function insertionObject(objects: P[], root: P): P<t.ObjectExpression> {
  const inside = objects.find((o) => o.node.start! >= root.node.start! && o.node.end! <= root.node.end!);
  return (inside ?? objects[0]!) as P<t.ObjectExpression>;
}

export function methodFrom(found: Resolved): MethodRef {
  const pieces = evalString(found.path, found.ctx);
  const text = pieces.length === 1 && pieces[0]!.kind === 'text' ? pieces[0].text.toUpperCase() : null;
  return { kind: 'pieces', value: text, pieces };
}

/** The method written as the member called (`api.post`, `client.GET`). */
export function memberMethod(call: P<CallLike>, name: string): MethodRef {
  return { kind: 'member', value: name.replace(/Form$/, '').toUpperCase(), member: unwrap(call.get('callee')).get('property') as P<t.MemberExpression['property']> };
}

function headersFrom(cfg: Resolved | null, touched: Set<N>): HeadersRef {
  if (!cfg) return { kind: 'opaque' };
  const h = lookup(cfg, 'headers', touched);
  if ('opaque' in h) return { kind: 'opaque' };
  if ('missing' in h) return { kind: 'none', insert: null };
  const r = resolveExpr(h.found.path, h.found.ctx);
  if (!isResolved(r) || r.path.node.type !== 'ObjectExpression') return { kind: 'opaque' };
  const objects: Array<P<t.ObjectExpression>> = [];
  let contentType: boolean | 'unknown' = false;
  // `obj` is an object literal (each is tested before it is scanned).
  const scan = (obj: Resolved, depth: number): void => {
    const object = obj.path as P<t.ObjectExpression>;
    objects.push(object);
    touched.add(object.node);
    object.node.properties.forEach((prop, i) => {
      if (prop.type === 'SpreadElement') {
        const arg = obj.path.get('properties', i, 'argument');
        const inner = resolveExpr(arg, obj.ctx);
        if (isResolved(inner) && inner.path.node.type === 'ObjectExpression' && depth < 10) scan(inner, depth + 1);
        else if (contentType === false && !spreadsNothing(arg, obj.ctx, touched)) contentType = 'unknown';
      } else if (prop.type === 'ObjectProperty' && keyName(prop.key, prop.computed)?.toLowerCase() === 'content-type') contentType = true;
    });
  };
  scan(r, 0);
  return { kind: 'object', objects, contentType };
}

/** `...init.headers` where `init` is an object literal without `headers` (or `...undefined`): adds nothing. */
function spreadsNothing(arg: P, ctx: Ctx, touched: Set<N>): boolean {
  const p = unwrap(arg);
  if (isNullish(p.node)) return true;
  const name = memberName(p.node);
  if (name === null || (p.node as t.MemberExpression).computed) return false;
  const owner = resolveExpr(p.get('object'), ctx);
  if (!isResolved(owner) || owner.path.node.type !== 'ObjectExpression') return false;
  return 'missing' in lookup(owner, name, touched);
}

/** A base URL and a path as the client joins them: an absolute path wins, one slash between the two. */
export function joinBase(base: UrlPiece[] | null, url: UrlPiece[], call: P): UrlPiece[] {
  const first = url[0];
  if (!base || (first?.kind === 'text' && /^[a-z][a-z0-9+.-]*:\/\//i.test(first.text))) return url;
  const last = base[base.length - 1];
  const needsSlash = !(last?.kind === 'text' && last.text.endsWith('/')) && !(first?.kind === 'text' && first.text.startsWith('/'));
  return [...base, ...(needsSlash ? [{ kind: 'text', text: '/', origin: { path: call } } as UrlPiece] : []), ...url];
}

/** An argument that is an options object rather than a URL (`axios(config)`, `axios(opts)`). */
export function isOptionsArgument(arg: P, ctx: Ctx): boolean {
  if (unwrap(arg).node.type === 'ObjectExpression') return true;
  const r = resolveExpr(arg, ctx);
  return isResolved(r) && r.path.node.type === 'ObjectExpression';
}

/** The names a client gives the parts of its options object. */
export interface OptionKeys {
  /** Per-call base URL (`baseURL`, `prefixUrl`). */
  base: readonly string[];
  /** Body keys, looked for in order; a new body goes in the first. */
  body: ReadonlyArray<{ key: string; form: BodyForm }>;
  /** Query keys (`params`, `searchParams`, `query`). */
  query: readonly string[];
}

interface OptionParts {
  /** The options object, when it is a literal the tool can see. */
  options: Resolved | null;
  method: MethodRef;
  body: BodySlot;
  headers: HeadersRef;
  query: Resolved | null;
  /** The query option's value as written (before resolving it). */
  queryOption?: P;
  base: UrlPiece[] | null;
}

/** The first of `keys` present in an options object (through spreads), or null. */
function firstValue(options: Resolved | null, keys: readonly string[], touched?: Set<N>): Resolved | null {
  if (!options) return null;
  for (const key of keys) {
    const r = touched ? lookup(options, key, touched) : findProp(options, key);
    if ('found' in r) return r.found;
  }
  return null;
}

/** The base URL an options object carries under one of `keys`, as pieces. */
export function baseOf(options: Resolved | null, keys: readonly string[], touched: Set<N>): UrlPiece[] | null {
  const found = firstValue(options, keys, touched);
  return found ? evalString(found.path, found.ctx) : null;
}

/** Read method, body, headers, query and per-call base from argument `index` of a call (an options object). */
export function optionParts(call: P<CallLike>, index: number, ctx: Ctx, keys: OptionKeys, root: P, touched: Set<N>): OptionParts {
  const [first] = keys.body;
  const opts = configObject(call, index, ctx, touched);
  if (opts === null) return { options: null, method: UNKNOWN_METHOD, body: { kind: 'opaque', carriers: [] }, headers: { kind: 'opaque' }, query: null, base: null };
  if ('missingAt' in opts) {
    const insert: Insertion | null = first ? { kind: 'arg', call: opts.missingAt.call, index: opts.missingAt.index, form: first.form, wrapIn: first.key } : null;
    return { options: null, method: { kind: 'default', value: 'GET' }, body: { kind: 'absent', insert }, headers: { kind: 'none', insert: null }, query: null, base: null };
  }
  touched.add(opts.path.node);
  const m = lookup(opts, 'method', touched);
  const method: MethodRef = 'found' in m ? methodFrom(m.found) : 'missing' in m ? { kind: 'default', value: 'GET' } : UNKNOWN_METHOD;
  let body: BodySlot = { kind: 'absent', insert: null };
  for (const { key, form } of keys.body) {
    const b = lookup(opts, key, touched);
    if ('found' in b) {
      body = bodyOf(b.found.path, b.found.ctx, form);
      break;
    }
    if ('opaque' in b) body = { kind: 'opaque', carriers: [] };
    else if (body.kind === 'absent' && !body.insert && first) body = { kind: 'absent', insert: { kind: 'prop', object: insertionObject(b.objects, root), key: first.key, form: first.form } };
  }
  const q = firstValue(opts, keys.query);
  const query = q ? resolveExpr(q.path, q.ctx) : null;
  return { options: opts, method, body, headers: headersFrom(opts, touched), query: query && isResolved(query) ? query : null, ...(q ? { queryOption: q.path } : {}), base: baseOf(opts, keys.base, touched) };
}
