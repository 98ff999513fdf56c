/**
 * The run-time guard for list filters v2 ignores: `v2ListQuery(operation, query)` in the generated adapter
 * file. A v1 list filter whose value is only known at run time (a URLSearchParams filled from a tool's
 * input, an axios `params` object passed in) cannot be rewritten in the source; sent to v2 it would be
 * ignored and the list would come back unfiltered — a 200 with another meaning. The guard hands the query
 * back when it carries no such filter, and throws, naming it, when it does: the request fails loudly
 * instead of doing something else.
 */
import { IGNORED_QUERY_PARAMS, ITEM_NAMES, LIST_ENVELOPES } from '../map/responses.js';
import { V1_OPERATIONS } from '../map/operations.js';
import { toSource } from '../js/body/text.js';
import { LIST_QUERY_NAME } from './adapter-file.js';

export { LIST_QUERY_NAME };

/** The adapter file's export for list queries, beside the `toV2…Body` adapters. */
export const LIST_QUERY = 'ListQuery';

/** One v1 parameter the guard refuses, with what v2 does instead and what to do. */
interface GuardedParam {
  /** Values with which v2 answers as v1 did (the parameter is then let through). */
  same: string[];
  advice: string;
}

interface GuardedList {
  /** `GET /v2/pods`. */
  request: string;
  /** What v2 answers instead: `every pod`. */
  answer: string;
  params: Record<string, GuardedParam>;
}

/** The list operations with a parameter that changes what v2 answers, and those parameters. */
export function guardedLists(): Record<string, GuardedList> {
  const out: Record<string, GuardedList> = {};
  for (const [op, params] of Object.entries(IGNORED_QUERY_PARAMS)) {
    const envelope = LIST_ENVELOPES[op];
    const v2 = V1_OPERATIONS.find((o) => o.id === op)?.v2;
    const changing = params.filter((p) => p.effect !== 'detail');
    if (!envelope || !v2 || !changing.length) continue;
    const what = ITEM_NAMES[envelope.item];
    out[op] = {
      request: `GET /v2${v2.path}`,
      answer: changing.some((p) => p.effect === 'widen') ? `other ${what}s than v1 did` : `every ${what}`,
      params: Object.fromEntries(changing.map((p) => [p.param, { same: [...(p.sameAsV2 ?? [])], advice: p.recipe(envelope.key, null) }])),
    };
  }
  return out;
}

/** Whether a list operation has a guard (a run-time filter on it can be wrapped). */
export const hasListGuard = (op: string): boolean => op in guardedLists();

const q = (value: unknown): string => toSource(value, "'");

/** The guard's text in the adapter file: its table, then the function. */
export function listQuerySource(ts: boolean): string {
  const lists = guardedLists();
  const ops = Object.keys(lists).sort();
  const table = ops.map((op) => `  ${op}: ${q(lists[op])},`).join('\n');
  const types = ts
    ? [
        `export type V1ListOperation = ${ops.map((op) => q(op)).join(' | ')};`,
        'type GuardedList = { request: string; answer: string; params: { [name: string]: { same: string[]; advice: string } } };',
        '',
      ].join('\n')
    : '';
  const signature = ts ? `export function ${LIST_QUERY_NAME}<T>(operation: V1ListOperation, query: T): T` : `export function ${LIST_QUERY_NAME}(operation, query)`;
  const pairs = ts ? 'const pairs: Array<[string, unknown]> =' : 'const pairs =';
  return [
    '// The v1 list filters v2 ignores in a way that changes its answer (v2-migrate\'s migration map).',
    `${types}const V1_LIST_FILTERS${ts ? ': { [operation: string]: GuardedList }' : ''} = {\n${table}\n};`,
    '',
    '/**',
    ' * The list query, handed back as it is when it carries no v1 filter v2 ignores. With one, v2 would',
    ' * answer the unfiltered list (a 200 with another meaning): this throws, naming it, before the request',
    ' * is sent. Takes the request\'s URL or path, a query string (with or without its `?`), URLSearchParams',
    ' * or a params object (where null and undefined values are not sent, as HTTP clients do).',
    ' */',
    `${signature} {`,
    '  const list = V1_LIST_FILTERS[operation];',
    `  ${pairs}`,
    "    typeof query === 'string' ? [...new URLSearchParams(queryPart(query))] : query instanceof URLSearchParams ? [...query] : query && typeof query === 'object' ? Object.entries(query) : [];",
    '  const sent = pairs.filter(([name, value]) => {',
    '    const param = list && Object.prototype.hasOwnProperty.call(list.params, name) ? list.params[name] : undefined;',
    "    return !!param && value !== undefined && value !== null && value !== '' && !param.same.includes(String(value));",
    '  });',
    '  if (!list || !sent.length) return query;',
    "  const names = sent.map(([name]) => name).join(', ');",
    "  const advice = sent.map(([name]) => `${name}: ${list.params[name]?.advice ?? ''}`).join('; ');",
    "  throw new Error(`${LIST_QUERY_NAME}: ${list.request} ignores the v1 query parameter${sent.length > 1 ? 's' : ''} ${names} and would answer ${list.answer}: ${advice}.`);",
    '}',
    '',
    '/** The query of a URL, a path or a query string (with or without its `?`), without a fragment. */',
    `function queryPart(text${ts ? ': string' : ''})${ts ? ': string' : ''} {`,
    "  const query = text.includes('?') ? text.slice(text.indexOf('?') + 1) : text.includes('/') ? '' : text;",
    "  return query.split('#')[0] ?? '';",
    '}',
  ].join('\n').replace('${LIST_QUERY_NAME}', LIST_QUERY_NAME);
}
