/**
 * ofetch (and Nuxt's global `$fetch`): `ofetch(url, { method, body, query })` and instances from
 * `ofetch.create({ baseURL })`. The body is an object ofetch serializes, the query `query` (or
 * `params`); the promise resolves to the parsed body itself.
 */
import type { ClientAdapter } from './adapter.js';
import { instanceOf, recogniseWith, urlOptionsSite, type ClientSpec } from './instances.js';
import type { OptionKeys } from './parts.js';

const SPEC: ClientSpec = {
  library: { modules: new Set(['ofetch', 'ohmyfetch']), names: new Set(['ofetch', '$fetch']), global: '$fetch' },
  factories: new Set(['create']),
  members: new Set(),
  baseKeys: ['baseURL'],
};
const KEYS: OptionKeys = { base: ['baseURL'], body: [{ key: 'body', form: 'object' }], query: ['query', 'params'] };

export const ofetchAdapter: ClientAdapter = {
  name: 'ofetch',
  recognise: (target, env) => recogniseWith(target, SPEC, ofetchAdapter, env),
  instanceOf: (value, env) => instanceOf(value, SPEC, env),
  site: (call, c, ctx, env) => urlOptionsSite(call, c, ctx, env, { spec: SPEC, keys: KEYS, client: 'ofetch', response: 'body' }),
};
