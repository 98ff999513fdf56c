import type { Ctx } from './context.js';
import { writesTo } from './body/props.js';
import { axiosTakesBody, classifyCallee, type Callee, type DeclaredWrapper } from './clients.js';
import { bindingOf, keyName, lookupScope, memberName, unwrap, type N, type P } from './scope.js';
import { argsOf, evalString, findProp, isResolved, resolveExpr, type Resolved, type UrlPiece } from './values.js';

/** How a request's method is expressed, so it can be read and rewritten. */
export type MethodRef =
  | { kind: 'pieces'; value: string | null; pieces: UrlPiece[] }
  | { kind: 'axios-member'; value: string; member: P }
  | { kind: 'default'; value: 'GET' };

/** Where a body value would go when the request has none. */
export type Insertion =
  | { kind: 'prop'; object: P; key: string; form: BodyForm }
  | { kind: 'arg'; call: P; index: number; form: BodyForm; wrapInit?: boolean }
  | { kind: 'replace'; path: P; form: BodyForm };

/** `string`: the client sends the value as is (fetch), so JSON must be stringified; `object`: the client serializes. */
export type BodyForm = 'string' | 'object';

/**
 * `carriers`: the user-code expressions that hold the body object on its way to the request, one per
 * function it passes through, innermost first (`body` in a wrapper's `JSON.stringify(body)`, then
 * `params` in the caller's `request('/pods', 'POST', params)`): where a run-time adapter call can wrap
 * it. A level whose expression holds a JSON string rather than the object has none.
 */
export type BodySlot =
  | { kind: 'value'; value: Resolved; form: BodyForm; carriers: P[] }
  | { kind: 'absent'; insert: Insertion | null }
  /** Not visible here; `unboundFn` when it is a parameter of a function whose callers may show it. */
  | { kind: 'opaque'; unboundFn?: P; carriers: P[] };

export type HeadersRef = { kind: 'object'; objects: P[]; contentType: boolean | 'unknown' } | { kind: 'none'; insert: Insertion | null } | { kind: 'opaque' };

/** One HTTP request in source code, whatever client makes it (DESIGN.md §3). */
export interface HttpSite {
  call: P;
  client: 'fetch' | 'axios' | 'openapi-fetch';
  url: UrlPiece[];
  method: MethodRef;
  body: BodySlot;
  headers: HeadersRef;
  /** Object literals and calls whose content decides this request (for shared-edit arbitration). */
  touched: Set<N>;
  /** Identifiers, `this.x` and `process.env.X` reads its evaluation passed through (coverage of bases). */
  visited: Set<N>;
}

const isNullish = (n: N): boolean => n.type === 'NullLiteral' || (n.type === 'Identifier' && n.name === 'undefined');
const isJsonStringify = (n: N): boolean => n.type === 'CallExpression' && n.callee.type === 'MemberExpression' && n.callee.object.type === 'Identifier' && n.callee.object.name === 'JSON' && memberName(n.callee) === 'stringify';

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
  if (n.type === 'ConditionalExpression') {
    const chosen = byPresence(p, (branch) => inward(branch));
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
function byPresence(p: P, follow: (branch: P) => BodySlot): BodySlot | null {
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
function propertyRead(p: P, ctx: Ctx): { found: Resolved } | { object: P; key: string } | null {
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
  return 'missing' in prop ? { object: obj.path, key } : null;
}

/** For a parameter identifier: the argument passed in the current frame, or where it would go. */
function resolveParamArg(p: P, ctx: Ctx): { path: P } | { missing: true; call: P; index: number } | { unbound: P } | null {
  const scope = lookupScope(p, p.node.name);
  const decl: P | undefined = scope?.declaration(p.node.name);
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
function configObject(call: P, index: number, ctx: Ctx, touched: Set<N>): Resolved | { missingAt: { call: P; index: number } } | null {
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

function lookup(obj: Resolved, key: string, touched: Set<N>): ReturnType<typeof findProp> {
  const r = findProp(obj, key);
  if ('missing' in r) {
    // `const options = { method }; if (body) options.body = JSON.stringify(body);`
    const holder = obj.path.parentPath?.value;
    if (holder?.type === 'VariableDeclarator' && holder.id.type === 'Identifier' && holder.init === obj.path.node) {
      const writes = writesTo(obj.path.parentPath.get('id'), obj.ctx).filter((w) => w.key === key);
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
function insertionObject(objects: P[], root: P): P {
  const inside = objects.find((o) => o.node.start >= root.node.start && o.node.end <= root.node.end);
  return inside ?? objects[0]!;
}

function methodFrom(found: Resolved): MethodRef {
  const pieces = evalString(found.path, found.ctx);
  const text = pieces.length === 1 && pieces[0]!.kind === 'text' ? pieces[0].text.toUpperCase() : null;
  return { kind: 'pieces', value: text, pieces };
}

function headersFrom(cfg: Resolved | null, touched: Set<N>): HeadersRef {
  if (!cfg) return { kind: 'opaque' };
  const h = lookup(cfg, 'headers', touched);
  if ('opaque' in h) return { kind: 'opaque' };
  if ('missing' in h) return { kind: 'none', insert: null };
  const r = resolveExpr(h.found.path, h.found.ctx);
  if (!isResolved(r) || r.path.node.type !== 'ObjectExpression') return { kind: 'opaque' };
  const objects: P[] = [];
  let contentType: boolean | 'unknown' = false;
  const scan = (obj: Resolved, depth: number): void => {
    objects.push(obj.path);
    touched.add(obj.path.node);
    (obj.path.node.properties as N[]).forEach((prop, i) => {
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
  if (name === null || p.node.computed) return false;
  const owner = resolveExpr(p.get('object'), ctx);
  if (!isResolved(owner) || owner.path.node.type !== 'ObjectExpression') return false;
  return 'missing' in lookup(owner, name, touched);
}

function combineAxiosUrl(base: UrlPiece[] | null, url: UrlPiece[], call: P): UrlPiece[] {
  const first = url[0];
  if (!base || (first?.kind === 'text' && /^[a-z][a-z0-9+.-]*:\/\//i.test(first.text))) return url;
  const last = base[base.length - 1];
  const needsSlash = !(last?.kind === 'text' && last.text.endsWith('/')) && !(first?.kind === 'text' && first.text.startsWith('/'));
  return [...base, ...(needsSlash ? [{ kind: 'text', text: '/', origin: { path: call } } as UrlPiece] : []), ...url];
}

/** Build the request model for a fetch or axios call evaluated in `ctx`; `root` is where the chain began. */
export function buildSite(call: P, callee: Callee, ctx: Ctx, root: P, legacyBase = ''): HttpSite | null {
  const touched = new Set<N>([call.node]);
  if (callee.kind === 'fetch') {
    if (!call.node.arguments.length) return null;
    const url = evalString(call.get('arguments', 0), ctx);
    const init = configObject(call, 1, ctx, touched);
    if (init === null) return { call, client: 'fetch', url, method: { kind: 'pieces', value: null, pieces: [] }, body: { kind: 'opaque', carriers: [] }, headers: { kind: 'opaque' }, touched, visited: new Set() };
    if ('missingAt' in init) {
      const insert: Insertion = { kind: 'arg', call: init.missingAt.call, index: init.missingAt.index, form: 'string', wrapInit: true };
      return { call, client: 'fetch', url, method: { kind: 'default', value: 'GET' }, body: { kind: 'absent', insert }, headers: { kind: 'none', insert: null }, touched, visited: new Set() };
    }
    touched.add(init.path.node);
    const m = lookup(init, 'method', touched);
    const method: MethodRef = 'found' in m ? methodFrom(m.found) : 'missing' in m ? { kind: 'default', value: 'GET' } : { kind: 'pieces', value: null, pieces: [] };
    const b = lookup(init, 'body', touched);
    const body: BodySlot =
      'found' in b ? bodyOf(b.found.path, b.found.ctx, 'string') : 'missing' in b ? { kind: 'absent', insert: { kind: 'prop', object: insertionObject(b.objects, root), key: 'body', form: 'string' } } : { kind: 'opaque', carriers: [] };
    return { call, client: 'fetch', url, method, body, headers: headersFrom(init, touched), touched, visited: new Set() };
  }
  if (callee.kind === 'declared') return declaredSite(call, callee.wrapper, ctx, legacyBase, touched);
  if (callee.kind === 'openapi-fetch') return openapiFetchSite(call, callee.method, callee.create, ctx, touched);
  if (callee.kind !== 'axios') return null;
  const args = argsOf(call);
  const instanceBase = callee.instance ? baseUrlOf(callee.instance, touched) : null;
  const name = callee.method;
  if (name === null || name === 'request') {
    // axios(config) | axios(url, config) | axios.request(config)
    const urlFirst = name === null && args.length >= 1 && unwrap(args[0]!).node.type !== 'ObjectExpression' && !isConfigIdentifier(args[0]!, ctx);
    const cfg = configObject(call, urlFirst ? 1 : 0, ctx, touched);
    const cfgObj = cfg && 'path' in cfg ? cfg : null;
    if (cfgObj) touched.add(cfgObj.path.node);
    let url: UrlPiece[] = [];
    if (urlFirst) url = evalString(args[0]!, ctx);
    else if (cfgObj) {
      const u = lookup(cfgObj, 'url', touched);
      if ('found' in u) url = evalString(u.found.path, u.found.ctx);
      else return null;
    } else return null;
    const base = (cfgObj && baseUrlOf(cfgObj, touched)) ?? instanceBase;
    let method: MethodRef = { kind: 'pieces', value: null, pieces: [] };
    let body: BodySlot = { kind: 'opaque', carriers: [] };
    if (cfgObj) {
      const m = lookup(cfgObj, 'method', touched);
      method = 'found' in m ? methodFrom(m.found) : 'missing' in m ? { kind: 'default', value: 'GET' } : method;
      const d = lookup(cfgObj, 'data', touched);
      body = 'found' in d ? bodyOf(d.found.path, d.found.ctx, 'object') : 'missing' in d ? { kind: 'absent', insert: { kind: 'prop', object: insertionObject(d.objects, root), key: 'data', form: 'object' } } : body;
    }
    return { call, client: 'axios', url: combineAxiosUrl(base, url, call), method, body, headers: headersFrom(cfgObj, touched), touched, visited: new Set() };
  }
  if (!args.length) return null;
  const withBody = axiosTakesBody(name);
  const cfgIndex = withBody ? 2 : 1;
  const cfg = configObject(call, cfgIndex, ctx, touched);
  const cfgObj = cfg && 'path' in cfg ? cfg : null;
  if (cfgObj) touched.add(cfgObj.path.node);
  const base = (cfgObj && baseUrlOf(cfgObj, touched)) ?? instanceBase;
  const url = combineAxiosUrl(base, evalString(args[0]!, ctx), call);
  const method: MethodRef = { kind: 'axios-member', value: name.replace(/Form$/, '').toUpperCase(), member: unwrap(call.get('callee')).get('property') };
  let body: BodySlot = { kind: 'absent', insert: null };
  if (withBody) body = args[1] ? bodyOf(args[1], ctx, 'object') : { kind: 'absent', insert: { kind: 'arg', call, index: 1, form: 'object' } };
  return { call, client: 'axios', url, method, body, headers: headersFrom(cfgObj, touched), touched, visited: new Set() };
}

/**
 * `client.POST(path, { params, body })` on an openapi-fetch client: the URL is the client's baseUrl
 * followed by the path template, the method is the member name, the body is a JSON object.
 */
function openapiFetchSite(call: P, method: string, create: Resolved, ctx: Ctx, touched: Set<N>): HttpSite | null {
  const args = argsOf(call);
  if (!args[0]) return null;
  touched.add(create.path.node);
  const cfgArg = create.path.node.arguments[0] ? resolveExpr(create.path.get('arguments', 0), create.ctx) : null;
  const cfg = cfgArg && isResolved(cfgArg) && cfgArg.path.node.type === 'ObjectExpression' ? cfgArg : null;
  const base = cfg ? lookup(cfg, 'baseUrl', touched) : null;
  const basePieces = base && 'found' in base ? evalString(base.found.path, base.found.ctx) : [];
  const url = [...basePieces, ...evalString(args[0], ctx)];
  const init = configObject(call, 1, ctx, touched);
  const initObj = init && 'path' in init ? init : null;
  let body: BodySlot = { kind: 'absent', insert: init && 'missingAt' in init ? { kind: 'arg', call: init.missingAt.call, index: init.missingAt.index, form: 'object', wrapInit: true } : null };
  if (initObj) {
    touched.add(initObj.path.node);
    const b = lookup(initObj, 'body', touched);
    body = 'found' in b ? bodyOf(b.found.path, b.found.ctx, 'object') : 'missing' in b ? { kind: 'absent', insert: { kind: 'prop', object: initObj.path, key: 'body', form: 'object' } } : { kind: 'opaque', carriers: [] };
  }
  return { call, client: 'openapi-fetch', url, method: { kind: 'axios-member', value: method, member: unwrap(call.get('callee')).get('property') }, body, headers: { kind: 'opaque' }, touched, visited: new Set() };
}

/** A call to a config-declared wrapper: its path is relative to the (unseen) v1 base. */
function declaredSite(call: P, w: DeclaredWrapper, ctx: Ctx, legacyBase: string, touched: Set<N>): HttpSite | null {
  const args = argsOf(call);
  const pathArg = args[w.path];
  if (!pathArg) return null;
  const base: UrlPiece = { kind: 'text', text: legacyBase, origin: { path: call, declared: true } };
  const rel = evalString(pathArg, ctx);
  const first = rel[0];
  const sep: UrlPiece[] = first?.kind === 'text' && first.text.startsWith('/') ? [] : [{ kind: 'text', text: '/', origin: { path: call, declared: true } }];
  const methodArg = w.method === undefined ? undefined : args[w.method];
  const method: MethodRef = methodArg ? methodFrom({ path: methodArg, ctx }) : { kind: 'default', value: 'GET' };
  const bodyArg = w.body === undefined ? undefined : args[w.body];
  const body: BodySlot = w.body === undefined ? { kind: 'absent', insert: null } : bodyArg ? bodyOf(bodyArg, ctx, 'object') : { kind: 'absent', insert: { kind: 'arg', call, index: w.body, form: 'object' } };
  return { call, client: 'fetch', url: [base, ...sep, ...rel], method, body, headers: { kind: 'opaque' }, touched, visited: new Set() };
}

function isConfigIdentifier(arg: P, ctx: Ctx): boolean {
  const r = resolveExpr(arg, ctx);
  return isResolved(r) && r.path.node.type === 'ObjectExpression';
}

function baseUrlOf(cfg: Resolved, touched: Set<N>): UrlPiece[] | null {
  const b = lookup(cfg, 'baseURL', touched);
  return 'found' in b ? evalString(b.found.path, b.found.ctx) : null;
}

export { classifyCallee };
