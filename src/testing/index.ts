/**
 * `v2-migrate/testing`: the RunPod REST v2 API for a team's own tests, as MSW request handlers.
 *
 *   import { setupServer } from 'msw/node';
 *   import { runpodV2 } from 'v2-migrate/testing';
 *   const api = runpodV2({ pods: [{ id: 'p1', name: 'trainer', status: 'RUNNING' }] });
 *   const server = setupServer(...api.handlers);
 *
 * It answers `https://api.runpod.io/v2/...` the way v2 does: list envelopes (`{ pods }`), RFC 9457
 * problems (`application/problem+json`), 201 on create and 204 on delete, and it checks every request
 * (bearer token, method, path, query, body) with the tool's own v2 schemas (src/map/schemas.ts),
 * answering 422 with v2's validation messages, and 400 for a body not sent as application/json. Calls
 * to the retired REST v1 base get a 410 Gone that names the v1 request and its v2 form, so a suite run
 * against unmigrated code says what to change.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { LEGACY_BASE_URL, TARGET_BASE_URL, stripTrailingSlash } from '../map/hosts.js';
import { Account, type Seed } from './store.js';
import { problem, type Answer } from './problem.js';
import { legacyAnswer } from './legacy.js';
import { route } from './router.js';

export type { BillingRecord, Resource, Seed, Seeded } from './store.js';

export interface RunpodV2Options {
  /** The v2 base the code calls (a proxy's, as in the config's baseUrl); default https://api.runpod.io/v2. */
  baseUrl?: string;
  /** v1 bases answered as retired (410 naming the v2 form); default RunPod's own. `[]`: leave them unhandled. */
  legacyBaseUrls?: string[];
  /** The only bearer token accepted; default any non-empty one. */
  apiKey?: string;
}

/** A request the handlers answered, for assertions on exactly what the code sent. */
export interface RecordedRequest {
  method: string;
  url: string;
  /** The parsed JSON body (undefined without one). */
  body: unknown;
  status: number;
}

export interface RunpodV2 {
  /** MSW handlers: `setupServer(...api.handlers)` or `server.use(...api.handlers)`. */
  handlers: HttpHandler[];
  /** The account's state: what the seed held and the requests since changed. */
  account: Account;
  /** Every request answered, in order. */
  requests: RecordedRequest[];
  /** Back to the seed, the request log emptied (for a `beforeEach`). */
  reset(): void;
}

function respond(answer: Answer): Response {
  if (answer.body === undefined) return new HttpResponse(null, { status: answer.status, headers: answer.headers ?? {} });
  return HttpResponse.json(answer.body, { status: answer.status, headers: answer.headers ?? {} });
}

async function bodyOf(request: Request): Promise<{ ok: true; body: unknown } | { ok: false }> {
  const text = await request.text();
  if (!text) return { ok: true, body: undefined };
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The simulated v2 API for one test file (or one test: call reset between tests). */
export function runpodV2(seed: Seed = {}, options: RunpodV2Options = {}): RunpodV2 {
  const base = stripTrailingSlash(options.baseUrl ?? TARGET_BASE_URL);
  const legacy = (options.legacyBaseUrls ?? [LEGACY_BASE_URL]).map(stripTrailingSlash);
  const api: RunpodV2 = {
    handlers: [],
    account: new Account(seed),
    requests: [],
    reset() {
      api.account = new Account(seed);
      api.requests.length = 0;
    },
  };
  const answer = async (request: Request, prefix: string, answerFor: (path: string, body: unknown) => Answer): Promise<Response> => {
    const url = new URL(request.url);
    const parsed = await bodyOf(request);
    const body = parsed.ok ? parsed.body : undefined;
    const path = url.pathname.slice(new URL(prefix).pathname.length) || '/';
    const result = !parsed.ok ? problem(400, 'request body is not valid JSON') : answerFor(path, body);
    api.requests.push({ method: request.method, url: request.url, body, status: result.status });
    return respond(result);
  };
  api.handlers.push(
    http.all(`${base}/*`, ({ request }) =>
      answer(request, base, (path, body) => {
        const auth = request.headers.get('authorization') ?? '';
        const token = /^Bearer\s+(\S+)$/i.exec(auth)?.[1];
        if (!token) return problem(401, auth ? 'malformed bearer token' : 'missing bearer token');
        if (options.apiKey !== undefined && token !== options.apiKey) return problem(401, 'invalid bearer token');
        return route(api.account, { method: request.method, path, query: new URL(request.url).searchParams, body, contentType: request.headers.get('content-type') });
      }),
    ),
    ...legacy.map((v1) => http.all(`${v1}/*`, ({ request }) => answer(request, v1, (path) => legacyAnswer(request.method, v1, path)))),
  );
  return api;
}

/** The handlers alone, for `setupServer(...runpodV2Handlers({ pods: [...] }))`. */
export const runpodV2Handlers = (seed?: Seed, options?: RunpodV2Options): HttpHandler[] => runpodV2(seed, options).handlers;
