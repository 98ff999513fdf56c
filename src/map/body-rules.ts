import type { CrossFieldRule } from '../adapters/runtime.js';
import type { V2BodySchemaName } from './bodies.js';

/**
 * The v2 rules that span fields of a body, as data for the generated adapters: the refinements of
 * src/map/schemas.ts (which the JSON Schema printed for the adapters cannot carry), each stated as
 * "where these hold, this must hold". test/adapters-validation.test.ts checks each against zod.
 * Not here: excludedTypes without duplicates (the adapters build it from a set).
 */
const rule = (when: CrossFieldRule['when'], then: CrossFieldRule['then'], advice: string): CrossFieldRule => ({ when, then, advice });

const IMAGE_OR_TEMPLATE = rule([{ path: 'templateId', absent: true }], { path: 'image' }, 'v2 requires image unless templateId is set: set imageName (image in v2) or templateId.');
const GPU_OR_CPU = rule([{ path: 'gpu' }], { path: 'cpu', absent: true }, 'a v2 pod sets exactly one of gpu { id, count } or cpu { id, vcpuCount }: remove one.');
const NO_PERSISTENT_ON_CPU = rule([{ path: 'cpu' }], { path: 'mounts.persistent', absent: true }, 'v2 forbids persistent volumes on CPU pods: attach a network volume (mounts.network) instead.');
const PERSISTENT_OR_NETWORK = rule(
  [{ path: 'mounts.persistent' }],
  { path: 'mounts.network', absent: true },
  'a v2 pod mounts either a persistent volume or a network volume, not both: choose one (mounts.persistent or mounts.network).',
);
const CUDA_SET_OR_FLOOR = rule(
  [{ path: 'gpu.allowedCudaVersions', nonEmpty: true }],
  { path: 'gpu.minCudaVersion', absent: true, nonEmpty: true },
  'v2 rejects a non-empty allowedCudaVersions together with minCudaVersion: keep one.',
);
const LOAD_BALANCER_SCALING = rule(
  [{ path: 'type', equals: 'LOAD_BALANCER' }],
  { path: 'scaling.type', equals: 'REQUEST_COUNT' },
  'LOAD_BALANCER endpoints scale on request count: set scaling: { type: "REQUEST_COUNT", requestCount }, or type: "QUEUE".',
);
const NO_IDLE_WITH_REQUEST_COUNT = rule([{ path: 'scaling.type', equals: 'REQUEST_COUNT' }], { path: 'workers.idleTimeout', absent: true }, 'v2 rejects idleTimeout with REQUEST_COUNT scaling: remove it or scale on queue delay.');
const EXCLUDED_NEEDS_POOLS = rule([{ path: 'gpu.excludedTypes' }], { path: 'gpu.pools' }, 'v2 takes gpu.excludedTypes only with gpu.pools: send the pools the excluded types are subtracted from.');

export const V2_CROSS_FIELD_RULES: Readonly<Record<V2BodySchemaName, readonly CrossFieldRule[]>> = {
  CreatePodRequest: [IMAGE_OR_TEMPLATE, GPU_OR_CPU, NO_PERSISTENT_ON_CPU, PERSISTENT_OR_NETWORK, CUDA_SET_OR_FLOOR],
  UpdatePodRequest: [PERSISTENT_OR_NETWORK],
  PodActionRequest: [],
  CreateEndpointRequest: [IMAGE_OR_TEMPLATE, LOAD_BALANCER_SCALING, NO_IDLE_WITH_REQUEST_COUNT, CUDA_SET_OR_FLOOR],
  UpdateEndpointRequest: [NO_IDLE_WITH_REQUEST_COUNT, EXCLUDED_NEEDS_POOLS, CUDA_SET_OR_FLOOR],
  CreateTemplateRequest: [],
  UpdateTemplateRequest: [],
  CreateNetworkVolumeRequest: [],
  // At least one field.
  UpdateNetworkVolumeRequest: [rule([{ path: 'size', absent: true }], { path: 'name' }, 'v2 rejects an empty update: set name or size.')],
  CreateRegistryRequest: [],
};
