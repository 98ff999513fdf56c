/**
 * Response fields that changed between REST v1 and v2 (MIGRATION.md §5) and what each request-body
 * builder of src/map/bodies.ts produces, as plain tables. Request-body field facts (rename, build,
 * decision, drop per operation) live in src/map/bodies.ts; this file only adds what an engine that
 * reports (rather than rewrites) needs to say where a field goes.
 */
import type { BuilderId } from './bodies.js';
import type { V1Resource } from './operations.js';

/** The v2 field a body builder writes, and what the user must know when moving fields into it by hand. */
export const BUILDER_TARGETS: Readonly<Record<BuilderId, { v2: string; note: string }>> = {
  'pod-gpu': {
    v2: 'gpu: { id, count }',
    note: '`gpuTypeIds: [a]` with `gpuCount: n` becomes `gpu: { id: a, count: n }` (`allowedCudaVersions` moves into `gpu`); v2 pods take ONE GPU type',
  },
  'pod-cpu': { v2: 'cpu: { id, vcpuCount }', note: '`computeType: "CPU"` with `cpuFlavorIds: [f]` and `vcpuCount: v` becomes `cpu: { id: f, vcpuCount: v }`; `computeType: "GPU"` is implied by `gpu`' },
  'pod-mounts': {
    v2: 'mounts',
    note: '`volumeInGb` + `volumeMountPath` become `mounts: { persistent: { size, path } }` (deprecated in v2, forbidden on CPU pods, min 10 GB); `networkVolumeId` becomes `mounts: { network: [{ volumeId, path }] }` (`path` required)',
  },
  args: { v2: 'args', note: 'the argv array becomes one string: join it with shell quoting, or `["bash","-lc","python x.py"]` changes meaning' },
  'endpoint-gpu': {
    v2: 'gpu: { pools, count }',
    note: 'serverless takes POOL ids (`ADA_24`, …), not GPU type names; `allowedCudaVersions` and `minCudaVersion` move into `gpu`',
  },
  'endpoint-cpu': { v2: 'cpu: [{ id, vcpuCount }]', note: '`cpuFlavorIds` + `vcpuCount` become a list with one entry per flavor' },
  workers: { v2: 'workers: { min, max, idleTimeout }', note: '`workersMin`, `workersMax` and `idleTimeout` nest under `workers`' },
  scaling: {
    v2: 'scaling',
    note: '`scalerType` + `scalerValue` become `scaling: { type: "QUEUE_DELAY", queueDelay: v }` or `{ type: "REQUEST_COUNT", requestCount: v }`, required on create',
  },
  flashboot: { v2: 'flashboot', note: 'the boolean becomes an enum: true → "FLASHBOOT", false → "OFF"' },
  'network-volumes': { v2: 'networkVolumes', note: 'network volume ids become the list `networkVolumes: [ids]`' },
  'template-mounts': { v2: 'mounts: { persistent: { size, path } }', note: '`volumeInGb` + `volumeMountPath` become `mounts.persistent` (`volumeInGb: 0` means no mounts)' },
};

export interface ResponseFieldMapping {
  field: string;
  resources: readonly V1Resource[];
  /** The v2 field or where the data went, or null when it is gone. */
  v2: string | null;
  note: string;
  /**
   * The name is specific enough to flag wherever a file that talks to RunPod reads it
   * (`desiredStatus`); generic names (`version`, `amount`, `template`) are only about v1 in context.
   */
  distinctive: boolean;
}

const resp = (field: string, resources: readonly V1Resource[], v2: string | null, note: string, distinctive = true): ResponseFieldMapping => ({
  field,
  resources,
  v2,
  note,
  distinctive,
});

/** v1 response fields that v2 renamed, moved or dropped (§5). */
export const V1_RESPONSE_FIELDS: readonly ResponseFieldMapping[] = [
  resp('desiredStatus', ['pods'], 'status', '`status` is the observed state (PROVISIONING/STARTING/RUNNING/EXITED/ERROR/TERMINATED), not the intent: a wait loop must also handle ERROR'),
  resp('costPerHr', ['pods'], 'cost', 'the hourly cost is `cost` in v2'),
  resp('adjustedCostPerHr', ['pods'], 'cost', 'the hourly cost is `cost` in v2'),
  resp('imageName', ['pods', 'templates'], 'image', 'renamed'),
  resp('containerDiskInGb', ['pods', 'templates'], 'disk', 'renamed'),
  resp('machineId', ['pods'], null, 'gone: v2 pods only report `dataCenterId`'),
  resp('machine', ['pods'], null, 'gone: v2 pods only report `dataCenterId`', false),
  resp('publicIp', ['pods'], 'runtime.ports[].ip', 'ports are `runtime.ports[] { private, public, type, ip }` in v2'),
  resp('portMappings', ['pods'], 'runtime.ports[]', 'ports are `runtime.ports[] { private, public, type, ip }` in v2'),
  resp('networkVolume', ['pods'], 'mounts.network[]', 'attached network volumes are `mounts.network[]` in v2'),
  resp('workersMin', ['endpoints'], 'workers.min', 'nested under `workers`'),
  resp('workersMax', ['endpoints'], 'workers.max', 'nested under `workers`'),
  resp('scalerType', ['endpoints'], 'scaling.type', 'nested under `scaling`'),
  resp('scalerValue', ['endpoints'], 'scaling', '`scaling.queueDelay` or `scaling.requestCount`, by `scaling.type`'),
  resp('executionTimeoutMs', ['endpoints'], 'timeout', 'renamed (still milliseconds)'),
  resp('template', ['endpoints'], null, 'the embedded template is gone', false),
  resp('workers', ['endpoints'], null, 'workers are listed by GET /v2/serverless/{id}/workers', false),
  resp('version', ['endpoints'], null, 'versions are releases: GET /v2/serverless/{id}/releases', false),
  resp('dataCenterId', ['networkvolumes'], 'dataCenter', 'renamed on network volumes (pods keep `dataCenterId`)', false),
  resp('amount', ['billing'], 'totalAmount', 'billing returns `{ records, metadata }` and money is `totalAmount` (plus `gpuAmount`, `diskAmount`, …)', false),
];

export function responseFieldMapping(field: string): ResponseFieldMapping | undefined {
  return V1_RESPONSE_FIELDS.find((r) => r.field === field);
}

/** v1 list endpoints returned a bare array; v2 wraps the list in an object under this key (§5). */
export const V2_LIST_KEYS: Readonly<Record<V1Resource, string>> = {
  pods: 'pods',
  endpoints: 'endpoints',
  templates: 'templates',
  networkvolumes: 'networkVolumes',
  containerregistryauth: 'registries',
  billing: 'records',
};
