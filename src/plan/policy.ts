/**
 * What happens to a request whose plan leaves something for a person, for every engine (issue 24, "v1
 * is dead"): v1 answers 410 to everything, so code left on v1 is broken, not safe. A request moves to
 * v2 unfinished, with a TODO above it, whenever v2 refuses what is left loudly (a v1-only path answers
 * 404, a v1 body field kept answers 422); it stays on v1 alone only where v2 would answer 200 with
 * another meaning (it is *blocked*). The engines ask these questions; they decide nothing of it themselves.
 */
import type { Finding } from '../findings.js';

/** A held base's own finding is a consequence, never a cause. */
const BASE_RULES: ReadonlySet<string> = new Set(['base-url', 'openapi-url']);
/** Whether a rule is about a URL's base (the REST v1 base, an OpenAPI server URL), not its path. */
export const isBaseRule = (ruleId: string): boolean => BASE_RULES.has(ruleId);

/**
 * A finding a person must settle before the request is right (error or warning, not fixable): the
 * request may still move to v2 — unfinished, so v2 rejects it — with a TODO saying what to do.
 */
export const needsPerson = (f: Finding): boolean => !f.fixable && f.severity !== 'info' && !isBaseRule(f.ruleId);

/**
 * Findings lint makes again on the migrated code itself, so they need no TODO: a body-adapter call is its
 * own reminder, and a v1 query parameter left on a v2 URL (guarded or not) is reported there again.
 */
const RECOMPUTED: ReadonlySet<string> = new Set(['body-adapter', 'query-filter']);

/** A finding of a request that moves unfinished which a TODO must carry through the write. */
export const needsTodo = (f: Finding): boolean => needsPerson(f) && !RECOMPUTED.has(f.ruleId);

/** Why a marked request stays as it is (and, in every engine, keeps the base it reads). */
export const MARKED_REASON = 'a v2-migrate-keep-v1 or v2-migrate-ignore marker keeps it as it is';

/** Findings about how a response is read: the text engine checks every read again on the v2 code, so they need no TODO. */
export const READS: ReadonlySet<string> = new Set(['response-field', 'error-shape']);

/** A finding's message as a TODO: one line, without what the tool did not do (the TODO is what a person does). */
export function todoText(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ').replace(/ Not rewritten: /, ' Left as it was: ').trim();
}

/**
 * Why a request with these findings must stay on v1, or null: a finding left unfixed that v2 would not
 * refuse but answer with another meaning — a path built at run time (it could be any operation), a list
 * filter v2 ignores (it answers every item), a billing parameter v2 dropped or a billing path left
 * unrewritten (other records), a list read as a bare array the tool cannot unwrap.
 */
export function blockingFinding(findings: readonly Finding[]): string | null {
  for (const f of findings) {
    if (f.fixable) continue;
    switch (f.ruleId) {
      case 'dynamic-path':
      case 'unresolved-url':
        return `${f.ruleId}: its path is built at run time, so what v2 would answer cannot be known`;
      case 'query-filter':
        return `query-filter: ${firstSentence(f.message)}`;
      case 'billing-records':
        return `billing-records: ${firstSentence(f.message)}`;
      case 'resource-path':
        if (/\/billing\//.test(f.message)) return `resource-path: ${firstSentence(f.message)}`;
        break;
      case 'list-envelope':
        if (f.severity === 'error') return 'list-envelope: its list is read as a bare array where the tool cannot unwrap it';
        break;
      default:
        break;
    }
  }
  return null;
}

function firstSentence(message: string): string {
  const colon = message.indexOf(': ');
  const cut = colon >= 0 ? message.slice(0, colon) : message;
  return cut.replace(/\.$/, '');
}
