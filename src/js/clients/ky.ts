/**
 * ky: `ky(url, options)`, `ky.get/post/…(url, options)`, instances from `ky.create` / `.extend`, and
 * instances of factories no adapter knows that are given a `prefixUrl`. The body is `json` (or a raw
 * `body`), the query `searchParams`; the answer is a Response, and the returned promise has `.json()`.
 */
import type { ClientAdapter } from './adapter.js';
import { instanceOf, recogniseWith, urlOptionsSite, type ClientSpec } from './instances.js';
import type { OptionKeys } from './parts.js';

const SPEC: ClientSpec = {
  library: { modules: new Set(['ky', 'ky-universal']), names: new Set(['ky']) },
  factories: new Set(['create', 'extend']),
  members: new Set(['get', 'post', 'put', 'patch', 'delete', 'head']),
  baseKeys: ['prefixUrl'],
  unknownFactoryKeys: ['prefixUrl'],
};
const KEYS: OptionKeys = { base: ['prefixUrl'], body: [{ key: 'json', form: 'object' }, { key: 'body', form: 'string' }], query: ['searchParams'] };

export const kyAdapter: ClientAdapter = {
  name: 'ky',
  recognise: (target, env) => recogniseWith(target, SPEC, kyAdapter, env),
  instanceOf: (value, env) => instanceOf(value, SPEC, env),
  site: (call, c, ctx, env) => urlOptionsSite(call, c, ctx, env, { spec: SPEC, keys: KEYS, client: 'ky', response: 'ky' }),
};
