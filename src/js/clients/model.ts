/**
 * The call-site model (DESIGN.md §3): one HTTP request in source code, whatever client makes it.
 * Client adapters (this folder) build it; rules read and edit it without knowing the client.
 */
import type { Origin, Resolved, UrlPiece } from '../values.js';
import type { CallLike, N, P, t } from '../ast.js';
import type { CallSite } from '../../plan/site.js';

/** How a request's method is expressed, so it can be read and rewritten. */
export type MethodRef =
  | { kind: 'pieces'; value: string | null; pieces: UrlPiece[] }
  /** The member called (`api.post`, `client.POST`): rewritten by renaming the member. */
  | { kind: 'member'; value: string; member: P<t.MemberExpression['property']> }
  | { kind: 'default'; value: 'GET' };

/** `string`: the client sends the value as is (fetch), so JSON must be stringified; `object`: the client serializes. */
export type BodyForm = 'string' | 'object';

/** Where a body value would go when the request has none. */
export type Insertion =
  | { kind: 'prop'; object: P<t.ObjectExpression>; key: string; form: BodyForm }
  /** A new argument; `wrapIn`: the argument is an options object and the body goes in this key of it. */
  | { kind: 'arg'; call: P<CallLike>; index: number; form: BodyForm; wrapIn?: string }
  | { kind: 'replace'; path: P; form: BodyForm };

/**
 * `carriers`: the user-code expressions that hold the body object on its way to the request, one per
 * function it passes through, innermost first (`body` in a wrapper's `JSON.stringify(body)`, then
 * `params` in the caller's `request('/pods', 'POST', params)`): where a run-time adapter call can wrap
 * it. A level whose expression holds a JSON string rather than the object has none.
 */
export type BodySlot =
  | { kind: 'value'; value: Resolved; form: BodyForm; carriers: P[] }
  | { kind: 'absent'; insert: Insertion | null }
  /**
   * Not visible here; `unboundFn` when it is a parameter of a function whose callers may show it; `why`
   * when the client does not say where its body goes (an unknown factory's instance called directly).
   */
  | { kind: 'opaque'; unboundFn?: P; carriers: P[]; why?: string };

export type HeadersRef = { kind: 'object'; objects: Array<P<t.ObjectExpression>>; contentType: boolean | 'unknown' } | { kind: 'none'; insert: Insertion | null } | { kind: 'opaque' };

/**
 * How the client hands back the response, which decides where a list envelope is unwrapped:
 * - `fetch`: a Response; `.json()` / `.text()` give promises of the body;
 * - `axios`: a response object whose `.data` is the parsed body (errors carry `err.response.data`);
 * - `ky`: a Response, and the promise the call returns has `.json()` / `.text()` too;
 * - `got`: the promise has `.json()` / `.text()`; what the awaited response's `.body` holds depends on options;
 * - `body`: the promise resolves to the parsed body itself (ofetch);
 * - `typed`: `{ data, error }` typed from a schema (openapi-fetch, see rules/typed-response.ts);
 * - `unknown`: a client whose response shape the tool cannot tell.
 */
export type ResponseStyle = 'fetch' | 'axios' | 'ky' | 'got' | 'body' | 'typed' | 'unknown';

/** One HTTP request in source code, whatever client makes it (DESIGN.md §3; plan/site.ts is what both engines share). */
export interface HttpSite extends CallSite<Origin, MethodRef> {
  call: P<CallLike>;
  /** The adapter that recognised it (`fetch`, `axios`, `axios-like`, `ky`, `got`, `ofetch`, `openapi-fetch`, …). */
  client: string;
  url: UrlPiece[];
  method: MethodRef;
  body: BodySlot;
  headers: HeadersRef;
  response: ResponseStyle;
  /**
   * What the client's own types say a parsed body is (`res.json()`) where the code declares nothing:
   * `unknown` for node-fetch 3 and undici (`json(): Promise<unknown>`); absent: `any`, as the DOM's
   * Response has it.
   */
  parsedBody?: 'unknown';
  /** The query option's value (axios `params`, ky/got `searchParams`, ofetch `query`), resolved, when visible. */
  query: Resolved | null;
  /** The query option's value as written in this call's options (where a run-time query can be guarded). */
  queryOption?: P;
  /**
   * Why the tool cannot tell how this client takes a body or hands back its response (an instance of a
   * factory it does not know, called directly): said in the findings that need it.
   */
  unclear?: string;
  /** The client sends a string body as is: a JSON body needs `Content-Type: application/json` written by hand. */
  contentTypeByHand: boolean;
  /** Object literals and calls whose content decides this request (for shared-edit arbitration). */
  touched: Set<N>;
  /** Identifiers, `this.x` and `process.env.X` reads its evaluation passed through (coverage of bases). */
  visited: Set<N>;
}
