/**
 * fetch: the global (also `globalThis.fetch`, `window.fetch`), a parameter that defaults to it,
 * node-fetch, cross-fetch, isomorphic fetches and undici's `fetch` and `request`: `fetch(url, { method, body: JSON.stringify(…), headers })`,
 * answering a Response whose `.json()` is the body.
 */
import { EMPTY_CTX } from '../context.js';
import { bindingOf, lookupScope, memberName, unwrap } from '../scope.js';
import type { P } from '../ast.js';
import { evalString, isResolved, resolveExpr } from '../values.js';
import type { ClientAdapter } from './adapter.js';
import type { HttpSite } from './model.js';
import { makeSite } from './instances.js';
import { moduleOf } from './modules.js';
import { optionParts, type OptionKeys } from './parts.js';

const FETCH_MODULES = new Set(['node-fetch', 'cross-fetch', 'isomorphic-fetch', 'isomorphic-unfetch', 'undici']);
/** Modules whose own types declare `json(): Promise<unknown>` (node-fetch 3, undici); the others use the DOM's `Promise<any>`. */
const UNKNOWN_JSON_MODULES = new Set(['node-fetch', 'undici']);
const GLOBAL_OBJECTS = new Set(['globalThis', 'window', 'self', 'global']);
const KEYS: OptionKeys = { base: [], body: [{ key: 'body', form: 'string' }], query: [] };

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

/** `globalThis`, `window`, … themselves (not a variable of that name). */
function isGlobalObject(path: P): boolean {
  const obj = unwrap(path);
  return obj.node.type === 'Identifier' && GLOBAL_OBJECTS.has(obj.node.name) && bindingOf(obj).kind === 'global';
}

/** `fetch`, `globalThis.fetch`, `window.fetch`, … as an expression (a default value). */
function isFetchExpression(path: P): boolean {
  const n = path.node;
  if (n.type === 'Identifier') return isFetchIdentifier(path);
  return n.type === 'MemberExpression' && memberName(n) === 'fetch' && isGlobalObject(path.get('object'));
}

/**
 * A parameter whose default is fetch (`{ fetchImpl = globalThis.fetch }`, `(url, f = fetch)`): code
 * written to be tested injects its HTTP function, and whatever is passed in stands for fetch.
 */
function isInjectedFetch(path: P): boolean {
  if (path.node.type !== 'Identifier' || bindingOf(path).kind !== 'param') return false;
  const decl = lookupScope(path, path.node.name)?.declaration(path.node.name);
  return decl?.name === 'left' && decl.parentPath?.node.type === 'AssignmentPattern' && isFetchExpression(decl.parentPath.get('right'));
}

/**
 * The fetch is imported (not required: `require` is untyped in TypeScript) from a module whose
 * Response types a parsed body `unknown`.
 */
function parsesToUnknown(call: P): boolean {
  const callee = resolveExpr(call.get('callee'), EMPTY_CTX);
  if (!isResolved(callee) || callee.path.node.type !== 'Identifier' || bindingOf(callee.path).kind !== 'import') return false;
  const m = moduleOf(callee.path);
  return !!m && UNKNOWN_JSON_MODULES.has(m.source);
}

export const fetchAdapter: ClientAdapter = {
  name: 'fetch',
  recognise({ callee, member, value }, env) {
    if (env.unknownFactories) return null;
    const yes = { kind: 'client', adapter: fetchAdapter, member: null, instance: null } as const;
    if (member === null) {
      if (isFetchIdentifier(callee) || isInjectedFetch(callee)) return yes;
      return value && value.path.node.type === 'Identifier' && value.path !== callee && isFetchIdentifier(value.path) ? yes : null;
    }
    if (member === 'fetch' && isGlobalObject(callee.get('object'))) return yes;
    // `const http = { fetch }; http.fetch(…)`: a member that is fetch itself.
    const r = resolveExpr(callee, EMPTY_CTX);
    return isResolved(r) && r.path.node.type === 'Identifier' && isFetchIdentifier(r.path) ? yes : null;
  },
  site(call, _c, ctx, env) {
    if (!call.node.arguments.length) return null;
    const url = evalString(call.get('arguments', 0), ctx);
    const { method, body, headers } = optionParts(call, 1, ctx, KEYS, env.root, env.touched);
    const parsed: Pick<HttpSite, 'parsedBody'> = parsesToUnknown(call) ? { parsedBody: 'unknown' } : {};
    return makeSite(call, 'fetch', { url, method, body, headers, response: 'fetch', contentTypeByHand: true, touched: env.touched, ...parsed });
  },
};
