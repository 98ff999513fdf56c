/**
 * Every sentence the request planner says about a URL, written once: both engines (Babel for JS/TS,
 * the text scanners for the other languages) report the same fact in the same words.
 */
import { POD_RESET_ADVICE, RENAME_NOTES, type HttpMethod, type V1Operation, type V2Target } from '../map/operations.js';
import type { PathTemplate } from '../map/match.js';
import { bodyChecklist, type BodyMapping } from '../map/bodies.js';
import { isSchemaUrl, templateOf, type UrlChange } from '../url/plan.js';
import { displayPath, type UrlShape } from '../url/shape.js';

export { POD_RESET_ADVICE };

const v2Display = (path: string): string => `/v2${path}`;

/** Why each kind of v1 path change is needed: the tail of the messages that explain it. */
export const PARAM_NOTE = 'v2 names every path parameter {id}';
export const ACTION_NOTE = 'per-action paths are gone';
export const UPDATE_NOTE = 'the POST …/update alias is gone';

/** The TODO comment a pod reset gets where the engine can write one. */
export const RESET_TODO = 'v2 has no pod reset. Closest is the restart action; a true reset is stop then start.';

/** Why a resource's path changed (`/networkvolumes` → `/network-volumes`). */
export function renameNote(template: PathTemplate): string {
  const key = template.v1Path.startsWith('/billing/') ? template.v1Path.slice(1) : template.v1Segments[0]!;
  // A path without a note of its own (`/billing/networkvolumes`) is explained by its renamed segment.
  const segment = template.v1Segments.find((s) => RENAME_NOTES[s]);
  return RENAME_NOTES[key] ?? (segment ? RENAME_NOTES[segment]! : 'the path changed in v2');
}

/** The v2 form of a v1 operation, for messages (`POST /v2/pods/{id}/action {"action":"stop"}`). */
export function v2Form(op: V1Operation): string {
  if (!op.v2) return 'nothing (no v2 equivalent)';
  return `${op.v2.method} ${v2Display(op.v2.path)}${op.v2.body ? ` ${JSON.stringify(op.v2.body)}` : ''}`;
}

export function baseMessage(matchedBase: string | undefined, target: string, envVar?: string): string {
  const envNote = envVar ? ` Deployments may still set ${envVar} to a v1 URL: update it there too.` : '';
  return `REST v1 base URL ${matchedBase} becomes ${target}: v1 was retired on 2026-11-15.${envNote}`;
}

export function schemaMessage(target: string): string {
  return `The v1 OpenAPI schema URL becomes ${target}/openapi.json: regenerate typed clients from the v2 schema.`;
}

/** A base or schema change's message (`base-url`, `openapi-url`); `envVar`: the variable whose default the base is. */
export function baseChangeMessage(change: UrlChange, matchedBase: string | undefined, target: string, envVar?: string): string {
  return change.ruleId === 'openapi-url' ? schemaMessage(target) : baseMessage(matchedBase, target, envVar);
}

/** A path change of a request (resource rename, `{podId}` → `{id}`). */
export function pathMessage(template: PathTemplate, change: UrlChange): string {
  return change.ruleId === 'path-param' ? paramMessage(change.what) : `${template.v1Path} is ${v2Display(template.v2Path!)} in v2: ${renameNote(template)}.`;
}

function paramMessage(what: string): string {
  return `Path parameter ${what}: ${PARAM_NOTE}.`;
}

/** A placeholder substituted by code the JS engine cannot rename along (`.replace(name, id)`). */
export function paramSubstitutedMessage(what: string): string {
  return `Path parameter ${what}: ${PARAM_NOTE}, but this placeholder is substituted in a way the tool cannot rename along; rename it by hand.`;
}

/** A path change of a URL literal no understood request uses (JS engine): says the change itself. */
export function literalPathMessage(template: PathTemplate, change: UrlChange): string {
  return `${template.v1Path} is ${v2Display(template.v2Path!)} in v2 (${change.what}).`;
}

export function actionMessage(template: PathTemplate, op: V1Operation): string {
  return `POST ${template.v1Path} is POST ${v2Display(op.v2!.path)} with the JSON body ${JSON.stringify(op.v2!.body)} in v2: ${ACTION_NOTE}.`;
}

export function updateMessage(template: PathTemplate): string {
  return `POST ${template.v1Path} is PATCH ${v2Display(template.v2Path!)} in v2: ${UPDATE_NOTE}.`;
}

/** A REST-looking path on a base the engine cannot see (`${API}/pods`). */
export function unknownBaseMessage(display: string, label: string): string {
  return `${display} looks like a RunPod REST path, but its base (${label}) is not known here, so it was not rewritten; migrate it if that base is the v1 API.`;
}

export function unassembledMessage(display: string): string {
  return `The v1 URL ${display} is assembled in a way the tool cannot edit safely; migrate it by hand.`;
}

/** A list URL moved to v2 where it is handed to code the tool does not understand as a request (`callee`). */
export function listValueMessage(v1Path: string, v2Path: string, key: string, callee: string): string {
  return `GET ${v1Path} returns ${listShape(key)} in v2 (GET /v2${v2Path}) instead of a bare array, but this URL is handed to code v2-migrate does not understand as a request (it is passed to ${callee}(…)): if that code lists with GET, read .${key} where the body is parsed.`;
}

export function notInPlaceMessage(display: string): string {
  return `The v1 URL ${display} cannot be edited in place; migrate it by hand.`;
}

export function unknownOperationMessage(method: HttpMethod | undefined, template: PathTemplate): string {
  const expected = template.operations.map((o) => o.method).join('/');
  return `${method ?? 'This request'} ${template.v1Path} is not a REST v1 operation (v1 had ${expected}), so it was not rewritten.`;
}

export function unknownPathMessage(display: string): string {
  return `${display} is not a documented REST v1 path, so v2-migrate does not guess its v2 form.`;
}

/** A path on the v2 host that is no v2 path (a v1 name left behind, an invented one): v2 answers it 404. */
export function notV2PathMessage(display: string): string {
  return `${display} is not a REST v2 path (nor a documented v1 one): v2 answers it with 404. Find what v2 has for it (MIGRATION.md §2, GET /v2/catalog/… for GPU types and data centers) and rewrite it by hand.`;
}

const BILLING_RENAMES = '/billing/endpoints must become /billing/serverless (/v2/billing/endpoints bills public endpoints) and /billing/networkvolumes /billing/network-volumes; rewrite it by hand';

/** A request's billing path chosen at run time. */
export function billingAtRunTimeMessage(display: string): string {
  return `The billing path ${display} is chosen at run time: ${BILLING_RENAMES}.`;
}

/** A billing URL prefix (`${API}/billing/`) another piece of code completes. */
export function billingElsewhereMessage(display: string): string {
  return `The billing URL ${display} is completed elsewhere: ${BILLING_RENAMES}.`;
}

/** A request's path built at run time, which filling in could make a v1 path (JS engine: dynamic-path). */
export function dynamicPathMessage(display: string): string {
  return `The v1 path ${display} is built at run time, so its v2 form cannot be decided here; migrate it by hand (the resource renames, /action and /update changes of v2 may apply).`;
}

/** The same, as the text engine words it (unresolved-url). */
export function builtAtRunTimeMessage(display: string): string {
  return `The v1 path ${display} is built at run time, so its v2 form cannot be decided here; check it by hand.`;
}

export function embeddedMessage(hit: string): string {
  return `A REST v1 URL (${hit}) sits inside a longer string; the request it stands for cannot be seen, so migrate it by hand.`;
}

/**
 * A URL value for an operation whose v2 form needs the request (method or body), which is not in sight.
 * `withBody`: the v2 form names the action body too (the text engine's wording; the JS engine's stops at the path).
 */
export function requestNotVisibleMessage(template: PathTemplate, change: Exclude<V1Operation['change'], 'path'>, withBody: boolean): string {
  const first = template.operations[0]!;
  const v2 = (target: V2Target): string => (withBody ? v2Form(first) : `${target.method} ${v2Display(template.v2Path!)}`);
  // A reset's URL (v2 has none) is a value like any other: said, never a crash on its missing v2 form.
  const what = change === 'removed' || !first.v2 ? 'has no v2 equivalent' : `changes method or body in v2 (${first.method} ${template.v1Path} → ${v2(first.v2)})`;
  return `This v1 URL is for ${template.v1Path}, which ${what}; the request that uses it is not visible here, so it was not rewritten.`;
}

/** A v2 list response's shape: `{ pods: [...] }`, or billing's `{ records, metadata }`. */
export function listShape(key: string): string {
  return key === 'records' ? '{ records, metadata }' : `{ ${key}: [...] }`;
}

/** What a billing list's reader must know besides the envelope (empty for the other lists). */
export function listTail(key: string): string {
  return key === 'records' ? ' (money is totalAmount per record; totals are in metadata.totals)' : '';
}

/** What v2 has for a URL a person must update (prose, a language the tool does not read). */
export function v2Hint(shape: UrlShape, target: string): string {
  if (isSchemaUrl(shape)) return `the v2 schema is ${target}/openapi.json`;
  if (!shape.segments.length) return `the v2 base is ${target}`;
  const t = templateOf(shape);
  return t ? `in v2: ${t.operations.map((o) => `${o.method} ${t.v1Path} → ${v2Form(o)}`).join('; ')}` : `${displayPath(shape)} is not a documented REST v1 path`;
}

/** `field "desiredStatus"`, or for a field v1 nested in another, `field "displayName" under "gpu"`. */
export function fieldLabel(field: string): string {
  const dot = field.lastIndexOf('.');
  return dot < 0 ? `field "${field}"` : `field "${field.slice(dot + 1)}" under "${field.slice(0, dot)}"`;
}

/** A body the tool cannot see (`why`), whose operation v2 changed: it goes to v2 as it is, so a person checks it. */
export function opaqueBodyMessage(op: V1Operation, mapping: BodyMapping, why: string): string {
  return `The body of ${op.method} ${op.path} (${op.id}) is built where v2-migrate cannot see it (${why}); it goes to v2 as it is (v2 rejects a v1 field with 422): migrate it by hand, checking it against v2: ${bodyChecklist(mapping)}.`;
}
