/**
 * v1 list filters v2 ignores (`GET /v2/pods?name=x` answers every pod): a request that sends one would
 * do something else on v2 (a `DELETE` of "the" pod found would delete the account's first pod). Where
 * every such filter is an equality on a field the v2 items carry and the engine can write it on the
 * client (`RequestSite.filterList`), it is moved there; otherwise the request is blocked: it stays on v1,
 * where it fails loudly with 410, and the finding says why.
 */
import { changesAnswer, IGNORED_QUERY_PARAMS, ITEM_NAMES, LIST_ENVELOPES, type IgnoredParam } from '../map/responses.js';
import type { V1Operation } from '../map/operations.js';
import type { ListFilter, ListFilterWriter } from '../plan/site.js';
import type { RuleId } from '../rules/registry.js';
import { checkQueryParam, type FieldCollector, type QueryParam } from './fields.js';
import type { Edit } from './source.js';

/** What planning a request's query needs of the text engine's collector (plan.ts), named here so the two import one way. */
interface QueryCollector extends FieldCollector {
  alsoFixed(ruleId: RuleId, at: number, message: string): void;
  requestMarked(at: number): boolean;
}
/** The request being planned: the literals its URL is built from. */
interface QueryRequest {
  literals: ReadonlySet<number>;
}
/** The request's site: where it is, and its engine's client-side list filter writer. */
interface QuerySite {
  anchor: number;
  filterList?: ListFilterWriter<Edit>;
}

/**
 * The map's client-side test of an ignored parameter (a JS expression over `item`), as a jq condition,
 * for the forms it takes: an equality on a field, a field present, a flag unset.
 */
function jqTest(ig: IgnoredParam): ListFilter['test'] | null {
  const test = ig.test;
  if (!test) return null;
  return (value, literal) => {
    const js = test('item', 'VALUE', literal);
    const equals = js && /^item\.(\w+)(?:\??\.(\w+))? === VALUE$/.exec(js);
    if (equals) return `.${equals[1]}${equals[2] ? `.${equals[2]}` : ''} == ${value}`;
    const present = js && /^item\.(\w+) !== undefined$/.exec(js);
    if (present) return `.${present[1]} != null`;
    const unset = js && /^!item\.(\w+)$/.exec(js);
    return unset ? `(.${unset[1]} | not)` : null;
  };
}

/**
 * Plan the query parameters of a request to `op`: ignored list filters that change what v2 answers are
 * moved to the client or block the request; every other parameter is checked as before.
 */
export function planQueryParams(c: QueryCollector, req: QueryRequest, op: V1Operation, site: QuerySite, params: readonly QueryParam[]): void {
  const ignored = IGNORED_QUERY_PARAMS[op.id] ?? [];
  // Engines that cannot write a client-side filter yet keep the plain report (their owners opt in).
  const changing = !site.filterList ? [] : params.flatMap((q) => {
    const ig = ignored.find((x) => x.param === q.name);
    return ig && changesAnswer(ig, q.value) && op.id.startsWith('List') ? [{ q, ig }] : [];
  });
  for (const q of params) if (!changing.some((ch) => ch.q === q)) checkQueryParam(c, op, q.name, q.at, q.editable, q.value);
  if (!changing.length) return;
  const envelope = LIST_ENVELOPES[op.id];
  const what = ITEM_NAMES[envelope?.item ?? 'pod'];
  const v2 = `GET /v2${op.v2?.path ?? op.path}`;
  const filters: ListFilter[] = [];
  for (const { q, ig } of changing) {
    const test = jqTest(ig);
    if (test) filters.push({ param: q.name, test, sameAsV2: ig.sameAsV2 ?? [] });
  }
  const moved = envelope && filters.length === changing.length ? moveToClient(c, site, filters, envelope.key) : null;
  if (Array.isArray(moved)) {
    const literal = req.literals.values().next().value;
    const edits = moved.map((e) => ({ ...e, literal }));
    changing.forEach(({ q, ig }, i) => {
      const message = `${v2} ignores the v1 query parameter ${q.name}: it is taken out of the request and the unwrapped list is filtered on the client instead (by ${ig.v2Field ?? q.name})${ig.caveat ? `; note that ${ig.caveat}` : ''}.`;
      if (i === 0) c.fix('query-filter', q.at, message, edits);
      else c.alsoFixed('query-filter', q.at, message);
    });
    return;
  }
  const why = moved ?? `v2 has no field to test it on the client (${changing.map(({ ig }) => ig.recipe(envelope?.key ?? 'items', null)).join('; ')})`;
  // Its query-filter error blocks it (plan/policy.ts blockingFinding): it stays on v1, pinned where its base is shared.
  for (const { q } of changing) {
    c.report('query-filter', q.at, `${v2} silently ignores the v1 query parameter ${q.name} and returns every ${what}, so this request cannot go to v2 as it is: ${why}. It stays on v1 (where it fails with 410) until its filter is done on the client.`);
  }
}

/** The engine's edits that move the filters to the client, or why it cannot. */
function moveToClient(c: QueryCollector, site: QuerySite, filters: readonly ListFilter[], envelope: string): Edit[] | string {
  if (c.requestMarked(site.anchor)) return 'the request is marked to stay as it is';
  return site.filterList?.(filters, envelope) ?? 'the filter cannot be written on the client in this file type';
}
