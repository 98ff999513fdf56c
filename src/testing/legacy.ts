import { matchTemplate, operationFor } from '../map/match.js';
import { POD_RESET_ADVICE, type HttpMethod } from '../map/operations.js';
import { problem, type Answer } from './problem.js';

/**
 * What a v1 request (method, path relative to a base) is in v2, from the migration map:
 * `GET /endpoints is GET /v2/serverless in v2`; null when the path is no v1 path.
 */
export function v1Hint(method: string, path: string): string | null {
  const template = matchTemplate(path.split('/').filter(Boolean));
  if (!template) return null;
  const op = operationFor(template, method as HttpMethod);
  if (!op) return null;
  if (!op.v2) return POD_RESET_ADVICE;
  const body = op.v2.body ? ` with the JSON body ${JSON.stringify(op.v2.body)}` : '';
  return `v1's ${op.method} ${op.path} is ${op.v2.method} /v2${op.v2.path}${body} in v2`;
}

/**
 * The retired REST v1 API: every call is a 410 Gone, as production answers since 2026-11-15, that
 * names the v1 request and, where it has one, its v2 form. The text is also under `message`, where v1
 * clients read their errors, so an unmigrated client's own error says what to change.
 */
export function legacyAnswer(method: string, base: string, path: string): Answer {
  const hint = v1Hint(method, path);
  const detail = `REST v1 was retired on 2026-11-15: ${method} ${base}${path} no longer answers${hint ? `; ${hint}` : ''}`;
  const answer = problem(410, detail);
  return { ...answer, body: { ...(answer.body as object), message: detail } };
}
