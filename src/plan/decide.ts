/**
 * The planner's decisions about one recognised v1 URL, for both engines: what kind of change a request
 * or a URL value needs, which rule explains it and in which words, and which kind of edit carries it
 * out (a path splice, a method change, an action body). The engines turn these into their own edits
 * (Babel source edits, text splices) and findings; they decide nothing about the URL themselves.
 */
import { operationFor, templatesCompatible, type PathTemplate } from '../map/match.js';
import type { HttpMethod, V1Operation } from '../map/operations.js';
import type { UrlChange } from '../url/plan.js';
import { displayPath, type UrlShape } from '../url/shape.js';
import { couldBeV2Path, isV2Path } from '../map/v2match.js';
import type { RuleId } from '../rules/registry.js';
import {
  ACTION_NOTE,
  actionMessage,
  billingAtRunTimeMessage,
  billingElsewhereMessage,
  builtAtRunTimeMessage,
  dynamicPathMessage,
  literalPathMessage,
  notV2PathMessage,
  PARAM_NOTE,
  pathMessage,
  POD_RESET_ADVICE,
  renameNote,
  RESET_TODO,
  requestNotVisibleMessage,
  unknownOperationMessage,
  unknownPathMessage,
  UPDATE_NOTE,
  updateMessage,
  v2Form,
} from './messages.js';

/**
 * Which engine asks, for the three facts the two still report differently (kept so that their findings
 * stay what they were): a run-time path that could be v1 (JS `dynamic-path` error, text `unresolved-url`
 * info), a request to the bare base (JS `unknown-path`, text nothing), and a URL value's wording (JS names
 * the edit, `(/endpoints → /serverless)`, and leaves the action body out of the v2 form).
 */
export type Engine = 'js' | 'text';

/** A v1 operation's change beyond base and path renames (map/operations.ts) that only the request can carry out. */
type RequestChange = Exclude<V1Operation['change'], 'path'>;

/** The rule that explains each change only the request itself can carry out (one entry per kind). */
const CHANGE_RULES = {
  action: 'pod-action',
  'update-alias': 'update-alias',
  removed: 'pod-reset',
} as const satisfies Record<RequestChange, RuleId>;

/** One URL change and the finding that explains it. */
export interface PathStep {
  ruleId: RuleId;
  message: string;
  change: UrlChange;
}

/** What a request to a v1 path template needs, given its method and its URL's planned path changes. */
export type OperationDecision =
  /** A method v1 never had on this path (PUT /pods/{podId}): not a v1 operation, reported. */
  | { kind: 'not-an-operation'; ruleId: 'unknown-path'; message: string }
  /** Path splices only (resource renames, `{podId}` → `{id}`), each its own fix. */
  | { kind: 'path'; op: V1Operation | undefined; steps: PathStep[] }
  /** v2 has no equivalent: reported, with a TODO where the engine can write one. */
  | { kind: 'reset'; op: V1Operation; ruleId: 'pod-reset'; message: string; todo: string }
  /** Path splices plus a fixed JSON body, all or nothing. */
  | { kind: 'action'; op: V1Operation; ruleId: 'pod-action'; message: string; url: UrlChange[]; body: Readonly<Record<string, string>> }
  /** Drop `/update` and change the method, all or nothing; resource renames on the same path too. */
  | { kind: 'update-alias'; op: V1Operation; ruleId: 'update-alias'; message: string; method: HttpMethod; drop: UrlChange[]; renames: PathStep[] };

const steps = (template: PathTemplate, changes: readonly UrlChange[]): PathStep[] => changes.map((change) => ({ ruleId: change.ruleId, message: pathMessage(template, change), change }));

/**
 * Decide a request on a v1 path template. `method` is undefined when the request does not show it; a
 * path whose every operation migrates the same way needs none. `pathChanges`: planUrlChanges without
 * the base's.
 */
export function decideOperation(template: PathTemplate, method: HttpMethod | undefined, pathChanges: readonly UrlChange[]): OperationDecision {
  const op = operationFor(template, method);
  if (!op) {
    if (method === undefined && template.operations.every((o) => o.change === 'path')) return { kind: 'path', op: undefined, steps: steps(template, pathChanges) };
    return { kind: 'not-an-operation', ruleId: 'unknown-path', message: unknownOperationMessage(method, template) };
  }
  switch (op.change) {
    case 'path':
      return { kind: 'path', op, steps: steps(template, pathChanges) };
    case 'removed':
      return { kind: 'reset', op, ruleId: CHANGE_RULES[op.change], message: POD_RESET_ADVICE, todo: RESET_TODO };
    case 'action':
      return { kind: 'action', op, ruleId: CHANGE_RULES[op.change], message: actionMessage(template, op), url: [...pathChanges], body: op.v2!.body! };
    case 'update-alias':
      return {
        kind: 'update-alias',
        op,
        ruleId: CHANGE_RULES[op.change],
        message: updateMessage(template),
        method: op.v2!.method,
        drop: pathChanges.filter((c) => c.ruleId === 'update-alias'),
        renames: steps(
          template,
          pathChanges.filter((c) => c.ruleId !== 'update-alias'),
        ),
      };
    default: {
      const unknown: never = op.change;
      return unknown;
    }
  }
}

/** A request already on v2 whose path is still a v1 pod reset (v2 has none): a person must pick its replacement. */
export function leftoverReset(template: PathTemplate | undefined): { ruleId: 'pod-reset'; message: string; todo: string } | null {
  return template?.operations.some((o) => o.change === 'removed') ? { ruleId: CHANGE_RULES.removed, message: POD_RESET_ADVICE, todo: RESET_TODO } : null;
}

/** A request sent to the v2 base: v2 code to check, or a v1 path that only had its base moved. */
export type OnV2Decision =
  /** A v1 path on the v2 base (changed by hand, or by a tool that only moved the base): it migrates like a v1 call, all but the base. */
  | { kind: 'half-migrated' }
  /** v2 code: what v2 would still refuse in its URL (a leftover reset, a path v2 does not have: 404). */
  | { kind: 'v2'; reset: ReturnType<typeof leftoverReset>; unknown: { ruleId: 'unknown-path'; message: string } | null };

/**
 * Decide a request on the v2 base. `declared`: its path comes from a wrapper declared in the config,
 * whose paths are taken as written (never reported as unknown).
 */
export function decideOnV2(shape: UrlShape, template: PathTemplate | undefined, declared = false): OnV2Decision {
  const segments = shape.segments.map((s) => s.text);
  if (template && !isV2Path(segments)) return { kind: 'half-migrated' };
  const reset = leftoverReset(template);
  // A path v2 does not have, every segment known: a 404 in waiting (a v1-only name, an invented path).
  const unknown = !template && !reset && segments.length > 0 && !couldBeV2Path(segments) && !templatesCompatible(segments).length && segments.join('/') !== 'openapi.json' && !declared;
  return { kind: 'v2', reset, unknown: unknown ? { ruleId: 'unknown-path', message: notV2PathMessage(displayPath(shape)) } : null };
}

/** A request on a known v1 base whose path matches no template. */
export type UnmatchedDecision =
  | { kind: 'report'; ruleId: RuleId; message: string }
  /** Nothing to say (the text engine on a request to the bare base). */
  | { kind: 'none' };

export function decideUnmatched(shape: UrlShape, engine: Engine): UnmatchedDecision {
  const display = displayPath(shape);
  const segments = shape.segments.map((s) => s.text);
  // Holes only make a path unresolved if filling them could give a v1 path (`/pods/${id}/terminate` cannot).
  if (segments.some((s) => s === null) && templatesCompatible(segments).length) {
    if (segments[0] === 'billing') return { kind: 'report', ruleId: 'resource-path', message: billingAtRunTimeMessage(display) };
    return engine === 'js' ? { kind: 'report', ruleId: 'dynamic-path', message: dynamicPathMessage(display) } : { kind: 'report', ruleId: 'unresolved-url', message: builtAtRunTimeMessage(display) };
  }
  if (segments.length === 0 && engine === 'text') return { kind: 'none' };
  return { kind: 'report', ruleId: 'unknown-path', message: unknownPathMessage(display) };
}

/**
 * What a v1 URL written as a value (a constant, a config entry, a literal no understood request uses)
 * needs: `rewrite` what holds whatever request uses it (base, and with `withPath` the path renames), or
 * report.
 */
export type ValueDecision =
  | { kind: 'rewrite'; withPath: boolean }
  | { kind: 'report'; ruleId: RuleId; message: string };

export function decideValue(shape: UrlShape, template: PathTemplate | undefined, schema: boolean, engine: Engine): ValueDecision {
  if (schema) return { kind: 'rewrite', withPath: false };
  if (template) {
    const change = template.operations.find((o) => o.change !== 'path')?.change;
    if (!change || change === 'path') return { kind: 'rewrite', withPath: true };
    return { kind: 'report', ruleId: CHANGE_RULES[change], message: requestNotVisibleMessage(template, change, engine === 'text') };
  }
  const display = displayPath(shape);
  const literalSegments = shape.segments.map((s) => s.text);
  const prefixEnd = literalSegments.indexOf(null);
  const prefix = (prefixEnd < 0 ? literalSegments : literalSegments.slice(0, prefixEnd)) as string[];
  if (prefix[0] === 'billing') return { kind: 'report', ruleId: 'resource-path', message: billingElsewhereMessage(display) };
  // A prefix of v1 paths (`${API}/pods/`), or a path whose holes could still make a v1 path.
  if (shape.segments.length === 0 || templatesCompatible(literalSegments, true).length) return { kind: 'rewrite', withPath: false };
  return { kind: 'report', ruleId: 'unknown-path', message: unknownPathMessage(display) };
}

/** The message of a path change rewritten in a URL value. */
export function valueChangeMessage(template: PathTemplate, change: UrlChange, engine: Engine): string {
  return engine === 'js' && change.ruleId !== 'path-param' ? literalPathMessage(template, change) : pathMessage(template, change);
}

/**
 * A v1 path written as a key (an OpenAPI document's `paths`), whose document is regenerated rather than
 * edited: the most telling rule and what the path is in v2, or null when it is the same in v2.
 */
export function decidePathKey(t: PathTemplate, key: string): { rule: RuleId; what: string } | null {
  const op = t.operations.find((o) => o.change !== 'path');
  if (op && op.change !== 'path') {
    switch (op.change) {
      case 'action':
        return { rule: CHANGE_RULES[op.change], what: `${v2Form(op)}: ${ACTION_NOTE}` };
      case 'update-alias':
        return { rule: CHANGE_RULES[op.change], what: `${v2Form(op)}: ${UPDATE_NOTE}` };
      case 'removed':
        return { rule: CHANGE_RULES[op.change], what: 'nothing: v2 has no pod reset' };
      default: {
        const unknown: never = op.change;
        return unknown;
      }
    }
  }
  const segs = key.split('/').filter(Boolean);
  const v2 = t.v2Path!.split('/').filter(Boolean);
  if (t.v1Segments.some((s, i) => !s.startsWith('{') && s !== v2[i])) return { rule: 'resource-path', what: `/v2${t.v2Path}: ${renameNote(t)}` };
  if (segs.some((s, i) => s.startsWith('{') && s !== v2[i])) return { rule: 'path-param', what: `/v2${t.v2Path}: ${PARAM_NOTE}` };
  return null;
}
