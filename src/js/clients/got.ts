/**
 * got: `got(url, options)`, `got.get/post/…(url, options)` and instances from `got.extend`. The body
 * is `json` (or a raw `body`), the query `searchParams`; the returned promise has `.json()`.
 */
import type { ClientAdapter } from './adapter.js';
import { instanceOf, recogniseWith, urlOptionsSite, type ClientSpec } from './instances.js';
import type { OptionKeys } from './parts.js';

const SPEC: ClientSpec = {
  library: { modules: new Set(['got']), names: new Set(['got']) },
  factories: new Set(['extend']),
  members: new Set(['get', 'post', 'put', 'patch', 'delete', 'head']),
  baseKeys: ['prefixUrl'],
};
const KEYS: OptionKeys = { base: ['prefixUrl'], body: [{ key: 'json', form: 'object' }, { key: 'body', form: 'string' }], query: ['searchParams'] };

export const gotAdapter: ClientAdapter = {
  name: 'got',
  recognise: (target, env) => recogniseWith(target, SPEC, gotAdapter, env),
  instanceOf: (value, env) => instanceOf(value, SPEC, env),
  site: (call, c, ctx, env) => urlOptionsSite(call, c, ctx, env, { spec: SPEC, keys: KEYS, client: 'got', response: 'got' }),
};
