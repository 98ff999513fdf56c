/**
 * Messages for v1 body and response fields. Body facts come from src/map/bodies.ts (the same table the
 * JS engine rewrites with), response facts from src/map/fields.ts.
 */
import { bodyMappingFor } from '../map/bodies.js';
import { BUILDER_TARGETS } from '../map/fields.js';
import { BILLING_PARAMS, changesAnswer, IGNORED_QUERY_PARAMS, ITEM_NAMES, LIST_ENVELOPES, RESPONSE_FIELDS, responseFieldsNamed, type ResponseField } from '../map/responses.js';
import type { V1Operation } from '../map/operations.js';
import { graphqlRoute, GRAPHQL_REST_ROUTES } from '../map/graphql.js';
import type { RuleId } from '../rules/registry.js';
import type { Piece } from '../url/pieces.js';
import type { Edit } from './source.js';
import { fieldLabel, listShape, listTail } from '../plan/messages.js';

/** The operation whose JSON body a request sends, when it has a body mapping (create / update). */
export function bodyOperation(op: V1Operation | undefined): V1Operation | undefined {
  return op && bodyMappingFor(op.id) && op.method !== 'GET' && op.method !== 'DELETE' ? op : undefined;
}

/** ` (CreatePod → POST /v2/pods)` */
function where(op: V1Operation): string {
  return ` (${op.id}${op.v2 ? ` → ${op.v2.method} /v2${op.v2.path}` : ''})`;
}

/** The JSON kind of a body value as written, when it is visible. */
export type ValueKind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null';

export function kindOf(value: unknown): ValueKind {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as ValueKind);
}

/**
 * What the field checks need of the text engine's Collector (plan.ts), declared here rather than
 * imported: plan.ts calls these checks, and importing its class back would close an import cycle.
 */
export interface FieldCollector<Request = unknown> {
  report(ruleId: RuleId, at: number, message: string, fixable?: boolean): void;
  /** Report a finding that never keeps its request on v1 (v2 answers that request with the same items). */
  reportDetail(ruleId: RuleId, at: number, message: string): void;
  fix(ruleId: RuleId, at: number, message: string, edits: readonly Edit[]): boolean;
  fixWith(req: Request, ruleId: RuleId, at: number, message: string, edits: readonly Edit[]): boolean;
}

/** What is known about one body field where it is written. */
export interface FieldFacts<Request> {
  /** An array with more than one element. */
  several?: boolean;
  /** The kind of its value, when visible. */
  value?: ValueKind | null;
  /** The request goes to the v2 base (already migrated, or half). */
  onV2?: boolean;
  /**
   * Where the field's name is written, in a body literal written at the request itself: a plain rename
   * is then made there, with the request's URL (`siblings`: the body's other keys, which it must not hit).
   */
  name?: { request: Request; start: number; end: number; siblings: ReadonlySet<string> };
}

/** Fields v2 keeps under the same name with another type: the v1 kind (`flashboot: true` → `"FLASHBOOT"`). */
const V1_KIND_OF_RETYPED: Readonly<Record<string, ValueKind>> = { flashboot: 'boolean' };

/**
 * Report a v1 body field of `op`'s body, the way the JS engine classifies it: renamed or rebuilt →
 * body-field, no v2 equivalent → removed-field, removed by the codemod → dropped-field. The text engine
 * rewrites only a plain rename in a body literal written at the request (`facts.name`); the rest is reported. A field v2 keeps under its name with another
 * type is v1 only when its value has the v1 type (or, on a v1 request, cannot be seen).
 */
export function checkBodyField<Request>(c: FieldCollector<Request>, field: string, at: number, op: V1Operation, facts: FieldFacts<Request> = {}): void {
  const rule = bodyMappingFor(op.id)?.fields[field];
  if (!rule || rule.kind === 'keep') return;
  const v1Kind = rule.kind === 'build' && BUILDER_TARGETS[rule.builder].v2 === field ? V1_KIND_OF_RETYPED[field] : undefined;
  if (v1Kind && (facts.value ? facts.value !== v1Kind : facts.onV2)) return;
  const several = !!facts.several;
  const w = where(op);
  switch (rule.kind) {
    case 'rename': {
      const message = `REST v1 body field ${field} is ${rule.to} in v2${w}; v2 rejects unknown fields with 422.`;
      const n = facts.name;
      if (n && !n.siblings.has(rule.to) && c.fixWith(n.request, 'body-field', at, message, [{ start: n.start, end: n.end, text: rule.to }])) return;
      c.report('body-field', at, `${message} Not rewritten in this file type: rename it by hand.`);
      return;
    }
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

/**
 * The finding for a v1 body field of `op` that the tool rewrote with the whole body (a visible JSON body
 * rebuilt as v2 would take it), or null for a field v2 keeps.
 */
export function rewrittenBodyField(field: string, op: V1Operation): { rule: 'body-field' | 'dropped-field'; message: string } | null {
  const rule = bodyMappingFor(op.id)?.fields[field];
  const w = where(op);
  if (!rule || rule.kind === 'keep' || rule.kind === 'decision') return null;
  if (rule.kind === 'rename') return { rule: 'body-field', message: `REST v1 body field ${field} is ${rule.to} in v2${w}; v2 rejects unknown fields with 422.` };
  if (rule.kind === 'drop') return { rule: 'dropped-field', message: `REST v1 body field ${field} has no v2 field${w}: ${rule.advice}` };
  const t = BUILDER_TARGETS[rule.builder];
  return { rule: 'body-field', message: t.v2 === field ? `REST v1 body field ${field} changes type in v2${w}: ${t.note}.` : `REST v1 body field ${field} moves into ${t.v2} in v2${w}: ${t.note}.` };
}

/** A v1 body field written into a dict whose request is not visible (`body["imageName"] = …`): any body operation that takes it. */
export function checkLooseBodyField(c: FieldCollector, field: string, at: number): void {
  for (const id of ['CreatePod', 'CreateEndpoint', 'CreateTemplate', 'CreateNetworkVolume']) {
    const rule = bodyMappingFor(id)?.fields[field];
    if (rule && rule.kind !== 'keep') {
      const op = { id, method: 'POST', path: '', resource: 'pods', v2: null, change: 'path' } as unknown as V1Operation;
      checkBodyField(c, field, at, op);
      return;
    }
  }
}

/** The distinctive v1 response field names (`desiredStatus`, `costPerHr`, …): reported on a read in a file that talks to RunPod REST. */
export const DISTINCTIVE_RESPONSE_FIELDS: readonly string[] = [...new Set(RESPONSE_FIELDS.filter((r) => r.distinctive).map((r) => r.field))];

/** Report a read of a v1-only response field (distinctive names only), worded like the JS engine's. */
export function checkResponseField(c: FieldCollector, field: string, at: number): void {
  const rows = responseFieldsNamed(field).filter((r) => r.distinctive);
  if (rows.length) c.report('response-field', at, `${responseFieldMessage(rows)} Not rewritten in this file type: change the read by hand.`);
}

/** What v2 did with a v1 response field, for the rows of one name (the first row's fate; every item it belongs to). */
export function responseFieldMessage(rows: readonly ResponseField[]): string {
  const row = rows[0];
  if (!row) return '';
  const item = rows.flatMap((r) => r.items).map((i) => ITEM_NAMES[i]);
  const what = `REST v1 ${[...new Set(item)].join(' / ')} ${fieldLabel(row.field)}`;
  const fate = row.fate;
  return fate.kind === 'rename' || fate.kind === 'nest'
    ? `${what} is "${fate.to}" in v2: ${row.note}.`
    : fate.kind === 'moved'
      ? `${what} is not in v2 responses; the data is ${fate.to.startsWith('GET ') ? `at ${fate.to}` : `under "${fate.to}"`}: ${row.note}.`
      : `${what} is gone in v2: ${row.note}.`;
}

/**
 * A bare-array read of a v1 list response: the rule (list-envelope, or billing-records for billing), the
 * v2 envelope key, and the message when it stays (`message`) or is unwrapped by the tool (`fixed`).
 * `why`: why the read is not rewritten (default: the file type's reads are not rewritten).
 */
export function listEnvelope(op: V1Operation, how: string, why?: string): { rule: 'list-envelope' | 'billing-records'; key: string; message: string; fixed: string } | null {
  const envelope = LIST_ENVELOPES[op.id];
  if (!envelope) return null;
  const head = `GET ${op.path} returned a bare array in v1; GET /v2${op.v2?.path ?? ''} returns ${listShape(envelope.key)}`;
  const tail = listTail(envelope.key);
  return {
    rule: envelope.rule,
    key: envelope.key,
    message: `${head}, so ${how} fails or iterates the wrong thing: read .${envelope.key} first${tail}. Not rewritten${why ? `: ${why}` : ' in this file type'}.`,
    fixed: `${head}: unwrapped with .${envelope.key} before ${how}, so it still sees an array${tail}.`,
  };
}

/** A list operation: its response is a bare array in v1. */
export function isListOp(op: V1Operation | undefined): op is V1Operation {
  return !!op && !!LIST_ENVELOPES[op.id];
}

/** v1 query parameters a request sends that v2 ignores (query-filter) or dropped or renamed (billing-records). */
export function checkQueryParam(c: FieldCollector, op: V1Operation, param: string, at: number, editable = false, value?: string): void {
  const ignored = IGNORED_QUERY_PARAMS[op.id]?.find((p) => p.param === param);
  const v2 = `GET /v2${op.v2?.path ?? op.path}`;
  if (ignored && !changesAnswer(ignored, value)) {
    // The list v2 answers is the one v1 did (a flag that only added data to each item, whose reads are
    // reported where they are, or a value v2 answers the same for): it never keeps the request on v1.
    const message =
      ignored.effect === 'detail'
        ? `${v2} ${op.id.startsWith('List') ? 'silently ignores' : 'has no'} the v1 query parameter ${param}, which only added data to each item: ${ignored.recipe('items', null)}.`
        : `${v2} ignores the v1 query parameter ${param}, and answers for ${param}=${value} what v1 did: remove it.`;
    c.reportDetail('query-filter', at, message);
    return;
  }
  if (ignored) {
    const instead = ignored.v2Field ? `filter the result on the client by ${ignored.v2Field}` : ignored.recipe('items', null);
    c.report('query-filter', at, `${v2} ${op.id.startsWith('List') ? 'silently ignores' : 'has no'} the v1 query parameter ${param}, so it returns everything: ${instead}.`);
    return;
  }
  const billing = BILLING_PARAMS[op.id]?.find((p) => p.param === param);
  if (billing?.renamed) {
    const message = `The v1 billing query parameter ${param} is ${billing.renamed} in ${v2}: ${billing.note}.`;
    if (editable) c.fix('billing-records', at, message, [{ start: at, end: at + param.length, text: billing.renamed, literal: at }]);
    else c.report('billing-records', at, `${message} Not rewritten: the parameter name is not written as plain text here.`);
  } else if (billing) c.report('billing-records', at, `${v2} has no ${param} query parameter (v1 ${op.path} did; v2 silently ignores it): ${billing.note}.`);
}

/** A query parameter name as written: where, and whether the name is the file's text verbatim. */
export interface QueryParam {
  name: string;
  at: number;
  editable: boolean;
  /** The value, when it is written as literal text. */
  value?: string;
}

/** Query parameters written in a URL's literal query string, with their offsets. */
export function queryParams(pieces: readonly Piece<{ start: number; editable: boolean }>[]): QueryParam[] {
  const out: QueryParam[] = [];
  let inQuery = false;
  for (const p of pieces) {
    if (p.kind !== 'text') continue;
    let i = 0;
    if (!inQuery) {
      const q = p.text.indexOf('?');
      if (q < 0) continue;
      inQuery = true;
      i = q + 1;
    }
    const re = /(?:^|&)([A-Za-z][A-Za-z0-9_]*)=([^&#]*)/g;
    const part = p.text.slice(i);
    for (let m = re.exec(part); m; m = re.exec(part)) {
      // A value that runs to the end of this piece may go on in the next one (`name=$NAME`).
      const whole = m.index + m[0].length < part.length || p === pieces[pieces.length - 1];
      out.push({ name: m[1]!, at: p.origin.start + i + m.index + (m[0].startsWith('&') ? 1 : 0), editable: p.origin.editable, ...(whole ? { value: m[2] } : {}) });
    }
  }
  return out;
}

/** GraphQL operation names the text engine looks for, longest first (so `podStop` never hides a longer name). */
export const GRAPHQL_NAMES_RE = new RegExp(
  `\\b(${GRAPHQL_REST_ROUTES.map((r) => r.operation)
    .sort((a, b) => b.length - a.length)
    .join('|')})\\s*[({]`,
  'g',
);

/** Report GraphQL operations with a REST v2 route found in `text[from, to)` (a query string, a fence). */
export function scanGraphql(c: FieldCollector, text: string, from: number, to: number): void {
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
