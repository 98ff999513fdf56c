/**
 * Messages for v1 body and response fields. Body facts come from src/map/bodies.ts (the same table the
 * JS engine rewrites with), response facts from src/map/fields.ts.
 */
import { bodyMappingFor } from '../map/bodies.js';
import { BUILDER_TARGETS, responseFieldMapping, V2_LIST_KEYS } from '../map/fields.js';
import type { V1Operation, V1Resource } from '../map/operations.js';
import { graphqlRoute, GRAPHQL_REST_ROUTES } from '../map/graphql.js';
import type { Collector } from './plan.js';

/** The operation whose JSON body a request sends, when it has a body mapping (create / update). */
export function bodyOperation(op: V1Operation | undefined): V1Operation | undefined {
  return op && bodyMappingFor(op.id) && op.method !== 'GET' && op.method !== 'DELETE' ? op : undefined;
}

/** ` (CreatePod → POST /v2/pods)` */
function where(op: V1Operation): string {
  return ` (${op.id}${op.v2 ? ` → ${op.v2.method} /v2${op.v2.path}` : ''})`;
}

/**
 * Report a v1 body field of `op`'s body, the way the JS engine classifies it: renamed or rebuilt →
 * body-field, no v2 equivalent → removed-field, removed by the codemod → dropped-field. The text engine
 * never rewrites bodies, so none of these is fixable here.
 */
export function checkBodyField(c: Collector, field: string, at: number, op: V1Operation, several = false): void {
  const rule = bodyMappingFor(op.id)?.fields[field];
  if (!rule || rule.kind === 'keep') return;
  const w = where(op);
  switch (rule.kind) {
    case 'rename':
      c.report('body-field', at, `REST v1 body field ${field} is ${rule.to} in v2${w}; v2 rejects unknown fields with 422. Not rewritten in this file type: rename it by hand.`);
      return;
    case 'build': {
      const t = BUILDER_TARGETS[rule.builder];
      if (several && (rule.builder === 'pod-gpu' || rule.builder === 'pod-cpu')) {
        c.report('removed-field', at, `REST v1 body field ${field} lists several types${w}: v2 pods take ONE, and the server-side fallback is gone; pick one, or loop client-side over GET /v2/catalog/${rule.builder === 'pod-gpu' ? 'gpus?include=AVAILABILITY&product=POD' : 'cpus'}.`);
      } else if (field === 'gpuTypeIds' && rule.builder === 'endpoint-gpu') {
        c.report('removed-field', at, `REST v1 body field ${field} holds GPU type names${w}; v2 serverless takes gpu: { pools, count } with POOL ids (ADA_24, …): map the types to pools by hand.`);
      } else if (t.v2 === field) c.report('body-field', at, `REST v1 body field ${field} changes type in v2${w}: ${t.note}. Not rewritten in this file type: change it by hand.`);
      else c.report('body-field', at, `REST v1 body field ${field} moves into ${t.v2} in v2${w}: ${t.note}. Not rewritten in this file type: restructure it by hand.`);
      return;
    }
    case 'decision':
      c.report('removed-field', at, `REST v1 body field ${field} has no v2 equivalent${w}: ${rule.advice}`);
      return;
    case 'drop':
      c.report('dropped-field', at, `REST v1 body field ${field} has no v2 field${w}: ${rule.advice.replace(/, so it was removed/, '; remove it')}`);
      return;
  }
}

/** A v1 body field written into a dict whose request is not visible (`body["imageName"] = …`): any body operation that takes it. */
export function checkLooseBodyField(c: Collector, field: string, at: number): void {
  for (const id of ['CreatePod', 'CreateEndpoint', 'CreateTemplate', 'CreateNetworkVolume']) {
    const rule = bodyMappingFor(id)?.fields[field];
    if (rule && rule.kind !== 'keep') {
      const op = { id, method: 'POST', path: '', resource: 'pods', v2: null, change: 'path' } as unknown as V1Operation;
      checkBodyField(c, field, at, op);
      return;
    }
  }
}

/** Report a read of a v1-only response field (distinctive names only). */
export function checkResponseField(c: Collector, field: string, at: number): void {
  const row = responseFieldMapping(field);
  if (!row || !row.distinctive) return;
  const to = row.v2 ? `"${row.v2}"` : 'gone';
  c.report('response-field', at, `"${field}" is a REST v1 response field; in v2 it is ${to}: ${row.note}.`);
}

/** A bare-array read of a v1 list response. */
export function listEnvelopeMessage(op: V1Operation, how: string): string {
  const key = V2_LIST_KEYS[op.resource as V1Resource];
  const path = `/v2${op.v2?.path ?? ''}`;
  const extra = op.resource === 'billing' ? ' (with `metadata` next to it)' : '';
  return `GET ${op.path} returned a bare array in v1; GET ${path} returns an object with the list under "${key}"${extra}, so ${how} fails or iterates the wrong thing: read .${key} first.`;
}

/** A list operation: its response is a bare array in v1. */
export function isListOp(op: V1Operation | undefined): op is V1Operation {
  return !!op && op.method === 'GET' && (op.id.startsWith('List') || op.resource === 'billing');
}

/** GraphQL operation names the text engine looks for, longest first (so `podStop` never hides a longer name). */
export const GRAPHQL_NAMES_RE = new RegExp(
  `\\b(${GRAPHQL_REST_ROUTES.map((r) => r.operation)
    .sort((a, b) => b.length - a.length)
    .join('|')})\\s*[({]`,
  'g',
);

/** Report GraphQL operations with a REST v2 route found in `text[from, to)` (a query string, a fence). */
export function scanGraphql(c: Collector, text: string, from: number, to: number): void {
  const chunk = text.slice(from, to);
  GRAPHQL_NAMES_RE.lastIndex = 0;
  const hits: Array<{ name: string; at: number }> = [];
  for (let m = GRAPHQL_NAMES_RE.exec(chunk); m; m = GRAPHQL_NAMES_RE.exec(chunk)) hits.push({ name: m[1]!, at: from + m.index });
  const names = new Set(hits.map((h) => h.name));
  for (const h of hits) {
    if (h.name === 'lowestPrice' && names.has('gpuTypes')) continue; // one catalog query, reported once
    const route = graphqlRoute(h.name)!;
    const body = route.body ? ` with the JSON body ${JSON.stringify(route.body)}` : '';
    const note = route.note ? ` (${route.note})` : '';
    c.report('graphql-operation', h.at, `GraphQL operation ${h.name} has a REST v2 route: ${route.route}${body}${note}. GraphQL still works and was not changed; its field names (imageName, gpuCount, …) are GraphQL names, not REST v2 body fields.`);
  }
}

/** The file mentions RunPod's GraphQL endpoint. */
export function mentionsGraphql(text: string): boolean {
  return /runpod\.io\/graphql/.test(text);
}
