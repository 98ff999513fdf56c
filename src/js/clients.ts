import type { Ctx } from './context.js';
import { bindingOf, isFunction, memberName, requiredModule, unwrap, type N, type P } from './scope.js';
import { isResolved, resolveExpr, type Resolved } from './values.js';

const FETCH_MODULES = new Set(['node-fetch', 'cross-fetch', 'isomorphic-fetch', 'isomorphic-unfetch', 'undici']);
const AXIOS_BODY_METHODS = new Set(['post', 'put', 'patch', 'postForm', 'putForm', 'patchForm']);
const AXIOS_METHODS = new Set(['get', 'delete', 'head', 'options', 'request', ...AXIOS_BODY_METHODS]);
const GLOBAL_OBJECTS = new Set(['globalThis', 'window', 'self', 'global']);

/** What a call's callee turns out to be. */
export type Callee =
  | { kind: 'fetch' }
  | { kind: 'axios'; method: string | null; instance: Resolved | null }
  | { kind: 'function'; fn: P; ctx: Ctx }
  | { kind: 'declared'; wrapper: DeclaredWrapper }
  /** `client.GET(path, init)` on `createClient({ baseUrl })` from openapi-fetch; `create` is the createClient call. */
  | { kind: 'openapi-fetch'; method: string; create: Resolved };

/**
 * A wrapper declared in the config (its code is not in the run): calls to a function of that name take
 * a path relative to the v1 base at argument `path`, and optionally the method and a JSON body.
 */
export interface DeclaredWrapper {
  name: string;
  path: number;
  method?: number | undefined;
  body?: number | undefined;
}

function declaredWrapper(calleePath: P, declared: readonly DeclaredWrapper[]): DeclaredWrapper | undefined {
  const n = calleePath.node;
  const name = n.type === 'Identifier' ? n.name : memberName(n);
  return name ? declared.find((w) => w.name.split('.').pop() === name) : undefined;
}

/** The module an identifier was imported or required from, with the imported name. */
function moduleOf(idPath: P): { source: string; imported: string } | null {
  const b = bindingOf(idPath);
  if (b.kind === 'import') return { source: b.source, imported: b.imported };
  if (b.kind === 'var' && b.init) {
    const init = unwrap(b.init).node;
    const direct = requiredModule(init);
    if (direct) return { source: direct, imported: b.keyPath[0] ?? 'default' };
    // require('axios').default
    if (init.type === 'MemberExpression' && requiredModule(init.object)) return { source: requiredModule(init.object)!, imported: memberName(init) ?? 'default' };
  }
  return null;
}

function isAxiosModule(r: Resolved): boolean {
  const n = r.path.node;
  if (n.type === 'ImportDefaultSpecifier' || n.type === 'ImportNamespaceSpecifier' || n.type === 'ImportSpecifier') {
    const source = r.path.parentPath.parentPath.node.source.value;
    return source === 'axios' && (n.type !== 'ImportSpecifier' || memberName({ type: 'MemberExpression', property: n.imported }) === 'default');
  }
  if (n.type === 'Identifier') {
    const m = moduleOf(r.path);
    return !!m && m.source === 'axios' && (m.imported === 'default' || m.imported === 'axios');
  }
  if (n.type === 'CallExpression' && requiredModule(n) === 'axios') return true;
  return false;
}

/** `axios.create(config)` → the config (or null when called without one). */
function axiosInstanceConfig(r: Resolved): Resolved | null | undefined {
  const n = r.path.node;
  if (n.type !== 'CallExpression' || memberName(n.callee) !== 'create') return undefined;
  const obj = resolveExpr(r.path.get('callee', 'object'), r.ctx);
  if (!isResolved(obj) || !isAxiosModule(obj)) return undefined;
  if (!n.arguments.length) return null;
  const cfg = resolveExpr(r.path.get('arguments', 0), r.ctx);
  return isResolved(cfg) ? cfg : null;
}

function isFetchIdentifier(path: P): boolean {
  const n = path.node;
  if (n.type !== 'Identifier') return false;
  const b = bindingOf(path);
  if (b.kind === 'global') return n.name === 'fetch';
  const m = moduleOf(path);
  if (!m || !FETCH_MODULES.has(m.source)) return false;
  // undici's `request(url, { method, body, headers })` reads like fetch for our purposes.
  return m.source === 'undici' ? m.imported === 'fetch' || m.imported === 'request' : m.imported === 'default' || m.imported === 'fetch';
}

/** Classify a call's callee: a fetch-like function, axios (or an instance), or a user function. */
export function classifyCallee(call: P, ctx: Ctx, declared: readonly DeclaredWrapper[] = []): Callee | null {
  const found = classifyKnownCallee(call, ctx);
  if (found) return found;
  const wrapper = declared.length ? declaredWrapper(unwrap(call.get('callee')), declared) : undefined;
  return wrapper ? { kind: 'declared', wrapper } : null;
}

function classifyKnownCallee(call: P, ctx: Ctx): Callee | null {
  const calleePath = unwrap(call.get('callee'));
  const callee = calleePath.node;
  if (callee.type === 'Identifier') {
    if (isFetchIdentifier(calleePath)) return { kind: 'fetch' };
    const r = resolveExpr(calleePath, ctx);
    if (!isResolved(r)) return null;
    if (r.path.node.type === 'Identifier' && r.path !== calleePath && isFetchIdentifier(r.path)) return { kind: 'fetch' };
    if (isAxiosModule(r)) return { kind: 'axios', method: null, instance: null };
    const cfg = axiosInstanceConfig(r);
    if (cfg !== undefined) return { kind: 'axios', method: null, instance: cfg };
    if (isFunction(r.path.node)) return { kind: 'function', fn: r.path, ctx: r.ctx };
    return null;
  }
  if (callee.type === 'MemberExpression' || callee.type === 'OptionalMemberExpression') {
    const name = memberName(callee);
    if (name === null) return null;
    const objPath = unwrap(calleePath.get('object'));
    if (objPath.node.type === 'Identifier' && GLOBAL_OBJECTS.has(objPath.node.name) && name === 'fetch' && bindingOf(objPath).kind === 'global') return { kind: 'fetch' };
    const obj = resolveExpr(objPath, ctx);
    if (isResolved(obj) && OPENAPI_FETCH_METHODS.has(name) && isOpenapiFetchClient(obj)) return { kind: 'openapi-fetch', method: name, create: obj };
    if (isResolved(obj) && AXIOS_METHODS.has(name)) {
      if (isAxiosModule(obj)) return { kind: 'axios', method: name, instance: null };
      const cfg = axiosInstanceConfig(obj);
      if (cfg !== undefined) return { kind: 'axios', method: name, instance: cfg };
    }
    const r = resolveExpr(calleePath, ctx);
    if (isResolved(r) && isFunction(r.path.node)) return { kind: 'function', fn: r.path, ctx: r.ctx };
    if (isResolved(r) && r.path.node.type === 'Identifier' && isFetchIdentifier(r.path)) return { kind: 'fetch' };
    return null;
  }
  return null;
}

const OPENAPI_FETCH_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

/** `createClient(…)` imported from openapi-fetch (default or named). */
function isOpenapiFetchClient(r: Resolved): boolean {
  const n = r.path.node;
  if (n.type !== 'CallExpression' || n.callee.type !== 'Identifier') return false;
  const m = moduleOf(r.path.get('callee'));
  return !!m && m.source === 'openapi-fetch';
}

export const axiosTakesBody = (method: string): boolean => AXIOS_BODY_METHODS.has(method);

export type { N };
