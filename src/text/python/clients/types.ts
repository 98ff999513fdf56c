/**
 * A Python HTTP library as the Python scanner sees it: one adapter file per library (requests.ts,
 * httpx.ts, aiohttp.ts, urllib.ts), listed in index.ts. The scanner finds calls; an adapter says which
 * of them send a request, where their URL, method and body are, and what a client object's base is.
 */
import type { HttpMethod } from '../../../map/operations.js';
import type { Arg, Call, Module, Scope, Tok } from '../model.js';

/** How a call reaches the library: a module function, a client object's method, a call of the library's own shape, or a client-ish receiver. */
export type Kind = 'module' | 'client' | 'urllib' | 'guess';

/** A call that sends a request, and where its parts are written. */
export interface HttpCall {
  call: Call;
  kind: Kind;
  url: Arg;
  /** The method fixed by the callee's name (`.post`). */
  memberMethod?: HttpMethod;
  methodArg?: Arg;
  body?: Arg;
  /** The call whose result is the response, when it is not `call` itself (`urlopen(req)` for `req = Request(…)`). */
  response?: Call;
  /** `httpx.Client(base_url=…)`: the base the path is joined to. */
  base?: { toks: readonly Tok[]; a: number; b: number; scope: Scope };
}

export interface PythonHttpLibrary {
  name: string;
  /** Module names whose functions send requests (`requests.get(url)`, `httpx.post(url, json=…)`). */
  modules: readonly string[];
  /** Callees that construct a client object whose `get`/`post`/…/`request` methods send requests. */
  clients?: RegExp;
  /** The constructor keyword that gives a client object its base URL (httpx `base_url`). */
  baseKeyword?: string;
  /** Keyword arguments that carry a request's body. */
  bodyKeywords: readonly string[];
  /** A request of the library's own shape (`urlopen(Request(url, data, method=…))`), or null for any other call. */
  ownCall?: (m: Module, call: Call) => HttpCall | null;
}

/** The argument at `pos` or given as `kw`. */
export const argOf = (call: Call, pos: number, kw: string): Arg | undefined => call.args.find((a) => a.kind === 'kw' && a.name === kw) ?? call.args.filter((a) => a.kind === 'pos')[pos];

/** The argument is the literal `None`. */
export function isNone(m: Module, arg: Arg): boolean {
  const tok = m.toks[arg.a];
  return arg.b === arg.a + 1 && tok?.type === 'name' && tok.value === 'None';
}
