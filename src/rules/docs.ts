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
    doc: `REST v1 (https://rest.runpod.io/v1) was retired on 2026-11-15: every request to it fails. The codemod rewrites the base to https://api.runpod.io/v2 (or --base-url) wherever it appears as the base of a URL: string and template literals, constants, a client's base option (axios baseURL, ky/got prefixUrl, ofetch baseURL, also given to a client factory the tool does not know), and env-var defaults such as process.env.X ?? '…'.

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

The codemod rewrites the path and adds the body in the form the client takes: body: JSON.stringify({ action }) for fetch, data for axios-like clients, json for ky and got, body for ofetch, the body argument of your own wrapper. Where the call builds its headers by hand it adds Content-Type: application/json, since v2 requires a JSON body.`,
    before: `await fetch(\`\${BASE}/pods/\${id}/stop\`, { method: 'POST', headers: { Authorization: \`Bearer \${key}\` } });`,
    after: `await fetch(\`\${BASE}/pods/\${id}/action\`, { method: 'POST', headers: { Authorization: \`Bearer \${key}\`, 'Content-Type': 'application/json' }, body: JSON.stringify({ action: 'stop' }) });`,
  },
  'update-alias': {
    doc: `v1 accepted POST …/{id}/update as an alias for updating pods, endpoints, templates and network volumes. v2 removed the alias: updates are PATCH on the resource itself.

The codemod drops the /update segment and changes the method: a method literal ('POST' → 'PATCH'), the member called (api.post → api.patch), or the method argument of a wrapper. Request bodies keep their fields; renamed fields are reported by their own rules.`,
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
  'body-field': {
    doc: `v2 request bodies differ from v1: fields are renamed (imageName → image, containerDiskInGb → disk, cloudType → cloud, containerRegistryAuthId → registry, isServerless → serverless, isPublic → public), nested (gpuTypeIds: [one] + gpuCount → gpu: { id, count }; volumeInGb + volumeMountPath → mounts.persistent { size, path }; endpoint workersMin/workersMax/idleTimeout → workers { min, max, idleTimeout }; scalerType/scalerValue → scaling; endpoint gpuTypeIds → gpu { pools, excludedTypes } through RunPod's documented pool table and the config's gpuPools) or re-typed (dockerStartCmd argv → one args string, shell-quoted; endpoint flashboot: true → "FLASHBOOT").

The codemod rewrites object-literal bodies in place, keeping comments and the other fields. v2 rejects unknown fields with 422, so a missed rename fails loudly rather than quietly. Fields it cannot map safely are reported by removed-field, v1-default or opaque-body instead.`,
    before: `body: JSON.stringify({ name: 'trainer', imageName: 'acme/trainer:2', containerDiskInGb: 40, gpuTypeIds: ['NVIDIA A100 80GB PCIe'], gpuCount: 1, volumeInGb: 100, volumeMountPath: '/data' })`,
    after: `body: JSON.stringify({ name: 'trainer', image: 'acme/trainer:2', disk: 40, gpu: { id: 'NVIDIA A100 80GB PCIe', count: 1 }, mounts: { persistent: { size: 100, path: '/data' } } })`,
  },
  'removed-field': {
    doc: `A v1 body field has no v2 equivalent: GPU fallback lists (gpuTypeIds with several types, gpuTypePriority), interruptible, countryCodes, the machine floors (minRAMPerGPU, minVCPUPerGPU, minDownloadMbps, …), dockerEntrypoint, several CPU flavors on one pod, endpoint GPU type names in neither RunPod's pool table nor the config's gpuPools, and others. Dropping it would silently change what your infrastructure does, so the field stays (v2 rejects it with 422) and a TODO comment says what to do instead.

Typical decisions: pick one GPU type, or rebuild the fallback as a client loop over GET /v2/catalog/gpus?include=AVAILABILITY&product=POD; replace countryCodes with dataCenterIds from the catalog; add the endpoint GPU types the pool table lacks to the config's gpuPools (pool ids: GET /v2/catalog/gpus, field pool).`,
    before: `body: JSON.stringify({ name: 'dev', imageName: 'acme/dev', gpuTypeIds: ['NVIDIA RTX A4000', 'NVIDIA RTX A4500'] })`,
    after: `// by hand: one GPU type per v2 pod (or a client loop over the GPU catalog)\nbody: JSON.stringify({ name: 'dev', image: 'acme/dev', gpu: { id: 'NVIDIA RTX A4000', count: 1 } })`,
  },
  'dropped-field': {
    doc: `A v1 body field that v2 no longer has and that carries no behaviour (the template readme): the codemod removes it, since v2 would reject the request with 422 otherwise. Keep the text elsewhere if you still need it.`,
    before: `await api('POST', '/templates', { name: 'worker', imageName: image, readme: '# Worker' });`,
    after: `await api('POST', '/templates', { name: 'worker', image: image });`,
  },
  'v1-default': {
    doc: `A v1 create relied on a default that v2 does not apply: pods got ports ["8888/http", "22/tcp"] and a 20 GB persistent volume at /workspace, and a pod without a name was called "my pod" (v2 requires name). The migrated request is valid but creates something different.

Write the values out if you relied on them; with the config's preserveV1Defaults the codemod writes them for you.`,
    before: `await api('POST', '/pods', { name: 'dev', imageName: 'acme/dev', gpuTypeIds: ['NVIDIA L4'] });`,
    after: `await api('POST', '/pods', { name: 'dev', image: 'acme/dev', gpu: { id: 'NVIDIA L4', count: 1 }, ports: ['8888/http', '22/tcp'], mounts: { persistent: { size: 20, path: '/workspace' } } });`,
  },
  'opaque-body': {
    doc: `The request's body is not an object literal the tool can see (a function parameter, a function result) and no generated adapter can take it (adapters are off, or the file is CommonJS), so its v1 fields cannot be rewritten. The request moves to v2 with its body as it is (v2 answers a v1 field with a 422 naming it) and a TODO; the message names the v1 fields to look for. Migrate the object where it is built, or build the body in the call so the codemod can rewrite it.`,
    before: `export const createPod = (spec: PodSpec) => api('POST', '/pods', spec);`,
    after: `// TODO(v2-migrate opaque-body): its body is built where v2-migrate cannot see it, …: build the v2 body by hand (renamed: imageName → image, …)\nexport const createPod = (spec: PodSpec) => api('POST', '/pods', spec);`,
  },
  'body-adapter': {
    doc: `The request's body is built at run time (a tool's validated input, a spread of another object, a record filled in a loop), so no literal can be rewritten. The codemod wraps the body in a call to a generated adapter and writes the adapter once into the project (runpod-v2-adapters.ts, or .mjs for JavaScript; config "adapters": { "file": … } moves it, "adapters": false turns this off and holds such requests on v1 instead). The adapter renames and nests the v1 fields exactly as the static rewrite does, passes v2 fields through, and throws an Error naming the field and what to do for a field v2 has no place for, and for any value v2 would reject in the body it built (a required field missing, a value outside its enum, a string where v2 takes a number, two fields v2 takes only one of), so a body v2 would reject fails loudly before it is sent. After the write the finding stays on the call as a reminder: once the code builds v2 bodies itself, replace the call by the body and delete the adapter file.`,
    before: `server.tool('create-pod', schema, async (params) => request('/pods', 'POST', params));`,
    after: `import { toV2CreatePodBody } from './runpod-v2-adapters.js';\nserver.tool('create-pod', schema, async (params) => request('/pods', 'POST', toV2CreatePodBody(params)));`,
  },
  'v2-schema': {
    doc: `After rewriting, the body is still rejected by the v2 schema (a value below a minimum, a field the migration map does not know, a wrong type). The codemod migrates what the map knows all the same and leaves the rest as it is, with a TODO: v2 answers such a request with a 422 that names the problem, which is louder than v1's 410 and never does something else. Fix the value by hand.`,
    before: `body: JSON.stringify({ name: 'scratch', size: 5, dataCenterId })`,
    after: `// TODO(v2-migrate v2-schema): The migrated CreateNetworkVolume body is still rejected by the v2 schema (size: Too small: expected number to be >=10): …\nbody: JSON.stringify({ name: 'scratch', size: 5, dataCenter: dataCenterId })`,
  },
  'openapi-types': {
    doc: `An openapi-fetch client (createClient<paths>({ baseUrl })) whose paths type was generated from the v1 schema (https://rest.runpod.io/v1/openapi.json). The codemod migrates its requests to the v2 schema's form: baseUrl becomes https://api.runpod.io, each path template gets the /v2 prefix and the v2 resource names, path parameters become {id} (params.path keys too), /start|stop|restart become /action with a body, and POST …/update becomes PATCH. The generated types must be regenerated from https://api.runpod.io/v2/openapi.json (the schema URL in your generator script is rewritten by openapi-url); the type checker then shows every response field and body that changed.`,
    before: `const client = createClient<paths>({ baseUrl: 'https://rest.runpod.io/v1' });\nawait client.GET('/pods/{podId}', { params: { path: { podId } } });`,
    after: `const client = createClient<paths>({ baseUrl: 'https://api.runpod.io' });\nawait client.GET('/v2/pods/{id}', { params: { path: { id: podId } } });\n// then: npx openapi-typescript https://api.runpod.io/v2/openapi.json -o src/runpod.d.ts`,
  },
  'todo-comment': {
    doc: `Where the codemod changed code but a person must finish it (a reset with no v2 equivalent, a body field with no v2 place, a v1 default v2 no longer applies), it writes a \`// TODO(v2-migrate <rule>): …\` comment (\`#\` in Python, shell and YAML) saying what to do, one per thing to do. lint reports each under the rule it names (a reset's TODO as pod-reset, with that rule's severity), so a CI gate does not go green just because the codemod ran; a \`// TODO(v2-migrate): …\` an older run wrote, naming no rule, is reported as todo-comment. Where lint finds the same thing again on the v2 code (a reset on the v2 host), it reports it once. Do what it says, then delete the comment. Markdown files are not scanned (docs quote such comments).`,
    before: `// TODO(v2-migrate pod-reset): v2 has no pod reset. Closest is the restart action; a true reset is stop then start.\nawait api('POST', \`/pods/\${podId}/reset\`);`,
    after: `await api('POST', \`/pods/\${podId}/action\`, { action: 'restart' });`,
  },
  'pod-reset': {
    doc: `v1 POST /pods/{id}/reset has no v2 equivalent: v2 actions are only start, stop, restart and terminate. The request moves to v2 with its base, its path as it was, and a TODO above it: v2 answers it 404, so it keeps failing loudly instead of doing something else quietly, and it never keeps the requests beside it on the retired v1 API.

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
  'dynamic-path': {
    doc: `A request on the v1 base whose path is built at run time (\`\${API}/pods\${query}\`, \`\${API}/\${kind}\`, a helper that joins segments): which v1 operation it is, and so its v2 form, cannot be decided statically. It is an error because the call is broken today (v1 is retired).

Migrate it by hand: the resource renames (/endpoints → /serverless, /networkvolumes → /network-volumes, /containerregistryauth → /registries, /billing/endpoints → /billing/serverless), /start|stop|restart → /action with a body, and …/update → PATCH may apply. While it is unmigrated it stays on v1 (which answers 410: it fails loudly instead of sending v2 a request whose answer nobody decided). Where its own call reads a base other requests share, that read becomes the v1 base written out, with a TODO, and the base moves to v2 with the others; where the base is read inside a wrapper every request goes through, the base stays v1 with it.`,
    before: `export const list = (query: string) => fetch(\`\${API}/pods\${query}\`);`,
    after: `// by hand, e.g. v2 ignores the v1 list filters in query: filter on the client\nexport const list = async () => (await (await fetch(\`\${API}/pods\`)).json()).pods;`,
  },
  'unresolved-url': {
    doc: `A RunPod-looking path whose base or resource is not known statically: \`\${base}/pods\` where base is a parameter nobody passes in this file, or a path built at run time (\`\${API}/\${kind}\`). It is not rewritten and does not fail lint (severity info).

Look at where the base comes from: if it is the v1 base, the call needs the same changes as the others. Passing the base through a module constant the tool can see lets it migrate the call.`,
    before: `export const list = (base: string, kind: string) => fetch(\`\${base}/\${kind}\`);`,
    after: `// by hand: check that callers pass the v2 base and v2 resource names ('serverless', 'network-volumes')`,
  },
  'graphql-operation': {
    doc: `A RunPod GraphQL operation (https://api.runpod.io/graphql) that now has a REST v2 route: podFindAndDeployOnDemand → POST /v2/pods, podResume/podStop → POST /v2/pods/{id}/action, podTerminate → DELETE /v2/pods/{id}, saveEndpoint → POST/PATCH /v2/serverless, saveTemplate → POST/PATCH /v2/templates, gpuTypes/lowestPrice → GET /v2/catalog/gpus. GraphQL keeps working and is never rewritten (its field names are GraphQL's, not REST's); this is inventory for planning. Secrets, account identity (myself) and spot pods stay on GraphQL.`,
    before: `await gql(\`mutation { podStop(input: { podId: "\${id}" }) { id desiredStatus } }\`);`,
    after: `// optional, by hand: the REST v2 route\nawait api('POST', \`/pods/\${id}/action\`, { action: 'stop' });`,
  },
  'list-envelope': {
    doc: `REST v1 list endpoints returned a bare array; v2 returns an object with the list under one key: { pods } for GET /v2/pods, { endpoints } for GET /v2/serverless, { templates }, { networkVolumes } and { registries }. Code that iterates, filters or indexes the parsed body would fail or iterate the wrong thing.

The codemod unwraps the list where the body is parsed, so the rest of the code still sees an array: (await res.json()).pods, .then((body) => body.pods) after a .then(r => r.json()) chain, res.data.pods and { data: { pods: data } } for axios-like clients, (await api.get('pods').json()).pods for ky and got, (await ofetch('/pods')).pods for ofetch. When the body is parsed inside a wrapper shared by several requests, the unwrap goes at the wrapper's caller for this request, never inside the shared wrapper. A body typed unknown is cast to the envelope first ((body as { pods: unknown }).pods), and one declared with a type that has no such key is reported. Code that already reads .pods (handles both shapes) is left alone. When the response leaves what the tool can follow (returned from an exported function nobody in the file calls, passed to an unknown function before parsing) it is reported as a warning instead. So is a list URL handed, as it is or through a constant, to a call the tool does not understand as a request (an injected fetchImpl, a helper's parameter) whose value the code uses and which names no other method: the URL moves to v2, and the warning at it says where the wrapped list must be read.`,
    before: `const res = await fetch(\`\${API}/pods\`, { headers });\nfor (const pod of await res.json()) console.log(pod.id);`,
    after: `const res = await fetch(\`\${API}/pods\`, { headers });\nfor (const pod of (await res.json()).pods) console.log(pod.id);`,
  },
  'billing-records': {
    doc: `REST v1 billing (GET /billing/pods, /billing/endpoints, /billing/networkvolumes) returned a bare array of records with amount and time. v2 returns { records, metadata } (totals in metadata.totals); a record's money is totalAmount (with gpuAmount, diskAmount, … next to it) and its bucket is [startTime, endTime).

The codemod unwraps .records where the body is parsed and renames amount → totalAmount, time → startTime (and endpointId → serverlessId on serverless records) where the records are provably read. Query parameters: endpointId on serverless billing is serverlessId in v2 (renamed where written literally: a query string, a client's query option such as axios params, a URLSearchParams literal); grouping, gpuTypeId, dataCenterId, imageName and templateId are gone and are reported: v2 silently ignores them.`,
    before: `const res = await fetch(\`\${API}/billing/endpoints?endpointId=\${id}\`, { headers });\nconst records = await res.json();\nconst total = records.reduce((sum, r) => sum + r.amount, 0);`,
    after: `const res = await fetch(\`\${API}/billing/serverless?serverlessId=\${id}\`, { headers });\nconst records = (await res.json()).records;\nconst total = records.reduce((sum, r) => sum + r.totalAmount, 0);`,
  },
  'query-filter': {
    doc: `REST v1 list endpoints filtered on query parameters (desiredStatus, computeType, gpuTypeId, name, templateId, includeMachine, …; include* flags on endpoints and templates). GET /v2/pods takes only includeClusterPods and ignores anything else, so a v1 filter silently returns everything: code that expected only running pods now gets all of them.

Where the parameter's value and the place the list is unwrapped are both visible, the codemod takes the parameter out of the request and filters the unwrapped list on the client, naming the v2 field: desiredStatus=RUNNING becomes .pods.filter((pod) => pod.status === 'RUNNING') (v2 status is the observed state), gpuTypeId becomes pod.gpu?.id, templateId becomes pod.template. Where the query is only known at run time (a URLSearchParams filled from input, an axios params object passed in), it goes through v2ListQuery(operation, query), a guard generated into the adapter file that hands the query back when it carries no such filter and throws, naming it, when it does. Written in the URL itself where the list cannot be filtered, the request keeps its base on v1. Flags that only added data to each item (includeMachine, includeTemplate, …) change no item: they are reported, and reads of that data get response-field findings. Parameters are found in literal query strings, URLSearchParams (object literal, .set, .append) and client query options (axios params, ky/got searchParams, ofetch query, openapi-fetch params.query).`,
    before: `const res = await fetch(\`\${API}/pods?desiredStatus=RUNNING\`, { headers });\nconst running = await res.json();`,
    after: `const res = await fetch(\`\${API}/pods\`, { headers });\nconst running = (await res.json()).pods.filter((p) => p.status === 'RUNNING');`,
  },
  'error-shape': {
    doc: `REST v1 errors were { "message": … } (some endpoints answered { "error": …, "status": … }). v2 errors are RFC 9457 problem details (application/problem+json): { title, status, detail, errors? }, where errors lists the offending properties of a rejected request.

The codemod renames .message to .detail where the body is certainly a RunPod error body: parsed in a !res.ok (or status >= 400) branch of a RunPod fetch, or parsed before such a test and read where it says the response failed, or err.response.data of an axios call awaited alone in its try block (or in its .catch). Reads of .error, error bodies passed on to other code or thrown, and .error checks on unchecked bodies are reported: v2 signals errors with the HTTP status.

A stand-in for a body that is not JSON (res.json().catch(() => ({ message: res.statusText })), … || { message }, … ?? {}, body = { message } in a catch) changes with the read: its message key becomes detail too, or, where its keys are not written there (a constant, a function's result, a spread), neither changes and the read is reported.`,
    before: `if (!res.ok) {\n  const err = await res.json();\n  throw new Error(err.message);\n}`,
    after: `if (!res.ok) {\n  const err = await res.json();\n  throw new Error(err.detail);\n}`,
  },
  'response-field': {
    doc: `Code reads a REST v1 response field that v2 renamed, moved or dropped: pod desiredStatus (intent) is status (observed: a wait loop must also handle ERROR); costPerHr and adjustedCostPerHr are cost; imageName and containerDiskInGb are image and disk; publicIp and portMappings are runtime.ports; networkVolume is mounts.network; machine and machineId are gone; endpoint workersMin/workersMax and scalerType are workers.min/max and scaling.type; a network volume's dataCenterId is dataCenter. The request may migrate cleanly while this code quietly reads undefined.

In JavaScript and TypeScript the codemod renames the read where the object is provably a RunPod response of that resource: the parsed body of a GET (or create/update) of it, or an item of a listed array reached through for…of, .map/.filter/.find/.forEach/.some/.reduce callbacks or an index. Renaming desiredStatus to status changes meaning (intent vs observed), and the finding says so. Fields that moved into another shape, reads inside helpers other code also calls, and reads that are only likely (a v1 field name in a file that calls the RunPod API, a value typed Pod) are reported. Other engines (Python, shell) report only.

Where the answer itself leaves the code the tool follows as it is (returned from a function nothing in the run calls, handed to NextResponse.json or a framework's res.json/res.send, turned into JSON text for an MCP client, printed, stored in an object), whoever reads it now gets the v2 shape: a warning there names every v1 field of that resource v2 changed (field "desiredStatus" is "status", …), or says that a pod action, which answered {} in v1, now answers the pod. Where the readers are in the run, their reads are followed instead.

The rewritten read must still compile and must not throw where the v1 read did not, so its form follows the type the value is declared with: ep.workers?.min on an untyped or any value, (ep.workers as { min?: unknown } | undefined)?.min on a Record<string, unknown>, ep.workers.min only where the declared type has a required workers.min. A type the response is declared with (a type argument, a cast, an annotation, a function's return type; named or inline, in this file or another of the run) changes with its reads: a member v2 renamed (TemplateInfo.imageName, VolumeInfo.dataCenterId) is renamed together with the reads through it, or, when one of those reads cannot change, neither is; a member v2 nested, moved or dropped is reported where it is declared. A read through a type the tool cannot see is reported: update the type, then the read.`,
    before: `const pods = await api('GET', '/pods');\nconst running = pods.filter((p) => p.desiredStatus === 'RUNNING');`,
    after: `const pods = (await api('GET', '/pods')).pods;\nconst running = pods.filter((p) => p.status === 'RUNNING');`,
  },
  'other-language': {
    doc: `A REST v1 URL in code of a language v2-migrate does not read: a Go or PHP service, a PowerShell script, a notebook (the extensions are listed in the README). The tool neither rewrites nor follows such code, so it cannot tell what the request needs; it lists each v1 base URL outside comments, with what v2 has for the path it is written with, so \`lint\` cannot pass while the file still calls v1. It is an error because the call is broken today (v1 is retired).

Migrate it by hand with the same changes the other rules make (base, resource names, per-action paths, PATCH for updates, list envelopes), or mark the line with the language's comment (\`// v2-migrate-keep-v1\`, \`# v2-migrate-ignore\`) if it must stay.`,
    before: `// pods.go\nresp, err := http.Post("https://rest.runpod.io/v1/pods/"+id+"/stop", "application/json", nil)`,
    after: `// pods.go, by hand\nresp, err := http.Post("https://api.runpod.io/v2/pods/"+id+"/action", "application/json", strings.NewReader(\`{"action":"stop"}\`))`,
  },
  'prose-url': {
    doc: `Documentation prose (outside code blocks) mentions a REST v1 URL or path. It is reported for a person and never rewritten: a sentence may describe history on purpose. Update it if it tells readers how to call the API today, or mark it with <!-- v2-migrate-keep-v1 --> (or <!-- v2-migrate-ignore -->) if it should stay.`,
    before: `List your pods with GET https://rest.runpod.io/v1/pods.`,
    after: `List your pods with GET https://api.runpod.io/v2/pods (the response is { "pods": [...] }).`,
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
  'malformed-config': {
    doc: `A file that governs a folder of the run cannot be used: a package.json or v2-migrate.config.json that does not parse (the finding names the parser's message and points at the place), a "v2-migrate" config that fails validation, or a .gitignore that cannot be read. The run does not stop: the folder is analysed as if the file were not there (a broken config gives way to the config above it, or the defaults; a broken .gitignore excludes nothing).

A v2-migrate config is always reported; another file only when the folder it governs holds code that mentions RunPod, where the settings it might have held could change the result. Only the config the run starts from (the one found from the first path upwards, or --config) stops the run with exit 2. Fix the file, or, when it is malformed on purpose (a parser's test fixture), turn the rule off.`,
    before: `packages/parser/test/fixtures/broken/package.json: { name: "no quotes" }`,
    after: `"rules": { "malformed-config": "off" }   (in the root v2-migrate.config.json, when the file is broken on purpose)`,
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
