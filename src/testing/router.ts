import * as z from 'zod';
import { V1_OPERATIONS } from '../map/operations.js';
import { LIST_ENVELOPES } from '../map/responses.js';
import { V2_ONLY_PATHS } from '../map/v2match.js';
import { v2BodySchemas, type V2BodySchemaName } from '../map/schemas.js';
import { POD_ACTIONS, type Account, type BillingKind, type Kind } from './store.js';
import { invalid, problem, v2Messages, type Answer } from './problem.js';
import { v1Hint } from './legacy.js';

/** A request as the simulated API sees it: the path below the v2 base, the parsed JSON body. */
export interface V2Request {
  method: string;
  /** Below the v2 base, with a leading slash: `/pods/p1/action`. */
  path: string;
  query: URLSearchParams;
  body: unknown;
  /** The Content-Type header, null without one. */
  contentType: string | null;
}

/** `application/json`, or a `+json` type, with or without parameters (`; charset=utf-8`). */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

interface Route {
  method: string;
  /** `/pods/{id}`: `{…}` segments are parameters. */
  path: string;
  /** The v2 spec's request body schema, checked before the handler runs. */
  body?: V2BodySchemaName;
  /** Query parameters v2 checks (others are ignored, as v2 ignores them). */
  query?: z.ZodType;
  handle: (account: Account, params: Record<string, string>, request: V2Request) => Answer;
}

const ok = (body: unknown, status = 200): Answer => ({ status, body });
const NO_CONTENT: Answer = { status: 204 };

/** The v2 resources, by the v1 list operation whose v2 path and list envelope the migration map gives. */
const RESOURCE_LISTS: Array<{ kind: Kind; list: string; noun: string; create: V2BodySchemaName; update?: V2BodySchemaName }> = [
  { kind: 'pods', list: 'ListPods', noun: 'pod', create: 'CreatePodRequest', update: 'UpdatePodRequest' },
  { kind: 'endpoints', list: 'ListEndpoints', noun: 'endpoint', create: 'CreateEndpointRequest', update: 'UpdateEndpointRequest' },
  { kind: 'templates', list: 'ListTemplates', noun: 'template', create: 'CreateTemplateRequest', update: 'UpdateTemplateRequest' },
  { kind: 'networkVolumes', list: 'ListNetworkVolumes', noun: 'network volume', create: 'CreateNetworkVolumeRequest', update: 'UpdateNetworkVolumeRequest' },
  { kind: 'registries', list: 'ListContainerRegistryAuths', noun: 'registry', create: 'CreateRegistryRequest' },
];

/** Path and list envelope of each resource, as the rewrite writes them (so the two cannot disagree). */
const RESOURCES = RESOURCE_LISTS.map(({ list, ...r }) => ({ ...r, path: V1_OPERATIONS.find((o) => o.id === list)!.v2!.path, envelope: LIST_ENVELOPES[list]!.key }));

const BUCKET_SIZES = ['hour', 'day', 'week', 'month', 'year'] as const;

function billingQuery(filter: string | null) {
  return z.object({
    startTime: z.iso.datetime({ offset: true }).optional(),
    endTime: z.iso.datetime({ offset: true }).optional(),
    bucketSize: z.enum(BUCKET_SIZES).optional(),
    lastN: z.string().regex(/^[1-9]\d*$/, 'want a whole number of at least 1').optional(),
    ...(filter ? { [filter]: z.string().min(1).optional() } : {}),
  });
}

/** `/v2/billing/…`: the seeded records (filtered by the id parameter, the last N), totals and counts as v2 reports them. */
function billingRoute(path: string, kind: BillingKind, filter: string | null, unique: string | null): Route {
  return {
    method: 'GET',
    path,
    query: billingQuery(filter),
    handle: (account, _params, { query }) => {
      const id = filter ? query.get(filter) : null;
      let records = account.billing[kind].filter((r) => !id || r[filter!] === id);
      const lastN = query.get('lastN');
      if (lastN) records = records.slice(-Number(lastN));
      const totals: Record<string, number> = {};
      for (const r of records) for (const [k, v] of Object.entries(r)) if (k.endsWith('Amount') && typeof v === 'number') totals[k] = (totals[k] ?? 0) + v;
      const bounds = records.map((r) => [String(r.startTime ?? ''), String(r.endTime ?? '')]);
      const window = { startTime: query.get('startTime') ?? bounds[0]?.[0] ?? null, endTime: query.get('endTime') ?? bounds[bounds.length - 1]?.[1] ?? null, bucketSize: query.get('bucketSize') ?? 'day' };
      const metadata = {
        query: { ...window, ...(filter ? { [filter]: id } : {}) },
        recordCount: records.length,
        ...(unique ? { [unique]: new Set(records.map((r) => r[filter!])).size } : {}),
        totals,
      };
      return ok({ records, metadata });
    },
  };
}

function resourceRoutes({ kind, path, envelope, noun, create, update }: (typeof RESOURCES)[number]): Route[] {
  const missing = () => problem(404, `${noun} not found`);
  const routes: Route[] = [
    { method: 'GET', path, ...(kind === 'pods' ? { query: z.object({ includeClusterPods: z.enum(['true', 'false']).optional() }) } : {}), handle: (a) => ok({ [envelope]: a.list(kind) }) },
    { method: 'POST', path, body: create, handle: (a, _p, r) => ok(a.create(kind, r.body as Record<string, unknown>), 201) },
    { method: 'GET', path: `${path}/{id}`, handle: (a, { id }) => (a.get(kind, id!) ? ok(a.get(kind, id!)) : missing()) },
    { method: 'DELETE', path: `${path}/{id}`, handle: (a, { id }) => (a.remove(kind, id!) ? NO_CONTENT : missing()) },
  ];
  if (update) {
    routes.push({
      method: 'PATCH',
      path: `${path}/{id}`,
      body: update,
      handle: (a, { id }, r) => {
        const updated = a.update(kind, id!, r.body as Record<string, unknown>);
        return updated ? ok(updated) : missing();
      },
    });
  }
  return routes;
}

/** `POST /v2/pods/{id}/action`: a transition valid for the pod's status, 204 for terminate (the pod is gone). */
const podAction: Route = {
  method: 'POST',
  path: '/pods/{id}/action',
  body: 'PodActionRequest',
  handle: (account, { id }, { body }) => {
    const pod = account.get('pods', id!);
    if (!pod) return problem(404, 'pod not found');
    const action = (body as { action: string }).action;
    if (!POD_ACTIONS[String(pod.status)]?.includes(action)) return problem(409, `action ${action} is not valid for a pod that is ${String(pod.status)}`);
    if (action === 'terminate') {
      account.remove('pods', id!);
      return NO_CONTENT;
    }
    return ok(account.update('pods', id!, { status: action === 'stop' ? 'EXITED' : 'RUNNING' }));
  },
};

const ROUTES: Route[] = [
  ...RESOURCES.flatMap(resourceRoutes),
  podAction,
  billingRoute('/billing', 'account', null, null),
  billingRoute('/billing/pods', 'pods', 'podId', 'uniquePodCount'),
  billingRoute('/billing/serverless', 'serverless', 'serverlessId', 'uniqueServerlessCount'),
  billingRoute('/billing/network-volumes', 'networkVolumes', 'networkVolumeId', 'uniqueNetworkVolumeCount'),
  // Public endpoints' billing: a different product from serverless (the v1 /billing/endpoints trap).
  billingRoute('/billing/endpoints', 'endpoints', null, null),
];

function match(template: string, path: string): Record<string, string> | null {
  const want = template.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (const [i, w] of want.entries()) {
    if (/^\{\w+\}$/.test(w)) params[w.slice(1, -1)] = decodeURIComponent(got[i]!);
    else if (w !== got[i]) return null;
  }
  return params;
}

/** Answer a request to the v2 base: route, method, query and body checked the way v2 checks them. */
export function route(account: Account, request: V2Request): Answer {
  const onPath = ROUTES.map((r) => ({ r, params: match(r.path, request.path) })).filter((x) => x.params);
  if (!onPath.length) {
    if (V2_ONLY_PATHS.some((p) => match(p, request.path))) return problem(501, `${request.method} /v2${request.path} is a v2 route v2-migrate/testing does not simulate: add your own handler for it`);
    const hint = v1Hint(request.method, request.path);
    return problem(404, `no route ${request.method} /v2${request.path}${hint ? `: ${hint}` : ''}`);
  }
  const hit = onPath.find((x) => x.r.method === request.method);
  if (!hit) {
    const allow = [...new Set(onPath.map((x) => x.r.method))].join(', ');
    const hint = v1Hint(request.method, request.path);
    return problem(405, `${request.method} is not allowed on /v2${request.path} (allowed: ${allow})${hint ? `: ${hint}` : ''}`, undefined, { Allow: allow });
  }
  const { r, params } = hit;
  if (r.query) {
    const parsed = r.query.safeParse(Object.fromEntries(request.query), { reportInput: true });
    if (!parsed.success) return invalid(v2Messages(parsed.error.issues).map((m) => m.replace(/^\$\./, 'query.')));
  }
  if (r.body) {
    if (request.body === undefined) return problem(400, 'request body is required (JSON)');
    // v2 reads a body only as JSON: fetch sends a string body as text/plain unless told otherwise.
    if (!JSON_MEDIA_TYPE.test(request.contentType ?? '')) return problem(400, `request body sent with Content-Type ${request.contentType ?? '(none)'}: v2 needs Content-Type: application/json`);
    const parsed = v2BodySchemas()[r.body].safeParse(request.body, { reportInput: true });
    if (!parsed.success) return invalid(v2Messages(parsed.error.issues));
  }
  return r.handle(account, params!, request);
}
