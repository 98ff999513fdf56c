/**
 * Clients that are a library value plus the instances its factories make (`axios.create`,
 * `ky.create` / `.extend`, `got.extend`, `ofetch.create`), and instances made by factories no adapter
 * knows, recognised by shape: a call given an options object whose base URL option holds a RunPod REST
 * base (`createAxios({ baseURL: 'https://rest.runpod.io/v1' })`).
 */
import type { Ctx } from '../context.js';
import { isFunction, memberName, unwrap } from '../scope.js';
import type { CallLike, N, P } from '../ast.js';
import { argsOf, evalString, findProp, isResolved, labelOf, resolveExpr, type Resolved, type UrlPiece } from '../values.js';
import { shapeOf, type Bases } from '../../url/shape.js';
import type { CallTarget, ClientAdapter, ClientCall, Instance, RecogniseEnv, SiteEnv } from './adapter.js';
import type { HttpSite, ResponseStyle } from './model.js';
import { isLibraryValue, type Library } from './modules.js';
import { baseOf, joinBase, memberMethod, optionParts, type OptionKeys } from './parts.js';

export interface ClientSpec {
  library: Library;
  /** Members that make a configured instance (`create`, `extend`). */
  factories: ReadonlySet<string>;
  /** Members that make a request (`get`, `post`, …); the client and its instances are also callable. */
  members: ReadonlySet<string>;
  /** Option keys that hold an instance's base URL. */
  baseKeys: readonly string[];
  /** Option keys by which an unknown factory's instance is taken to be of this shape (second pass). */
  unknownFactoryKeys?: readonly string[];
}

const MAX_CHAIN = 5;

/** The instance a value is: the library itself, what its factories made, or (second pass) an unknown factory's. */
export function instanceOf(r: Resolved, spec: ClientSpec, env: RecogniseEnv, depth = 0): Instance | null {
  if (isLibraryValue(r, spec.library)) return { configs: [], opaque: false, factory: null };
  const n = r.path.node;
  if (n.type === 'CallExpression' && depth < MAX_CHAIN) {
    const name = memberName(n.callee);
    if (name !== null && spec.factories.has(name)) {
      const parent = resolveExpr(r.path.get('callee', 'object'), r.ctx);
      const up = isResolved(parent) ? instanceOf(parent, spec, env, depth + 1) : null;
      if (up) {
        const cfg = n.arguments.length ? resolveExpr(r.path.get('arguments', 0), r.ctx) : null;
        const obj = cfg && isResolved(cfg) && cfg.path.node.type === 'ObjectExpression' ? cfg : null;
        return { configs: obj ? [obj, ...up.configs] : up.configs, opaque: up.opaque || (!!cfg && !obj), factory: up.factory };
      }
    }
  }
  return env.unknownFactories && spec.unknownFactoryKeys ? unknownFactory(r, spec.unknownFactoryKeys, env.bases) : null;
}

/**
 * A call (or `new`) of something the run does not define, given an options object whose base URL option
 * is a RunPod REST base (v1, or v2 for code half on v2), or a parameter its callers may fill.
 */
function unknownFactory(r: Resolved, keys: readonly string[], bases: Bases): Instance | null {
  const n = r.path.node;
  if (n.type !== 'CallExpression' && n.type !== 'NewExpression') return null;
  const callee = resolveExpr(r.path.get('callee'), r.ctx);
  if (isResolved(callee) && (isFunction(callee.path.node) || callee.path.node.type === 'ClassDeclaration' || callee.path.node.type === 'ClassExpression')) return null;
  for (let i = 0; i < n.arguments.length; i++) {
    const arg = resolveExpr(r.path.get('arguments', i), r.ctx);
    if (!isResolved(arg) || arg.path.node.type !== 'ObjectExpression') continue;
    for (const key of keys) {
      const found = findProp(arg, key);
      if ('found' in found && isRunpodBase(evalString(found.found.path, found.found.ctx), bases)) return { configs: [arg], opaque: false, factory: r.path };
    }
  }
  return null;
}

function isRunpodBase(pieces: UrlPiece[], bases: Bases): boolean {
  const base = shapeOf(pieces, bases).base;
  if (base === 'legacy' || base === 'target') return true;
  const first = pieces[0];
  return pieces.length === 1 && first?.kind === 'hole' && !!first.origin.unboundFn;
}

/** Recognise a request on a spec'd client: a member call on it or an instance, or a direct call. */
export function recogniseWith(target: CallTarget, spec: ClientSpec, adapter: ClientAdapter, env: RecogniseEnv): ClientCall | null {
  if (!target.value || (target.member !== null && !spec.members.has(target.member))) return null;
  const instance = instanceOf(target.value, spec, env);
  return instance ? { kind: 'client', adapter, member: target.member, instance } : null;
}

/** The instance as seen from this call chain (a base given to a factory by a caller resolves here). */
export function currentInstance(call: P<CallLike>, c: ClientCall, ctx: Ctx, spec: ClientSpec, bases: Bases): Instance {
  const callee = unwrap(call.get('callee'));
  const holder = c.member === null ? callee : unwrap(callee.get('object'));
  const r = resolveExpr(holder, ctx);
  const again = isResolved(r) ? instanceOf(r, spec, { bases, unknownFactories: !!c.instance?.factory }) : null;
  return again ?? c.instance ?? { configs: [], opaque: false, factory: null };
}

/** The base URL an instance was configured with (the nearest factory that set one). */
export function instanceBase(instance: Instance, keys: readonly string[], touched: Set<N>): UrlPiece[] | null {
  for (const cfg of instance.configs) {
    touched.add(cfg.path.node);
    const base = baseOf(cfg, keys, touched);
    if (base) return base;
  }
  return null;
}

/** `createAxios(…)`: how a finding names the factory that made an instance. */
export function factoryLabel(instance: Instance): string {
  const f = instance.factory;
  return f ? `${f.node.type === 'NewExpression' ? 'new ' : ''}${labelOf(f.get('callee'))}(…)` : 'this client';
}

/**
 * A request written `client(url, options)` or `client.get(url, options)` (ky, got, ofetch): the base comes
 * from the instance or the options, the method from the member or the options, the rest from the options.
 */
export function urlOptionsSite(call: P<CallLike>, c: ClientCall, ctx: Ctx, env: SiteEnv, how: { spec: ClientSpec; keys: OptionKeys; client: string; response: ResponseStyle }): HttpSite | null {
  const args = argsOf(call);
  if (!args.length) return null;
  const instance = currentInstance(call, c, ctx, how.spec, env.bases);
  const parts = optionParts(call, 1, ctx, how.keys, env.root, env.touched);
  const url = joinBase(parts.base ?? instanceBase(instance, how.spec.baseKeys, env.touched), evalString(args[0]!, ctx), call);
  const method = c.member === null ? parts.method : memberMethod(call, c.member);
  return makeSite(call, instance.factory ? `${how.client}-like` : how.client, { url, method, body: parts.body, headers: parts.headers, query: parts.query, ...(parts.queryOption ? { queryOption: parts.queryOption } : {}), response: how.response, touched: env.touched });
}

/** A site with the parts every adapter fills the same way. */
export function makeSite(call: P<CallLike>, client: string, parts: Omit<HttpSite, 'call' | 'client' | 'visited' | 'contentTypeByHand' | 'query'> & Partial<Pick<HttpSite, 'contentTypeByHand' | 'query'>>): HttpSite {
  return { call, client, contentTypeByHand: false, query: null, ...parts, visited: new Set() };
}
