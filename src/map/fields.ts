/**
 * What each request-body builder of src/map/bodies.ts produces, for engines that report body fields
 * rather than rewrite them (the text engine). The field facts themselves (rename, build, decision,
 * drop per operation) live in src/map/bodies.ts; response facts live in src/map/responses.ts.
 */
import type { BuilderId } from './bodies.js';

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
