/** How much a finding counts: errors fail lint, warnings count toward --max-warnings, info is listed only. */
export type Severity = 'error' | 'warning' | 'info';

/**
 * Every rule id the tool can report. Ids are public: users suppress them in config and CI reads them.
 */
export const RULES = {
  'base-url': {
    severity: 'error',
    fixable: true,
    summary: 'The REST v1 base URL becomes the v2 base (https://api.runpod.io/v2).',
  },
  'resource-path': {
    severity: 'error',
    fixable: true,
    summary: 'v1 resource paths renamed in v2: /endpoints → /serverless, /networkvolumes → /network-volumes, /containerregistryauth → /registries, /billing/endpoints → /billing/serverless.',
  },
  'pod-action': {
    severity: 'error',
    fixable: true,
    summary: 'POST /pods/{id}/start|stop|restart becomes POST /pods/{id}/action with a JSON body {"action": …}.',
  },
  'update-alias': {
    severity: 'error',
    fixable: true,
    summary: 'The POST …/{id}/update alias is gone: v2 updates with PATCH on the resource itself.',
  },
  'path-param': {
    severity: 'error',
    fixable: true,
    summary: 'v1 path templates named their parameter ({podId}, {endpointId}, …); v2 uses {id} everywhere.',
  },
  'openapi-url': {
    severity: 'error',
    fixable: true,
    summary: 'The v1 OpenAPI schema URL becomes the v2 one; regenerate typed clients from it.',
  },
  'body-field': {
    severity: 'error',
    fixable: true,
    summary: 'A v1 request-body field is renamed, nested or re-typed in v2 (imageName → image, gpuTypeIds + gpuCount → gpu { id, count }, flashboot: true → "FLASHBOOT", …).',
  },
  'removed-field': {
    severity: 'error',
    fixable: false,
    summary: 'A v1 request-body field with no v2 equivalent (GPU fallback lists, countryCodes, interruptible, …): it stays so v2 rejects it loudly, with a TODO saying what to do instead.',
  },
  'dropped-field': {
    severity: 'warning',
    fixable: true,
    summary: 'A v1 request-body field v2 no longer has and that carries no behaviour (template readme): the codemod removes it.',
  },
  'v1-default': {
    severity: 'warning',
    fixable: false,
    summary: 'A v1 create relied on a v1 default that v2 does not apply (ports 8888/http + 22/tcp, a 20 GB /workspace volume, the name "my pod"); preserveV1Defaults writes them out.',
  },
  'opaque-body': {
    severity: 'warning',
    fixable: false,
    summary: 'A request body the tool cannot see (a parameter, a function result, a spread): the message names the v1 fields to check.',
  },
  'body-adapter': {
    severity: 'warning',
    fixable: true,
    summary: 'A request body built at run time is wrapped in a generated adapter (toV2CreatePodBody(…)) that reshapes its v1 fields for v2 when the request is sent; review the fields the code sends.',
  },
  'v2-schema': {
    severity: 'error',
    fixable: false,
    summary: 'The migrated body is still rejected by the v2 schema (a value below a minimum, a field the map does not know): what maps is migrated, v2 answers 422 until a person fixes the rest.',
  },
  'openapi-types': {
    severity: 'warning',
    fixable: false,
    summary: 'An openapi-fetch client typed from the v1 schema: regenerate its types from https://api.runpod.io/v2/openapi.json (its base and paths are migrated).',
  },
  'pod-reset': {
    severity: 'error',
    fixable: false,
    summary: 'POST /pods/{id}/reset has no v2 equivalent: it moves to v2 unfinished (v2 answers 404) with a TODO; the closest is restart, a true reset is stop then start.',
  },
  'todo-comment': {
    severity: 'error',
    fixable: false,
    summary: 'A TODO(v2-migrate) comment an older run left for a person (newer ones name their rule and report under it): an error until the work is done and the comment deleted.',
  },
  'unknown-path': {
    severity: 'error',
    fixable: false,
    summary: 'A path on the v1 base that v1 never documented: v2 has no mapping for it, so nothing is guessed.',
  },
  'embedded-url': {
    severity: 'warning',
    fixable: false,
    summary: 'A v1 URL inside a longer string (a shell command, a message): the request it makes cannot be seen, so it is not rewritten.',
  },
  'dynamic-path': {
    severity: 'error',
    fixable: false,
    summary: 'A path on the v1 base that is built at run time (`/pods${query}`, `/${kind}`): its v2 form cannot be decided, and the base stays v1 until it is migrated by hand.',
  },
  'unresolved-url': {
    severity: 'info',
    fixable: false,
    summary: 'A RunPod-looking path whose base or resource is not known statically: not rewritten.',
  },
  'graphql-operation': {
    severity: 'info',
    fixable: false,
    summary: 'A RunPod GraphQL operation that has a REST v2 route (podStop → POST /v2/pods/{id}/action, …): inventory only, GraphQL documents are never rewritten.',
  },
  'list-envelope': {
    severity: 'error',
    fixable: true,
    summary: 'v1 list endpoints returned a bare array; v2 wraps it ({ pods }, { endpoints } for /serverless, { templates }, { networkVolumes }, { registries }): unwrapped where the body is parsed, so the code still sees an array.',
  },
  'billing-records': {
    severity: 'error',
    fixable: true,
    summary: 'v1 billing returned a bare array of records with amount; v2 returns { records, metadata } with totalAmount, renamed endpointId to serverlessId and dropped grouping, gpuTypeId, dataCenterId, imageName and templateId.',
  },
  'query-filter': {
    severity: 'warning',
    fixable: true,
    summary: 'A v1 list query parameter v2 ignores (desiredStatus, computeType, gpuTypeId, include*, …): filtered on the client where visible, guarded by v2ListQuery where only known at run time; v2 alone would return everything.',
  },
  'error-shape': {
    severity: 'warning',
    fixable: true,
    summary: 'v1 error bodies were { message } (or { error, status }); v2 errors are RFC 9457 problems { title, status, detail, errors }: .message becomes .detail.',
  },
  'response-field': {
    severity: 'warning',
    fixable: true,
    summary: 'A REST v1 response field (desiredStatus, costPerHr, …) or bare-array list read that v2 renamed or wrapped in an object: renamed on provable RunPod responses, reported where only likely.',
  },
  'other-language': {
    severity: 'error',
    fixable: false,
    summary: 'A REST v1 URL in code of a language v2-migrate does not read (Go, PHP, PowerShell, …): listed so the gate fails, with what v2 has for its path; migrate it by hand.',
  },
  'prose-url': {
    severity: 'info',
    fixable: false,
    summary: 'A REST v1 URL or path mentioned in documentation prose (outside code blocks): reported for a person, never rewritten.',
  },
  'parse-error': {
    severity: 'warning',
    fixable: false,
    summary: 'The file could not be parsed; it was left unchanged.',
  },
  'skipped-file': {
    severity: 'warning',
    fixable: false,
    summary: 'The file (or folder) was not analysed (binary, not UTF-8, or unreadable) and was left unchanged.',
  },
  'malformed-config': {
    severity: 'warning',
    fixable: false,
    summary: 'A package.json, .gitignore or v2-migrate config inside the tree cannot be read or is invalid: the run goes on as if it were not there.',
  },
  'internal-error': {
    severity: 'error',
    fixable: false,
    summary: 'The tool failed on this file (or produced output that does not parse); the file was left unchanged.',
  },
} as const satisfies Record<string, { severity: Severity; fixable: boolean; summary: string }>;

export type RuleId = keyof typeof RULES;

export const RULE_IDS = Object.keys(RULES) as RuleId[];

export function isRuleId(id: string): id is RuleId {
  return Object.hasOwn(RULES, id);
}
