import * as z from 'zod';
import { lazy } from '../util/lazy.js';
import type { V2BodySchemaName } from './bodies.js';

export type { V2BodySchemaName };

/**
 * v2 request bodies as zod schemas, written from runpod-v2.openapi.json (test/schemas.test.ts checks
 * them against the spec). Every body the codemod writes from literals is validated with these.
 * Cross-field rules the spec states in prose (exactly one of gpu/cpu, persistent xor network, CUDA
 * set xor floor) are refinements. Built on first use.
 *
 * zod is imported as a module (the bundle keeps only the parts used, about a third of its load time).
 */
function buildSchemas() {
  const cuda = z.string().regex(/^\d+\.\d+$/);
  const env = z.record(z.string(), z.string());

  const containerConfig = {
    args: z.string().optional(),
    disk: z.number().int().min(1).optional(),
    env: env.optional(),
    image: z.string().optional(),
    ports: z.array(z.string()).optional(),
    registry: z.string().nullable().optional(),
  };

  const persistentMount = z.strictObject({ size: z.number().int().min(10), path: z.string() });
  const networkMount = z.strictObject({ volumeId: z.string(), path: z.string() });
  const mounts = z
    .strictObject({ persistent: persistentMount.optional(), network: z.array(networkMount).max(1).optional() })
    .refine((m) => !(m.persistent && m.network), { message: 'persistent and network mounts are mutually exclusive' });
  const templateMounts = z.strictObject({ persistent: persistentMount.optional() });

  const cpu = z.strictObject({ id: z.string().min(1), vcpuCount: z.number().int().min(2) });
  const noCudaConflict = (g: { allowedCudaVersions?: string[] | undefined; minCudaVersion?: string | undefined }) =>
    !(g.allowedCudaVersions?.length && g.minCudaVersion);
  const cudaMessage = { message: 'a non-empty allowedCudaVersions and minCudaVersion are mutually exclusive' };

  const podGpu = z
    .strictObject({ id: z.string(), count: z.number().int().min(1).optional(), allowedCudaVersions: z.array(cuda).optional(), minCudaVersion: cuda.optional() })
    .refine(noCudaConflict, cudaMessage);

  const CloudSchema = z.enum(['SECURE', 'COMMUNITY']);
  const FlashBootSchema = z.enum(['OFF', 'FLASHBOOT', 'PRIORITY_FLASHBOOT']);
  const EndpointTypeSchema = z.enum(['QUEUE', 'LOAD_BALANCER']);
  const TemplateCategorySchema = z.enum(['CPU', 'NVIDIA', 'AMD']);
  const VolumeTypeSchema = z.enum(['STANDARD', 'HIGH_PERFORMANCE']);
  const PodActionSchema = z.enum(['start', 'stop', 'restart', 'terminate']);

  const CreatePodRequest = z
    .strictObject({
      ...containerConfig,
      name: z.string().min(1),
      cloud: CloudSchema.optional(),
      cpu: cpu.optional(),
      dataCenterIds: z.array(z.string()).optional(),
      globalNetworking: z.boolean().optional(),
      gpu: podGpu.optional(),
      mounts: mounts.optional(),
      startJupyter: z.boolean().optional(),
      startSsh: z.boolean().optional(),
      templateId: z.string().min(1).optional(),
    })
    .refine((b) => b.image !== undefined || b.templateId !== undefined, { message: 'image is required unless templateId is set', path: ['image'] })
    .refine((b) => !(b.gpu && b.cpu), { message: 'set exactly one of gpu or cpu', path: ['cpu'] })
    .refine((b) => !(b.cpu && b.mounts?.persistent), { message: 'persistent mounts are invalid on CPU pods', path: ['mounts'] });

  const UpdatePodRequest = z.strictObject({
    ...containerConfig,
    globalNetworking: z.boolean().optional(),
    locked: z.boolean().optional(),
    mounts: mounts.optional(),
    name: z.string().min(1).optional(),
    templateId: z.string().optional(),
  });

  const PodActionRequest = z.strictObject({ action: PodActionSchema });

  const queueDelay = z.strictObject({ type: z.literal('QUEUE_DELAY'), queueDelay: z.number().min(0.5) });
  const requestCount = z.strictObject({ type: z.literal('REQUEST_COUNT'), requestCount: z.number().int().min(1) });
  const EndpointScalingSchema = z.discriminatedUnion('type', [queueDelay, requestCount]);
  const workers = z.strictObject({
    min: z.number().int().min(0).optional(),
    max: z.number().int().min(0).optional(),
    idleTimeout: z.number().int().min(1).max(3600).optional(),
  });
  const endpointGpuBase = {
    pools: z.array(z.string()).min(1),
    // Type ids, never the old "-Type" negations of gpuIds strings.
    excludedTypes: z
      .array(z.string().regex(/^\s*[^-\s]/))
      .refine((types) => new Set(types.map((t) => t.trim())).size === types.length, { message: 'excludedTypes must be unique' })
      .optional(),
    count: z.number().int().min(1).optional(),
    allowedCudaVersions: z.array(cuda).optional(),
  };
  const endpointCommon = {
    ...containerConfig,
    cpu: z.array(cpu).min(1).optional(),
    dataCenterIds: z.array(z.string()).optional(),
    flashboot: FlashBootSchema.optional(),
    networkVolumes: z.array(z.string()).optional(),
    timeout: z.number().int().optional(),
    workers: workers.optional(),
  };
  const idleWithRequestCount = (b: { scaling?: { type: string } | undefined; workers?: { idleTimeout?: number | undefined } | undefined }) =>
    !(b.scaling?.type === 'REQUEST_COUNT' && b.workers?.idleTimeout !== undefined);
  const idleMessage = { message: 'idleTimeout is rejected with REQUEST_COUNT scaling', path: ['workers', 'idleTimeout'] };

  const CreateEndpointRequest = z
    .strictObject({
      ...endpointCommon,
      name: z.string().min(1),
      type: EndpointTypeSchema,
      scaling: EndpointScalingSchema,
      gpu: z.strictObject({ ...endpointGpuBase, minCudaVersion: cuda.optional() }).refine(noCudaConflict, cudaMessage).optional(),
      templateId: z.string().min(1).optional(),
    })
    .refine((b) => b.image !== undefined || b.templateId !== undefined, { message: 'image is required unless templateId is set', path: ['image'] })
    .refine((b) => b.type !== 'LOAD_BALANCER' || b.scaling.type === 'REQUEST_COUNT', { message: 'LOAD_BALANCER endpoints need REQUEST_COUNT scaling', path: ['scaling'] })
    .refine(idleWithRequestCount, idleMessage);

  const UpdateEndpointRequest = z
    .strictObject({
      ...endpointCommon,
      name: z.string().min(1).optional(),
      scaling: EndpointScalingSchema.optional(),
      gpu: z
        .strictObject({ ...endpointGpuBase, pools: endpointGpuBase.pools.optional(), minCudaVersion: z.string().regex(/^$|^\d+\.\d+$/).optional() })
        .refine((g) => !g.excludedTypes || g.pools, { message: 'excludedTypes requires pools' })
        .refine(noCudaConflict, cudaMessage)
        .optional(),
      templateId: z.string().optional(),
    })
    .refine(idleWithRequestCount, idleMessage);

  const templateCommon = {
    ...containerConfig,
    allowedCudaVersions: z.array(cuda).optional(),
    category: TemplateCategorySchema.optional(),
    mounts: templateMounts.optional(),
    public: z.boolean().optional(),
    serverless: z.boolean().optional(),
    startJupyter: z.boolean().optional(),
    startSsh: z.boolean().optional(),
  };
  const CreateTemplateRequest = z.strictObject({ ...templateCommon, name: z.string().min(1), image: z.string() });
  const UpdateTemplateRequest = z.strictObject({ ...templateCommon, name: z.string().min(1).optional() });

  const CreateNetworkVolumeRequest = z.strictObject({
    dataCenter: z.string().min(1),
    name: z.string().min(1),
    size: z.number().int().min(10).max(4096),
    type: VolumeTypeSchema.optional(),
  });
  const UpdateNetworkVolumeRequest = z
    .strictObject({ name: z.string().min(1).optional(), size: z.number().int().min(10).max(4096).optional() })
    .refine((b) => Object.keys(b).length > 0, { message: 'at least one field is required' });

  const CreateRegistryRequest = z.strictObject({ name: z.string().min(1), username: z.string().min(1), password: z.string().min(1) });

  return {
    CreatePodRequest,
    UpdatePodRequest,
    PodActionRequest,
    CreateEndpointRequest,
    UpdateEndpointRequest,
    CreateTemplateRequest,
    UpdateTemplateRequest,
    CreateNetworkVolumeRequest,
    UpdateNetworkVolumeRequest,
    CreateRegistryRequest,
  } as const satisfies Record<V2BodySchemaName, z.ZodType>;
}

/** v2 body schema per spec component name. */
export const v2BodySchemas = lazy(buildSchemas);
