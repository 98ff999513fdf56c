import type { z } from 'zod';

/** One answer of the simulated API, before it becomes an HTTP response. */
export interface Answer {
  status: number;
  /** JSON body; absent for 204. */
  body?: unknown;
  headers?: Record<string, string>;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  422: 'Unprocessable Entity',
  501: 'Not Implemented',
};

/** An RFC 9457 problem, as v2 answers errors (`application/problem+json`). */
export function problem(status: number, detail: string, errors?: string[], headers?: Record<string, string>): Answer {
  return { status, body: { title: TITLES[status] ?? 'Error', status, detail, ...(errors?.length ? { errors } : {}) }, headers: { 'Content-Type': 'application/problem+json', ...headers } };
}

/** v2's answer to a request that fails validation: 422 with one message per failure. */
export const invalid = (errors: string[]): Answer => problem(422, 'Request validation failed.', errors);

const at = (path: readonly PropertyKey[]): string => '$' + path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');

const jsonType = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value);

const quoted = (values: readonly unknown[]): string => values.map((v) => `'${String(v)}'`).join(', ');

/**
 * zod's issues in the words of v2's JSON Schema validator (`$: additional properties 'bogus' not
 * allowed`, as the v2 spec's own example reads): the JSON path, then what failed.
 */
export function v2Messages(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const where = at(issue.path);
    const input = (issue as { input?: unknown }).input;
    if (input === undefined && issue.path.length && issue.code !== 'custom') return `${at(issue.path.slice(0, -1))}: missing property '${String(issue.path[issue.path.length - 1])}'`;
    switch (issue.code) {
      case 'unrecognized_keys':
        return `${where}: additional properties ${quoted(issue.keys)} not allowed`;
      case 'invalid_type':
        return `${where}: got ${jsonType(input)}, want ${issue.expected}`;
      case 'too_small':
      case 'too_big': {
        const kind = issue.origin === 'string' ? 'Length' : issue.origin === 'array' ? 'Items' : '';
        const bound = issue.code === 'too_small' ? `min${kind || 'imum'}` : `max${kind || 'imum'}`;
        const limit = issue.code === 'too_small' ? issue.minimum : issue.maximum;
        const got = typeof input === 'string' || Array.isArray(input) ? input.length : input;
        return `${where}: ${bound}: got ${String(got)}, want ${String(limit)}`;
      }
      case 'invalid_value':
        return `${where}: value must be one of ${quoted(issue.values)}`;
      case 'invalid_format':
        if (issue.format === 'regex') return `${where}: got '${String(input)}', ${issue.message.startsWith('want ') ? issue.message : `want a match of ${String((issue as { pattern?: unknown }).pattern)}`}`;
        return `${where}: '${String(input)}' is not valid '${issue.format}'`;
      default:
        return `${where}: ${issue.message}`;
    }
  });
}
