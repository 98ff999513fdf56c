/**
 * openapi-fetch: `client.POST(path, { params, body })` on `createClient<paths>({ baseUrl })`. The URL
 * is the baseUrl followed by the path template, the method the member name, the body a JSON object,
 * the query `params.query`; the result is `{ data, error }` typed from the schema.
 */
import { argsOf, evalString, findProp, isResolved, resolveExpr, type Resolved } from '../values.js';
import { unwrap } from '../scope.js';
import type { P, t } from '../ast.js';
import type { ClientAdapter, Instance } from './adapter.js';
import { makeSite } from './instances.js';
import type { BodySlot } from './model.js';
import { moduleOf } from './modules.js';
import { baseOf, bodyOf, configObject, lookup, memberMethod } from './parts.js';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

/** `createClient(…)` imported from openapi-fetch (default or named). */
function isCreateClient(r: Resolved): boolean {
  const n = r.path.node;
  if (n.type !== 'CallExpression' || n.callee.type !== 'Identifier') return false;
  const m = moduleOf(r.path.get('callee'));
  return !!m && m.source === 'openapi-fetch';
}

/** The value of `obj.key` when it is an object literal. */
function objectAt(obj: Resolved | null, key: string): Resolved | null {
  if (!obj) return null;
  const found = findProp(obj, key);
  const r = 'found' in found ? resolveExpr(found.found.path, found.found.ctx) : null;
  return r && isResolved(r) && r.path.node.type === 'ObjectExpression' ? r : null;
}

/** The client a value is, with the options given to `createClient` (their `baseUrl`). */
function instanceOf(value: Resolved): Instance | null {
  if (!isCreateClient(value)) return null;
  // isCreateClient: the value is a `createClient(…)` call.
  const cfg = (value.path.node as t.CallExpression).arguments[0] ? resolveExpr(value.path.get('arguments', 0), value.ctx) : null;
  const options = cfg && isResolved(cfg) && cfg.path.node.type === 'ObjectExpression' ? cfg : null;
  return { configs: options ? [options] : [], opaque: !!cfg && !options, factory: null };
}

export const openapiFetchAdapter: ClientAdapter = {
  name: 'openapi-fetch',
  recognise({ member, value }, env) {
    if (env.unknownFactories || member === null || !METHODS.has(member) || !value) return null;
    const instance = instanceOf(value);
    return instance ? { kind: 'client', adapter: openapiFetchAdapter, member, instance } : null;
  },
  instanceOf: (value) => instanceOf(value),
  site(call, c, ctx, env) {
    const args = argsOf(call);
    if (!args[0] || c.member === null) return null;
    const { touched } = env;
    // Resolved again here, so the client variable counts as read by this request (base coverage).
    const client = resolveExpr(unwrap(call.get('callee', 'object')), ctx);
    if (isResolved(client)) touched.add(client.path.node);
    const instance = (isResolved(client) && instanceOf(client)) || c.instance;
    const basePieces = baseOf(instance?.configs[0] ?? null, ['baseUrl'], touched) ?? [];
    const url = [...basePieces, ...evalString(args[0], ctx)];
    const init = configObject(call, 1, ctx, touched);
    const initObj = init && 'path' in init ? init : null;
    let body: BodySlot = { kind: 'absent', insert: init && 'missingAt' in init ? { kind: 'arg', call: init.missingAt.call, index: init.missingAt.index, form: 'object', wrapIn: 'body' } : null };
    if (initObj) {
      touched.add(initObj.path.node);
      const b = lookup(initObj, 'body', touched);
      body = 'found' in b ? bodyOf(b.found.path, b.found.ctx, 'object') : 'missing' in b ? { kind: 'absent', insert: { kind: 'prop', object: initObj.path as P<t.ObjectExpression>, key: 'body', form: 'object' } } : { kind: 'opaque', carriers: [] };
    }
    const query = objectAt(objectAt(initObj, 'params'), 'query');
    return makeSite(call, 'openapi-fetch', { url, method: memberMethod(call, c.member), body, headers: { kind: 'opaque' }, query, response: 'typed', touched });
  },
};
