/**
 * axios and axios-like clients: `axios(config)`, `axios(url, config)`, `axios.get(url, config)`,
 * `axios.post(url, data, config)`, `axios.request(config)`, on axios itself, on `axios.create({ baseURL })`
 * instances, and on instances of factories no adapter knows that are given a `baseURL` / `baseUrl`
 * (`createAxios({ baseURL: 'https://rest.runpod.io/v1' })`). The body is `data`, the query `params`,
 * and the response's `.data` is the parsed body.
 */
import type { Ctx } from '../context.js';
import type { CallLike, P } from '../ast.js';
import { argsOf, evalString, type UrlPiece } from '../values.js';
import type { ClientAdapter, ClientCall, Instance, SiteEnv } from './adapter.js';
import { currentInstance, factoryLabel, instanceBase, instanceOf, makeSite, recogniseWith, type ClientSpec } from './instances.js';
import type { BodySlot, HttpSite, ResponseStyle } from './model.js';
import { bodyOf, isOptionsArgument, joinBase, lookup, memberMethod, optionParts, type OptionKeys } from './parts.js';

const BODY_METHODS = new Set(['post', 'put', 'patch', 'postForm', 'putForm', 'patchForm']);

const SPEC: ClientSpec = {
  library: { modules: new Set(['axios']), names: new Set(['axios']) },
  factories: new Set(['create']),
  members: new Set(['get', 'delete', 'head', 'options', 'request', ...BODY_METHODS]),
  baseKeys: ['baseURL', 'baseUrl'],
  unknownFactoryKeys: ['baseURL', 'baseUrl'],
};
const KEYS: OptionKeys = { base: ['baseURL'], body: [{ key: 'data', form: 'object' }], query: ['params'] };

/**
 * A factory the tool does not know, called directly (`api(url, options)`): axios instances and ofetch
 * instances are both callable, so the options decide: `data` reads like axios, `body` like ofetch.
 */
const UNCLEAR_KEYS: OptionKeys = { base: ['baseURL', 'baseUrl'], body: [{ key: 'data', form: 'object' }, { key: 'body', form: 'object' }], query: ['params', 'query'] };

export const axiosAdapter: ClientAdapter = {
  name: 'axios',
  recognise: (target, env) => recogniseWith(target, SPEC, axiosAdapter, env),
  instanceOf: (value, env) => instanceOf(value, SPEC, env),
  site(call, c, ctx, env) {
    const instance = currentInstance(call, c, ctx, SPEC, env.bases);
    const base = instanceBase(instance, SPEC.baseKeys, env.touched);
    const client = instance.factory ? 'axios-like' : 'axios';
    if (c.member === null && instance.factory) return unclearCall(call, instance, base, ctx, env);
    if (c.member === null || c.member === 'request') return configCall(call, c, base, client, ctx, env);
    const args = argsOf(call);
    if (!args.length) return null;
    const withBody = BODY_METHODS.has(c.member);
    const parts = optionParts(call, withBody ? 2 : 1, ctx, KEYS, env.root, env.touched);
    const url = joinBase(parts.base ?? base, evalString(args[0]!, ctx), call);
    let body: BodySlot = { kind: 'absent', insert: null };
    if (withBody) body = args[1] ? bodyOf(args[1], ctx, 'object') : { kind: 'absent', insert: { kind: 'arg', call, index: 1, form: 'object' } };
    return makeSite(call, client, { url, method: memberMethod(call, c.member), body, headers: parts.headers, query: parts.query, ...(parts.queryOption ? { queryOption: parts.queryOption } : {}), response: 'axios', touched: env.touched });
  },
};

/** `axios(config)` | `axios(url, config)` | `axios.request(config)`. */
function configCall(call: P<CallLike>, c: ClientCall, base: UrlPiece[] | null, client: string, ctx: Ctx, env: SiteEnv): HttpSite | null {
  const args = argsOf(call);
  const urlFirst = c.member === null && args.length >= 1 && !isOptionsArgument(args[0]!, ctx);
  const parts = optionParts(call, urlFirst ? 1 : 0, ctx, KEYS, env.root, env.touched);
  let url: UrlPiece[];
  if (urlFirst) url = evalString(args[0]!, ctx);
  else {
    const u = parts.options ? lookup(parts.options, 'url', env.touched) : null;
    if (!u || !('found' in u)) return null;
    url = evalString(u.found.path, u.found.ctx);
  }
  return makeSite(call, client, { url: joinBase(parts.base ?? base, url, call), method: parts.method, body: parts.body, headers: parts.headers, query: parts.query, ...(parts.queryOption ? { queryOption: parts.queryOption } : {}), response: 'axios', touched: env.touched });
}

/** An unknown factory's instance called directly: the URL and method are certain; body and response only if the options tell. */
function unclearCall(call: P<CallLike>, instance: Instance, base: UrlPiece[] | null, ctx: Ctx, env: SiteEnv): HttpSite | null {
  const args = argsOf(call);
  if (!args.length || isOptionsArgument(args[0]!, ctx)) return null;
  const parts = optionParts(call, 1, ctx, UNCLEAR_KEYS, env.root, env.touched);
  const has = (key: string): boolean => !!parts.options && 'found' in lookup(parts.options, key, env.touched);
  const response: ResponseStyle = has('data') ? 'axios' : has('body') ? 'body' : 'unknown';
  const unclear = `${factoryLabel(instance)} makes a client the tool does not know, called directly here, so it is not clear whether it is axios-like (body in data, parsed body in res.data) or ofetch-like (body in body, resolves to the parsed body)`;
  const body: BodySlot = response === 'unknown' && parts.body.kind === 'absent' ? { kind: 'opaque', carriers: [], why: unclear } : parts.body;
  const url = joinBase(parts.base ?? base, evalString(args[0]!, ctx), call);
  return makeSite(call, 'axios-like', { url, method: parts.method, body, headers: parts.headers, query: parts.query, ...(parts.queryOption ? { queryOption: parts.queryOption } : {}), response, touched: env.touched, ...(response === 'unknown' ? { unclear } : {}) });
}
