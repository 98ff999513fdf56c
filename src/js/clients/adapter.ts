/**
 * A client adapter is one module that knows one HTTP client: which calls are requests made with it,
 * and how such a call writes its URL, method, body, query and headers and hands back its response
 * (the call-site model, model.ts). index.ts lists the adapters; nothing else names a client.
 */
import type { Ctx } from '../context.js';
import type { CallLike, N, P } from '../ast.js';
import type { Resolved } from '../values.js';
import type { Bases } from '../../url/shape.js';
import type { HttpSite } from './model.js';

/** The call being classified, resolved once for every adapter. */
export interface CallTarget {
  call: P<CallLike>;
  /** The callee, unwrapped. */
  callee: P;
  /** `get` in `api.get(…)`; null for a direct call `api(…)`. */
  member: string | null;
  /** What the receiver (member call) or the callee (direct call) resolves to, outside any call chain. */
  value: Resolved | null;
}

export interface RecogniseEnv {
  bases: Bases;
  /**
   * The second pass: results of calls to factories no adapter knows by name, recognised by the base
   * URL option they are given (`createAxios({ baseURL: 'https://rest.runpod.io/v1' })`). Known
   * libraries go first, so `got.extend({ prefixUrl })` is got's, not an unknown factory's.
   */
  unknownFactories: boolean;
}

export interface SiteEnv {
  bases: Bases;
  /** Where the chain of calls began (a wrapper call, or the request itself): new properties go there. */
  root: P;
  /** Object literals and calls read so far (HttpSite.touched). */
  touched: Set<N>;
}

/** A configured client: the library itself, or what a factory call made. */
export interface Instance {
  /** Options objects of the factory calls that made it, nearest first (`ky.create(a).extend(b)`: b, a). */
  configs: Resolved[];
  /** A factory in the chain was given options the tool cannot see. */
  opaque: boolean;
  /** The call of a factory no adapter knows (`createAxios({ baseURL })`), when one made it. */
  factory: P | null;
}

/** A call recognised as a request made with a client. */
export interface ClientCall {
  kind: 'client';
  adapter: ClientAdapter;
  /** The member called (`get`, `post`, `GET`); null for a direct call. */
  member: string | null;
  instance: Instance | null;
}

export interface ClientAdapter {
  readonly name: string;
  /** Is this call a request made with this client? */
  recognise(target: CallTarget, env: RecogniseEnv): ClientCall | null;
  /** The request model of a recognised call, evaluated in `ctx` (the frames of its call chain). */
  site(call: P<CallLike>, c: ClientCall, ctx: Ctx, env: SiteEnv): HttpSite | null;
  /** The client instance a value is, if it is one of this client's (for base coverage, coverage.ts). */
  instanceOf?(value: Resolved, env: RecogniseEnv): Instance | null;
}
