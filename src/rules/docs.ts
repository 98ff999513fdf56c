/**
 * Long documentation and a before/after example for every rule id: what `v2-migrate explain <id>`
 * prints and what SARIF carries as the rule's help. Kept apart from registry.ts (severity, fixable,
 * one-line summary) so the two can change independently.
 */
import { RULES, RULE_IDS, type RuleId } from './registry.js';

export interface RuleDoc {
  /** A few plain-text paragraphs (separated by blank lines): what, why, and what to do. */
  doc: string;
  /** Example code that triggers the rule. */
  before: string;
  /** What the codemod writes (fixable rules) or what a person would write (the others). */
  after: string;
}

export const RULE_DOCS: Partial<Record<RuleId, RuleDoc>> = {
  'base-url': {
    doc: `REST v1 (https://rest.runpod.io/v1) was retired on 2026-11-15: every request to it fails. The codemod rewrites the base to https://api.runpod.io/v2 (or --base-url) wherever it appears as the base of a URL: string and template literals, constants, axios baseURL, and env-var defaults such as process.env.X ?? '…'.

Proxies or mirrors of v1 (--legacy-base-url, config legacyBaseUrls) are rewritten the same way. When the base comes from an environment variable, deployments may still set that variable to a v1 URL: update it in your environment, .env files and CI secrets too.`,
    before: `const BASE = process.env.RUNPOD_REST_URL ?? 'https://rest.runpod.io/v1';`,
    after: `const BASE = process.env.RUNPOD_REST_URL ?? 'https://api.runpod.io/v2';`,
  },
  'resource-path': {
    doc: `Some v1 resources have new names in v2: /endpoints is /serverless, /networkvolumes is /network-volumes (hyphenated: /v2/networkvolumes is a 404), /containerregistryauth is /registries, and the billing paths follow.

Trap: v1 GET /billing/endpoints becomes GET /v2/billing/serverless. /v2/billing/endpoints exists but bills public endpoints, a different product, so a naive carry-over returns 200 with the wrong total. When the billing path is chosen at run time, the tool reports it instead of guessing.`,
    before: `await api('GET', '/endpoints');\nawait api('GET', '/billing/endpoints?bucketSize=day');`,
    after: `await api('GET', '/serverless');\nawait api('GET', '/billing/serverless?bucketSize=day');`,
  },
  'pod-action': {
    doc: `v1 had one path per pod action: POST /pods/{id}/start, /stop, /restart. v2 has a single POST /v2/pods/{id}/action whose JSON body names the action: {"action": "start" | "stop" | "restart" | "terminate"}.

The codemod rewrites the path and adds the body in the form the client takes: body: JSON.stringify({ action }) for fetch, a data object for axios, the body argument of your own wrapper. Where the call builds its headers by hand it adds Content-Type: application/json, since v2 requires a JSON body.`,
    before: `await fetch(\`\${BASE}/pods/\${id}/stop\`, { method: 'POST', headers: { Authorization: \`Bearer \${key}\` } });`,
    after: `await fetch(\`\${BASE}/pods/\${id}/action\`, { method: 'POST', headers: { Authorization: \`Bearer \${key}\`, 'Content-Type': 'application/json' }, body: JSON.stringify({ action: 'stop' }) });`,
  },
  'update-alias': {
    doc: `v1 accepted POST …/{id}/update as an alias for updating pods, endpoints, templates and network volumes. v2 removed the alias: updates are PATCH on the resource itself.

The codemod drops the /update segment and changes the method: a method literal ('POST' → 'PATCH'), axios.post → axios.patch, or the method argument of a wrapper. Request bodies keep their fields; renamed fields are reported by their own rules.`,
    before: `await api('POST', \`/pods/\${podId}/update\`, { name });`,
    after: `await api('PATCH', \`/pods/\${podId}\`, { name });`,
  },
  'path-param': {
    doc: `v1 path templates named their parameter after the resource ({podId}, {endpointId}, {templateId}, {networkVolumeId}, {containerRegistryAuthId}); v2 uses {id} everywhere. This matters for OpenAPI-typed clients (openapi-fetch and similar), route tables and documentation.

Only the template text changes; your own variables keep their names. With an OpenAPI-typed client (openapi-fetch), the params.path key must follow the template ({ path: { id: podId } }) and the client types must be regenerated from the v2 schema.`,
    before: `export const ROUTES = { getPod: \`\${RUNPOD}/pods/{podId}\`, getEndpoint: \`\${RUNPOD}/endpoints/{endpointId}\` };`,
    after: `export const ROUTES = { getPod: \`\${RUNPOD}/pods/{id}\`, getEndpoint: \`\${RUNPOD}/serverless/{id}\` };`,
  },
  'openapi-url': {
    doc: `Typed clients are often generated from https://rest.runpod.io/v1/openapi.json by a script. The codemod points the script at https://api.runpod.io/v2/openapi.json; regenerate the client afterwards, since paths, parameters and bodies differ.`,
    before: `const SCHEMA_URL = 'https://rest.runpod.io/v1/openapi.json';\nconst ast = await openapiTS(new URL(SCHEMA_URL));`,
    after: `const SCHEMA_URL = 'https://api.runpod.io/v2/openapi.json';\nconst ast = await openapiTS(new URL(SCHEMA_URL));`,
  },
  'pod-reset': {
    doc: `v1 POST /pods/{id}/reset has no v2 equivalent: v2 actions are only start, stop, restart and terminate. Nothing is rewritten; the code keeps failing loudly on v2 instead of doing something else quietly.

Decide what reset meant for you: the closest action is restart; a true reset (fresh container) is a stop followed by a start. If this call must stay as it is for now, mark it with // v2-migrate-keep-v1 pod-reset.`,
    before: `await api('POST', \`/pods/\${podId}/reset\`);`,
    after: `// by hand: the closest v2 action\nawait api('POST', \`/pods/\${podId}/action\`, { action: 'restart' });`,
  },
  'unknown-path': {
    doc: `A request on the v1 base uses a path v1 never documented (for example /gpuTypes or /pods/{id}/terminate). v2 has no mapping for it, so nothing is guessed and the code is left as it is.

Check what the call was meant to do and find the v2 route by hand (the v2 OpenAPI document lists them): GPU types are in GET /v2/catalog/gpus, terminating a pod is POST /v2/pods/{id}/action with {"action": "terminate"} or DELETE /v2/pods/{id}.`,
    before: `await api('GET', '/gpuTypes');`,
    after: `// by hand: the v2 catalog\nawait api('GET', '/catalog/gpus?include=AVAILABILITY&product=POD');`,
  },
  'embedded-url': {
    doc: `A v1 URL sits inside a longer string (a shell command, a log or error message, a container start command) or in JSX text. The request it makes cannot be seen from here, so it is not rewritten.

Update it by hand if it makes or documents an API call, applying the same changes as the other rules (base, resource names, per-action paths). If it is only text about v1 that should stay (a changelog, a migration note), mark it with // v2-migrate-keep-v1 or // v2-migrate-ignore.`,
    before: `const cmd = 'curl -X POST https://rest.runpod.io/v1/pods/$POD_ID/stop';`,
    after: `const cmd = 'curl -X POST https://api.runpod.io/v2/pods/$POD_ID/action -H "Content-Type: application/json" -d \\'{"action":"stop"}\\'';`,
  },
  'unresolved-url': {
    doc: `A RunPod-looking path whose base or resource is not known statically: \`\${base}/pods\` where base is a parameter nobody passes in this file, or a path built at run time (\`\${API}/\${kind}\`). It is not rewritten and does not fail lint (severity info).

Look at where the base comes from: if it is the v1 base, the call needs the same changes as the others. Passing the base through a module constant the tool can see lets it migrate the call.`,
    before: `export const list = (base: string, kind: string) => fetch(\`\${base}/\${kind}\`);`,
    after: `// by hand: check that callers pass the v2 base and v2 resource names ('serverless', 'network-volumes')`,
  },
  'parse-error': {
    doc: `The file could not be parsed (a syntax error, or syntax the parser does not support), so it was neither analysed nor changed, and the run went on. Fix the syntax error, or migrate any RunPod v1 calls in the file by hand.`,
    before: `const x = 'https://rest.runpod.io/v1' +;`,
    after: `const x = 'https://api.runpod.io/v2';`,
  },
  'skipped-file': {
    doc: `The file mentions a RunPod host but looks binary, is not valid UTF-8, or could not be read, so it was not analysed and is never written. Convert it to UTF-8 and run again, or migrate it by hand.`,
    before: `(a Latin-1 encoded file containing https://rest.runpod.io/v1/pods)`,
    after: `(the same file saved as UTF-8: v2-migrate then analyses and rewrites it)`,
  },
  'internal-error': {
    doc: `v2-migrate failed on this file, or its rewrite would not parse, so the file was left unchanged. This is a bug in the tool: please report it with a minimal file that shows it. Meanwhile migrate the file by hand, or mark it with // v2-migrate-ignore-file to take it out of the gate.`,
    before: `(a file on which v2-migrate failed)`,
    after: `(unchanged: migrate by hand)`,
  },
};

/** The rule's doc, falling back to its one-line summary for a rule documented nowhere else yet. */
export function ruleDoc(id: RuleId): RuleDoc {
  return RULE_DOCS[id] ?? { doc: RULES[id].summary, before: '', after: '' };
}

/** Rule ids without a long doc (a test keeps this empty). */
export function undocumentedRules(): RuleId[] {
  return RULE_IDS.filter((id) => !RULE_DOCS[id]);
}

/** Edit distance, for "did you mean" on an unknown id. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]![b.length]!;
}

/** The closest rule id to a mistyped one, if any is close. */
export function closestRuleId(input: string): RuleId | null {
  let best: RuleId | null = null;
  let bestD = Infinity;
  for (const id of RULE_IDS) {
    const dist = distance(input.toLowerCase(), id);
    if (dist < bestD) [best, bestD] = [id, dist];
  }
  return bestD <= Math.max(2, Math.floor(input.length / 3)) ? best : null;
}

/** `explain` as plain text. */
export function explainText(id: RuleId): string {
  const rule = RULES[id];
  const d = ruleDoc(id);
  const indent = (s: string) => s.split('\n').map((l) => `    ${l}`).join('\n');
  const out = [`${id}  (${rule.severity}, ${rule.fixable ? 'fixable: the codemod rewrites it' : 'not fixable: needs a person'})`, '', rule.summary, '', d.doc];
  if (d.before) out.push('', 'Before:', indent(d.before));
  if (d.after) out.push('', rule.fixable ? 'After (v2-migrate writes):' : 'After (by hand):', indent(d.after));
  return out.join('\n') + '\n';
}

/** `explain` as Markdown (also the SARIF rule help). */
export function explainMarkdown(id: RuleId, heading = '##'): string {
  const rule = RULES[id];
  const d = ruleDoc(id);
  const out = [`${heading} \`${id}\``, '', `Severity: **${rule.severity}** · ${rule.fixable ? 'fixable (the codemod rewrites it)' : 'not fixable (needs a person)'}`, '', rule.summary, '', d.doc];
  if (d.before) out.push('', 'Before:', '', '```ts', d.before, '```');
  if (d.after) out.push('', rule.fixable ? 'After (v2-migrate writes):' : 'After (by hand):', '', '```ts', d.after, '```');
  return out.join('\n') + '\n';
}
