/**
 * What changed in REST responses and query parameters between v1 and v2 (MIGRATION.md §5–§6,
 * shapes checked against runpod-v2.openapi.json): list envelopes, billing records, v1-only response
 * fields, list filters v2 ignores, billing parameters dropped or renamed, and the error body. Plain
 * data: the JS engine's response rules read it, and nothing here knows about syntax.
 */

/** The kinds of object a v1 response hands back, one per v1 schema. */
export type ItemKind = 'pod' | 'endpoint' | 'template' | 'networkVolume' | 'registry' | 'podBilling' | 'serverlessBilling' | 'networkVolumeBilling';

export interface ListEnvelope {
  /** The key v2 puts the list under (`GET /v2/pods` → `{ pods: [...] }`). */
  key: string;
  item: ItemKind;
  /** The rule that reports the unwrap: billing has its own. */
  rule: 'list-envelope' | 'billing-records';
  /** v2 schema of the response object (for messages). */
  v2Schema: string;
}

/** v1 operations that returned a bare array, by operation id. */
export const LIST_ENVELOPES: Readonly<Record<string, ListEnvelope>> = {
  ListPods: { key: 'pods', item: 'pod', rule: 'list-envelope', v2Schema: 'ListPodsResponse' },
  ListEndpoints: { key: 'endpoints', item: 'endpoint', rule: 'list-envelope', v2Schema: 'ListEndpointsResponse' },
  ListTemplates: { key: 'templates', item: 'template', rule: 'list-envelope', v2Schema: 'ListTemplatesResponse' },
  ListNetworkVolumes: { key: 'networkVolumes', item: 'networkVolume', rule: 'list-envelope', v2Schema: 'ListNetworkVolumesResponse' },
  ListContainerRegistryAuths: { key: 'registries', item: 'registry', rule: 'list-envelope', v2Schema: 'ListRegistriesResponse' },
  PodBilling: { key: 'records', item: 'podBilling', rule: 'billing-records', v2Schema: 'ListPodBillingResponse' },
  EndpointBilling: { key: 'records', item: 'serverlessBilling', rule: 'billing-records', v2Schema: 'ListServerlessBillingResponse' },
  NetworkVolumeBilling: { key: 'records', item: 'networkVolumeBilling', rule: 'billing-records', v2Schema: 'ListNetworkVolumeBillingResponse' },
};

/** v1 operations whose response is one object (GET, create, update), by operation id. */
export const SINGLE_RESPONSES: Readonly<Record<string, ItemKind>> = {
  GetPod: 'pod',
  CreatePod: 'pod',
  UpdatePod: 'pod',
  GetEndpoint: 'endpoint',
  CreateEndpoint: 'endpoint',
  UpdateEndpoint: 'endpoint',
  GetTemplate: 'template',
  CreateTemplate: 'template',
  UpdateTemplate: 'template',
  GetNetworkVolume: 'networkVolume',
  CreateNetworkVolume: 'networkVolume',
  UpdateNetworkVolume: 'networkVolume',
  GetContainerRegistryAuth: 'registry',
  CreateContainerRegistryAuth: 'registry',
};

/**
 * v1 operations that answered an empty object (`{}`) where their v2 form answers the resource:
 * the pod actions (POST /v2/pods/{id}/action answers the pod).
 */
export const EMPTY_IN_V1: Readonly<Record<string, ItemKind>> = {
  StartPod: 'pod',
  StopPod: 'pod',
  RestartPod: 'pod',
};

/** Words for messages. */
export const ITEM_NAMES: Readonly<Record<ItemKind, string>> = {
  pod: 'pod',
  endpoint: 'serverless endpoint',
  template: 'template',
  networkVolume: 'network volume',
  registry: 'registry credential',
  podBilling: 'pod billing record',
  serverlessBilling: 'serverless billing record',
  networkVolumeBilling: 'network volume billing record',
};

/**
 * - rename: same value under a new name (`desiredStatus` → `status`): fixable on a read of a provable response
 * - nest: same value one object down (`workersMin` → `workers.min`, the parent always present): fixable on a member read
 * - moved: the data lives elsewhere in another shape (`publicIp` → `runtime.ports[].ip`): reported
 * - gone: v2 has no such field: reported
 */
export type FieldFate = { kind: 'rename'; to: string } | { kind: 'nest'; to: string } | { kind: 'moved'; to: string } | { kind: 'gone' };

export interface ResponseField {
  /** The field's name, or its path under another field of the object (`gpu.displayName`). */
  field: string;
  items: readonly ItemKind[];
  fate: FieldFate;
  /** One sentence for the user. */
  note: string;
  /**
   * The name is specific enough to report wherever a file that talks to RunPod reads it
   * (`desiredStatus`); generic names (`version`, `amount`, `template`) and names v1 request bodies use
   * too (`imageName`, `workersMin`: a config object may carry them) only count on a provable response.
   */
  distinctive: boolean;
}

const f = (field: string, items: readonly ItemKind[], fate: FieldFate, note: string, distinctive = true): ResponseField => ({ field, items, fate, note, distinctive });
const rename = (to: string): FieldFate => ({ kind: 'rename', to });
const nest = (to: string): FieldFate => ({ kind: 'nest', to });
const moved = (to: string): FieldFate => ({ kind: 'moved', to });
const gone: FieldFate = { kind: 'gone' };

/** The items of the billing responses (their findings are billing-records, not response-field). */
export const BILLING: readonly ItemKind[] = ['podBilling', 'serverlessBilling', 'networkVolumeBilling'];

/** v1 response fields that v2 renamed, moved or dropped (MIGRATION.md §5; v1 and v2 schemas). */
export const RESPONSE_FIELDS: readonly ResponseField[] = [
  // Pods.
  f('desiredStatus', ['pod'], rename('status'), 'v1 `desiredStatus` was the intent (RUNNING/EXITED/TERMINATED); v2 `status` is the observed state (PROVISIONING/STARTING/RUNNING/EXITED/ERROR/TERMINATED), so the meaning changes: a wait loop must also handle ERROR or it can wait forever'),
  f('costPerHr', ['pod'], rename('cost'), 'v2 reports the hourly cost as `cost` (0 when EXITED or TERMINATED)'),
  f('adjustedCostPerHr', ['pod'], rename('cost'), 'v2 reports the hourly cost as `cost` (0 when EXITED or TERMINATED); there is no separate savings-plan-adjusted figure'),
  f('imageName', ['pod', 'template'], rename('image'), 'renamed', false),
  f('containerDiskInGb', ['pod', 'template'], rename('disk'), 'renamed (still GB)', false),
  f('templateId', ['pod'], rename('template'), 'a v2 pod carries the id of its template as `template`', false),
  f('containerRegistryAuthId', ['pod', 'template'], rename('registry'), 'the registry credential id is `registry` in v2', false),
  f('lastStartedAt', ['pod'], rename('startedAt'), 'renamed (null when the pod never started)'),
  f('machine', ['pod'], gone, 'v2 pods only report `dataCenterId` (and `cudaVersion`)', false),
  f('machineId', ['pod'], gone, 'v2 pods only report `dataCenterId` (and `cudaVersion`)'),
  f('publicIp', ['pod'], moved('runtime.ports[].ip'), 'ports are `runtime.ports[] { private, public, type, ip }` in v2, and `runtime` is null unless the pod is RUNNING'),
  f('portMappings', ['pod'], moved('runtime.ports'), 'the `{ "22": 10341 }` map is the list `runtime.ports[] { private, public, type, ip }` in v2, and `runtime` is null unless the pod is RUNNING'),
  f('networkVolume', ['pod'], moved('mounts.network'), 'an attached network volume is `mounts.network[] { volumeId, path }` in v2 (read the volume itself with GET /v2/network-volumes/{id})'),
  f('networkVolumeId', ['pod'], moved('mounts.network[].volumeId'), 'an attached network volume is `mounts.network[] { volumeId, path }` in v2', false),
  f('uptimeInSeconds', ['pod'], moved('runtime.uptime'), 'REST v1 pods never had it (it is GraphQL `runtime.uptimeInSeconds`); v2 pods report `runtime.uptime` in seconds, and `runtime` is null unless the pod is RUNNING'),
  f('lastStatusChange', ['pod'], gone, 'v2 reports `status` and `startedAt`', false),
  f('memoryInGb', ['pod'], moved('cpu.memory'), 'CPU pods report memory as `cpu.memory` (GB); GPU pods have no memory field', false),
  f('dockerStartCmd', ['pod', 'template'], moved('args'), 'v2 reports the start command as one string, `args`', false),
  f('volumeInGb', ['pod', 'template'], moved('mounts.persistent.size'), 'the volume is `mounts.persistent { size, path }` in v2', false),
  f('volumeMountPath', ['pod', 'template'], moved('mounts.persistent.path'), 'the volume is `mounts.persistent { size, path }` (or `mounts.network[].path`) in v2', false),
  f('dockerEntrypoint', ['pod', 'template'], gone, 'v2 has no entrypoint override; the start command is `args`', false),
  // The v1 pod's `gpu` object also carried the GPU type's name and prices; v2's is `{ id, count }`.
  ...['displayName', 'securePrice', 'communityPrice', 'secureSpotPrice', 'communitySpotPrice', 'oneWeekPrice', 'oneMonthPrice', 'threeMonthPrice', 'sixMonthPrice'].map((name) =>
    f(`gpu.${name}`, ['pod'], moved('GET /v2/catalog/gpus'), 'a v2 pod\'s `gpu` is `{ id, count }`: the GPU type\'s name and prices are in the catalog (GET /v2/catalog/gpus, by `gpu.id`)'),
  ),
  // Serverless endpoints.
  f('workersMin', ['endpoint'], nest('workers.min'), 'nested under `workers`', false),
  f('workersMax', ['endpoint'], nest('workers.max'), 'nested under `workers`', false),
  f('idleTimeout', ['endpoint'], moved('workers.idleTimeout'), '`workers.idleTimeout` in v2, omitted for REQUEST_COUNT scaling', false),
  f('scalerType', ['endpoint'], nest('scaling.type'), 'nested under `scaling`', false),
  f('scalerValue', ['endpoint'], moved('scaling.queueDelay'), '`scaling.queueDelay` or `scaling.requestCount`, depending on `scaling.type`', false),
  f('executionTimeoutMs', ['endpoint'], rename('timeout'), 'renamed (still milliseconds)', false),
  f('template', ['endpoint'], gone, 'there is no embedded template: the container settings (`image`, `env`, `disk`, …) are on the endpoint itself', false),
  f('templateId', ['endpoint'], gone, 'the container settings (`image`, `env`, `disk`, …) are on the endpoint itself', false),
  f('version', ['endpoint'], gone, 'versions are releases in v2: GET /v2/serverless/{id}/releases', false),
  f('workers', ['endpoint'], moved('GET /v2/serverless/{id}/workers'), 'v2 `workers` is the scaling settings `{ min, max, idleTimeout }`; the running workers are listed by GET /v2/serverless/{id}/workers', false),
  f('gpuTypeIds', ['endpoint'], moved('gpu.pools'), 'serverless GPUs are pool ids under `gpu.pools` (`gpu` is null for CPU endpoints)', false),
  f('networkVolumeIds', ['endpoint'], rename('networkVolumes'), 'the list of volume ids is `networkVolumes` in v2', false),
  f('networkVolumeId', ['endpoint'], moved('networkVolumes'), 'the volume ids are the list `networkVolumes` in v2', false),
  f('instanceIds', ['endpoint'], gone, 'v2 endpoints do not list instances; see GET /v2/serverless/{id}/workers', false),
  f('computeType', ['endpoint'], moved('gpu'), 'a GPU endpoint carries `gpu`; a CPU endpoint has `gpu: null` and carries `cpu`', false),
  f('gpuCount', ['endpoint'], moved('gpu.count'), 'GPUs per worker are `gpu.count` (`gpu` is null for CPU endpoints)', false),
  f('allowedCudaVersions', ['endpoint'], moved('gpu.allowedCudaVersions'), 'CUDA constraints are under `gpu` (null for CPU endpoints)', false),
  f('minCudaVersion', ['endpoint'], moved('gpu.minCudaVersion'), 'CUDA constraints are under `gpu` (null for CPU endpoints)', false),
  f('userId', ['endpoint'], gone, 'v2 endpoints do not name their owner', false),
  // Templates.
  f('isServerless', ['template'], rename('serverless'), 'renamed', false),
  f('isPublic', ['template'], rename('public'), 'renamed', false),
  f('readme', ['template'], gone, 'v2 templates have no readme', false),
  f('isRunpod', ['template'], gone, 'RunPod templates are listed by GET /v2/catalog/templates', false),
  f('earned', ['template'], gone, 'v2 templates do not report the credits they earned', false),
  f('runtimeInMin', ['template'], gone, 'v2 templates do not report it', false),
  // Network volumes.
  f('dataCenterId', ['networkVolume'], rename('dataCenter'), 'renamed on network volumes (pods keep `dataCenterId`)', false),
  // Billing records.
  f('amount', BILLING, rename('totalAmount'), 'money is `totalAmount` per v2 record, with its components next to it (`gpuAmount`, `diskAmount`, … or `standardAmount`, `highPerformanceAmount`)', false),
  f('time', BILLING, rename('startTime'), 'v2 records cover [startTime, endTime)', false),
  f('endpointId', ['serverlessBilling'], rename('serverlessId'), 'serverless billing records name the endpoint `serverlessId`', false),
  f('highPerformanceStorageAmount', ['networkVolumeBilling'], rename('highPerformanceAmount'), 'renamed (with `standardAmount` next to it)'),
  f('timeBilledMs', BILLING, gone, 'v2 billing records do not carry it', false),
  f('diskSpaceBilledGb', BILLING, gone, 'v2 billing records do not carry it', false),
  f('highPerformanceStorageDiskSpaceBilledGb', ['networkVolumeBilling'], gone, 'v2 billing records do not carry it'),
  f('gpuTypeId', ['podBilling', 'serverlessBilling'], gone, 'v2 records are per pod or endpoint, not per GPU type: join with the resource (`gpu.id`) to group by GPU', false),
];

/** The row for `field` on an object of `item`, if v2 changed it. */
export function responseField(field: string, item: ItemKind): ResponseField | undefined {
  return RESPONSE_FIELDS.find((r) => r.field === field && r.items.includes(item));
}

/** The fields some v1 response fields are nested under (`gpu` of `gpu.displayName`). */
export const NESTING_FIELDS: ReadonlySet<string> = new Set(RESPONSE_FIELDS.flatMap((r) => (r.field.includes('.') ? [r.field.slice(0, r.field.indexOf('.'))] : [])));

/** Rows for a field name on any item (for reads whose object is only likely a RunPod response). */
export function responseFieldsNamed(field: string): ResponseField[] {
  return RESPONSE_FIELDS.filter((r) => r.field === field);
}

/**
 * TypeScript type names users give v1 responses, mapped to what they describe (`p: Pod` → a pod).
 * A read of a v1 field on a value of such a type is reported as likely v1.
 */
export const V1_TYPE_NAMES: Readonly<Record<string, ItemKind>> = {
  Pod: 'pod',
  RunpodPod: 'pod',
  RunPodPod: 'pod',
  Endpoint: 'endpoint',
  ServerlessEndpoint: 'endpoint',
  Template: 'template',
  PodTemplate: 'template',
  NetworkVolume: 'networkVolume',
  BillingRecord: 'podBilling',
};

/**
 * How ignoring a v1 query parameter changes what v2 answers: a `filter` narrowed the list (v2 answers
 * more items), `widen` added items to it (v2 answers fewer), `detail` added data to each item (v2
 * answers the same items without it: reads of that data are response-field findings).
 */
export type IgnoredEffect = 'filter' | 'widen' | 'detail';

/** A v1 list query parameter v2 ignores, with what to do instead. */
export interface IgnoredParam {
  param: string;
  effect: IgnoredEffect;
  /** The v2 field to filter on (`status`), or null when there is no client-side equivalent. */
  v2Field: string | null;
  /** The recipe, given the list variable name and the value as a JS expression (null when unknown). */
  recipe: (list: string, value: string | null) => string;
  /**
   * The same test on a v2 list item, as a JS expression over `item` (a name) and the parameter's value
   * (a JS expression; its literal text, when known, in `literal`), or null when there is none for that
   * value: the client-side filter the codemod writes where the list is unwrapped.
   */
  test?: (item: string, value: string, literal: string | null) => string | null;
  /** Values for which v2 answers as v1 did (`includeEndpointBoundTemplates=true`: v2 lists those too). */
  sameAsV2?: readonly string[];
  /** What the filter's v2 form does differently, said in the finding when it is written. */
  caveat?: string;
}

/**
 * Whether sending this ignored parameter (with this value, when known) makes v2 answer something else
 * than v1 did: a filter does, a flag that only added data to each item does not, nor a value v2 answers
 * the same for (`includePublicTemplates=false`). Every engine blocks or rewrites only these.
 */
export function changesAnswer(ig: IgnoredParam, value: string | null | undefined): boolean {
  return ig.effect !== 'detail' && !(value !== null && value !== undefined && ig.sameAsV2?.includes(value));
}

const q = (value: string | null, fallback: string): string => value ?? fallback;
/** The literal text of a quoted value expression (`'CPU'` → CPU). */
const lit = (value: string | null): string | null => (value && /^'.*'$/.test(value) ? value.slice(1, -1) : value);
const ip = (param: string, effect: IgnoredEffect, v2Field: string | null, recipe: IgnoredParam['recipe'], more: Pick<IgnoredParam, 'test' | 'sameAsV2' | 'caveat'> = {}): IgnoredParam => ({ param, effect, v2Field, recipe, ...more });
/** `item.<field> === value` on the v2 item. */
const equals = (field: string): NonNullable<IgnoredParam['test']> => (item, value) => `${item}.${field} === ${value}`;

const INCLUDE_WORKERS = ip('includeWorkers', 'detail', null, () => 'serverless workers are not listed with pods in v2: list an endpoint\'s workers with GET /v2/serverless/{id}/workers');
const POD_PARAMS: readonly IgnoredParam[] = [
  ip('desiredStatus', 'filter', 'status', (l, v) => `filter on the client: ${l}.filter((p) => p.status === ${q(v, 'STATUS')}) (v2 \`status\` is the observed state and adds PROVISIONING, STARTING and ERROR)`, {
    test: equals('status'),
    caveat: 'v2 `status` is the observed state (PROVISIONING, STARTING, RUNNING, EXITED, ERROR, TERMINATED) where v1 `desiredStatus` was the intent: a pod still starting no longer counts as RUNNING',
  }),
  ip('computeType', 'filter', 'gpu / cpu', (l, v) => (lit(v) === 'CPU' ? `filter on the client: ${l}.filter((p) => p.cpu) (CPU pods carry \`cpu\`, GPU pods \`gpu\`)` : lit(v) === 'GPU' ? `filter on the client: ${l}.filter((p) => p.gpu) (GPU pods carry \`gpu\`, CPU pods \`cpu\`)` : `filter on the client: ${l}.filter((p) => p.gpu) for GPU pods, ${l}.filter((p) => p.cpu) for CPU pods`), {
    test: (item, _value, literal) => (literal === 'CPU' ? `${item}.cpu !== undefined` : literal === 'GPU' ? `${item}.gpu !== undefined` : null),
  }),
  ip('gpuTypeId', 'filter', 'gpu.id', (l, v) => `filter on the client: ${l}.filter((p) => p.gpu?.id === ${q(v, 'GPU_TYPE')})`, { test: (item, value) => `${item}.gpu?.id === ${value}` }),
  ip('cpuFlavorId', 'filter', 'cpu.id', (l, v) => `filter on the client: ${l}.filter((p) => p.cpu?.id === ${q(v, 'FLAVOR')})`, { test: (item, value) => `${item}.cpu?.id === ${value}` }),
  ip('dataCenterId', 'filter', 'dataCenterId', (l, v) => `filter on the client: ${l}.filter((p) => p.dataCenterId === ${q(v, 'DATA_CENTER')})`, { test: equals('dataCenterId') }),
  ip('name', 'filter', 'name', (l, v) => `filter on the client: ${l}.filter((p) => p.name === ${q(v, 'NAME')})`, { test: equals('name') }),
  ip('imageName', 'filter', 'image', (l, v) => `filter on the client: ${l}.filter((p) => p.image === ${q(v, 'IMAGE')})`, { test: equals('image') }),
  ip('templateId', 'filter', 'template', (l, v) => `filter on the client: ${l}.filter((p) => p.template === ${q(v, 'TEMPLATE_ID')})`, { test: equals('template') }),
  ip('networkVolumeId', 'filter', 'mounts.network', (l, v) => `filter on the client: ${l}.filter((p) => p.mounts.network?.some((m) => m.volumeId === ${q(v, 'VOLUME_ID')}))`, {
    test: (item, value) => `${item}.mounts?.network?.some((m) => m.volumeId === ${value}) === true`,
  }),
  ip('id', 'filter', 'id', (l, v) => `read the pod with GET /v2/pods/{id} instead, or filter on the client: ${l}.filter((p) => p.id === ${q(v, 'POD_ID')})`, { test: equals('id') }),
  ip('endpointId', 'filter', null, () => 'serverless workers are not pods in v2: list them with GET /v2/serverless/{id}/workers'),
  ip('includeMachine', 'detail', null, () => 'v2 pods carry no machine details (only `dataCenterId` and `cudaVersion`)'),
  ip('includeNetworkVolume', 'detail', 'mounts.network', () => 'v2 pods always carry `mounts.network[] { volumeId, path }`; read a volume with GET /v2/network-volumes/{id}'),
  ip('includeSavingsPlans', 'detail', null, () => 'v2 pods carry no savings plans'),
  ip('includeTemplate', 'detail', 'template', () => 'v2 pods carry the template id as `template`; read it with GET /v2/templates/{id}'),
  INCLUDE_WORKERS,
];
const ENDPOINT_PARAMS: readonly IgnoredParam[] = [
  ip('includeTemplate', 'detail', null, () => 'v2 endpoints carry their container settings (`image`, `env`, `disk`, …) themselves; there is no embedded template'),
  ip('includeWorkers', 'detail', null, () => 'v2 endpoints do not embed their workers: list them with GET /v2/serverless/{id}/workers'),
];
const TEMPLATE_PARAMS: readonly IgnoredParam[] = [
  ip('includePublicTemplates', 'widen', null, () => 'GET /v2/templates lists your own templates only: public templates are GET /v2/catalog/templates?source=community (or verified)', { sameAsV2: ['false'] }),
  ip('includeRunpodTemplates', 'widen', null, () => 'GET /v2/templates lists your own templates only: RunPod templates are GET /v2/catalog/templates?source=official', { sameAsV2: ['false'] }),
  ip('includeEndpointBoundTemplates', 'filter', 'serverless', (l) => `GET /v2/templates lists your templates; to keep or drop serverless ones filter on the client: ${l}.filter((t) => !t.serverless)`, {
    test: (item, _value, literal) => (literal === 'false' ? `!${item}.serverless` : null),
    sameAsV2: ['true'],
  }),
];

/** v1 query parameters that v2 silently ignores, per v1 operation id (from the v1 spec's parameters). */
export const IGNORED_QUERY_PARAMS: Readonly<Record<string, readonly IgnoredParam[]>> = {
  ListPods: POD_PARAMS,
  GetPod: POD_PARAMS.filter((p) => p.param.startsWith('include')),
  ListEndpoints: ENDPOINT_PARAMS,
  GetEndpoint: ENDPOINT_PARAMS,
  ListTemplates: TEMPLATE_PARAMS,
  GetTemplate: TEMPLATE_PARAMS,
};

/** A v1 billing query parameter v2 dropped or renamed. */
export interface BillingParam {
  param: string;
  /** The v2 name, when only the name changed (fixable). */
  renamed?: string;
  note: string;
}

const GROUPING: BillingParam = { param: 'grouping', note: 'v2 returns one record per resource per time bucket (with its id on each record): group on the client' };

/** v1 billing query parameters v2 dropped or renamed, per v1 operation id. */
export const BILLING_PARAMS: Readonly<Record<string, readonly BillingParam[]>> = {
  PodBilling: [GROUPING, { param: 'gpuTypeId', note: 'v2 pod billing cannot filter by GPU type: filter by `podId`, or join the records with GET /v2/pods (`gpu.id`)' }],
  EndpointBilling: [
    { param: 'endpointId', renamed: 'serverlessId', note: 'serverless billing filters by `serverlessId`' },
    GROUPING,
    { param: 'gpuTypeId', note: 'v2 serverless billing cannot filter by GPU type: filter by `serverlessId`' },
    { param: 'dataCenterId', note: 'v2 serverless billing cannot filter by data center' },
    { param: 'imageName', note: 'v2 serverless billing cannot filter by image: filter by `serverlessId`' },
    { param: 'templateId', note: 'v2 serverless billing cannot filter by template: filter by `serverlessId`' },
  ],
  NetworkVolumeBilling: [],
};

/** The v1 error body and its v2 replacement (RFC 9457 problem details, `application/problem+json`). */
export const ERROR_SHAPE = {
  /** v1 `{ message }` → v2 `detail`. */
  renames: { message: 'detail' } as Readonly<Record<string, string>>,
  /** Fields of the other v1 error body, `{ error, status }`, that v2 does not have. */
  v1Only: ['error'] as readonly string[],
  v2Fields: ['title', 'status', 'detail', 'errors'] as readonly string[],
  description: 'an RFC 9457 problem: { title, status, detail, errors? } (errors: strings naming the offending property)',
};
