/**
 * The v2 request bodies by spec component name, each a schema in src/map/schemas.ts (which must have
 * exactly these). Named here, not derived from the schemas, so the published types need no zod.
 */
export type V2BodySchemaName =
  | 'CreatePodRequest'
  | 'UpdatePodRequest'
  | 'PodActionRequest'
  | 'CreateEndpointRequest'
  | 'UpdateEndpointRequest'
  | 'CreateTemplateRequest'
  | 'UpdateTemplateRequest'
  | 'CreateNetworkVolumeRequest'
  | 'UpdateNetworkVolumeRequest'
  | 'CreateRegistryRequest';

/**
 * Request-body mappings, one per v1 operation that takes a body (MIGRATION.md §3–§4). Simple facts
 * are data (keep, rename, decision, drop); fields that combine into one v2 field name a builder,
 * implemented in src/js/body/builders.ts, which reads only the values it is given.
 */
export type BodyOperationId =
  | 'CreatePod'
  | 'UpdatePod'
  | 'CreateEndpoint'
  | 'UpdateEndpoint'
  | 'CreateTemplate'
  | 'UpdateTemplate'
  | 'CreateNetworkVolume'
  | 'UpdateNetworkVolume'
  | 'CreateContainerRegistryAuth';

export type BuilderId =
  | 'pod-gpu'
  | 'pod-cpu'
  | 'pod-mounts'
  | 'args'
  | 'endpoint-gpu'
  | 'endpoint-cpu'
  | 'workers'
  | 'scaling'
  | 'flashboot'
  | 'network-volumes'
  | 'template-mounts';

export type FieldRule =
  | { kind: 'keep' }
  | { kind: 'rename'; to: string }
  /** Several v1 fields become one v2 field; the builder decides or reports. */
  | { kind: 'build'; builder: BuilderId }
  /** No v2 equivalent: the field stays (so v2 rejects it loudly) and a person decides. */
  | { kind: 'decision'; advice: string }
  /** Removed by the codemod, with a finding that says so. */
  | { kind: 'drop'; advice: string };

/** A v1 default the v2 API no longer applies: warned about, or written out with `preserveV1Defaults`. */
export interface V1Default {
  /** The v2 property to write. */
  key: string;
  /** The JSON value to write. */
  value: unknown;
  /** The v1 fields whose absence means the default applied. */
  absent: readonly string[];
  /** The default does not apply when any of these v1 fields is present. */
  unlessPresent?: readonly string[];
  /** Only when this v1 field is absent or has one of these literal values (e.g. GPU pods). */
  onlyWhen?: { field: string; values: readonly unknown[] };
  what: string;
}

export interface BodyMapping {
  v2Schema: V2BodySchemaName;
  fields: Readonly<Record<string, FieldRule>>;
  /** Builders in the order their v2 fields are written. */
  builders: readonly BuilderId[];
  /** v2 requires these on create; inserting them keeps the v1 behaviour. */
  required?: ReadonlyArray<{ key: string; value: unknown; why: string; unlessPresent: readonly string[] }>;
  v1Defaults?: readonly V1Default[];
}

const keep = { kind: 'keep' } as const;
const rename = (to: string): FieldRule => ({ kind: 'rename', to });
const build = (builder: BuilderId): FieldRule => ({ kind: 'build', builder });
const decision = (advice: string): FieldRule => ({ kind: 'decision', advice });

export const GPU_CATALOG_LOOP = 'GET /v2/catalog/gpus?include=AVAILABILITY&product=POD';

/** Advice for v1 capabilities with no v2 field (MIGRATION.md §3). */
export const DECISIONS = {
  gpuTypePriority: `v2 pods take one GPU type and the server-side fallback order is gone: rebuild it as a client loop over ${GPU_CATALOG_LOOP}.`,
  cpuFlavorPriority: 'v2 pods take one CPU flavor and the fallback order is gone: choose one, or loop over GET /v2/catalog/cpus client-side.',
  dataCenterPriority: 'v2 has no data-center priority: dataCenterIds is a preference list the scheduler picks from.',
  interruptible: 'v2 REST has no interruptible (spot) pods; spot pods stay on the GraphQL API.',
  countryCodes: `v2 pods have no countryCodes: query ${GPU_CATALOG_LOOP}&countryCodes=… and pass the data centers it returns as dataCenterIds.`,
  minRAMPerGPU: `v2 has no per-GPU RAM floor: choose a GPU type that meets it from ${GPU_CATALOG_LOOP}.`,
  minVCPUPerGPU: `v2 has no per-GPU vCPU floor: choose a GPU type that meets it from ${GPU_CATALOG_LOOP}.`,
  minDownloadMbps: 'v2 has no download-bandwidth floor: choose data centers that meet it and pass them as dataCenterIds.',
  minUploadMbps: 'v2 has no upload-bandwidth floor: choose data centers that meet it and pass them as dataCenterIds.',
  minDiskBandwidthMBps: 'v2 has no disk-bandwidth floor: choose data centers that meet it and pass them as dataCenterIds.',
  supportPublicIp: 'v2 has no public-IP requirement: exposed ports are reported in runtime.ports; choose a data center that gives public IPs.',
  dockerEntrypoint: 'v2 has no entrypoint override: build the entrypoint into the image, or express the command with args.',
  lockedOnCreate: 'v2 sets locked only with PATCH: create the pod, then PATCH /v2/pods/{id} with { locked: true }.',
  volumeOnPatch: 'v2 cannot patch volumeInGb/volumeMountPath: mounts need full entries (size and path) and their kind is fixed at create; send mounts: { persistent: { size, path } } for a pod created with a persistent mount, or recreate the pod.',
} as const;

const POD_DECISIONS = {
  dockerEntrypoint: decision(DECISIONS.dockerEntrypoint),
  interruptible: decision(DECISIONS.interruptible),
  countryCodes: decision(DECISIONS.countryCodes),
  minRAMPerGPU: decision(DECISIONS.minRAMPerGPU),
  minVCPUPerGPU: decision(DECISIONS.minVCPUPerGPU),
  minDownloadMbps: decision(DECISIONS.minDownloadMbps),
  minUploadMbps: decision(DECISIONS.minUploadMbps),
  minDiskBandwidthMBps: decision(DECISIONS.minDiskBandwidthMBps),
  supportPublicIp: decision(DECISIONS.supportPublicIp),
  gpuTypePriority: decision(DECISIONS.gpuTypePriority),
  dataCenterPriority: decision(DECISIONS.dataCenterPriority),
  cpuFlavorPriority: decision(DECISIONS.cpuFlavorPriority),
};

const CONTAINER_RENAMES = {
  name: keep,
  imageName: rename('image'),
  containerDiskInGb: rename('disk'),
  containerRegistryAuthId: rename('registry'),
  env: keep,
  ports: keep,
  dockerStartCmd: build('args'),
};

const DEFAULT_PORTS: V1Default = { key: 'ports', value: ['8888/http', '22/tcp'], absent: ['ports'], unlessPresent: ['templateId'], what: 'ports (v1 exposed 8888/http and 22/tcp by default)' };

export const BODY_MAPPINGS: Readonly<Record<BodyOperationId, BodyMapping>> = {
  CreatePod: {
    v2Schema: 'CreatePodRequest',
    fields: {
      ...CONTAINER_RENAMES,
      cloudType: rename('cloud'),
      gpuTypeIds: build('pod-gpu'),
      gpuCount: build('pod-gpu'),
      allowedCudaVersions: build('pod-gpu'),
      computeType: build('pod-cpu'),
      cpuFlavorIds: build('pod-cpu'),
      vcpuCount: build('pod-cpu'),
      volumeInGb: build('pod-mounts'),
      volumeMountPath: build('pod-mounts'),
      networkVolumeId: build('pod-mounts'),
      dataCenterIds: keep,
      globalNetworking: keep,
      templateId: keep,
      locked: decision(DECISIONS.lockedOnCreate),
      ...POD_DECISIONS,
    },
    builders: ['args', 'pod-gpu', 'pod-cpu', 'pod-mounts'],
    v1Defaults: [
      { key: 'name', value: 'my pod', absent: ['name'], what: 'name (v1 named it "my pod"; v2 requires it)' },
      DEFAULT_PORTS,
      {
        key: 'mounts',
        value: { persistent: { size: 20, path: '/workspace' } },
        absent: ['volumeInGb', 'volumeMountPath', 'networkVolumeId'],
        // CPU flavors without a computeType, or a v2 cpu, make a CPU pod, which had no v1 volume.
        unlessPresent: ['templateId', 'cpuFlavorIds', 'cpu'],
        onlyWhen: { field: 'computeType', values: [undefined, 'GPU'] },
        what: 'storage (v1 gave GPU pods a 20 GB volume at /workspace)',
      },
    ],
  },
  UpdatePod: {
    v2Schema: 'UpdatePodRequest',
    fields: {
      ...CONTAINER_RENAMES,
      globalNetworking: keep,
      locked: keep,
      dockerEntrypoint: decision(DECISIONS.dockerEntrypoint),
      volumeInGb: decision(DECISIONS.volumeOnPatch),
      volumeMountPath: decision(DECISIONS.volumeOnPatch),
    },
    builders: ['args'],
  },
  CreateEndpoint: {
    v2Schema: 'CreateEndpointRequest',
    fields: {
      name: keep,
      templateId: keep,
      gpuTypeIds: build('endpoint-gpu'),
      gpuCount: build('endpoint-gpu'),
      allowedCudaVersions: build('endpoint-gpu'),
      minCudaVersion: build('endpoint-gpu'),
      computeType: build('endpoint-cpu'),
      cpuFlavorIds: build('endpoint-cpu'),
      vcpuCount: build('endpoint-cpu'),
      workersMin: build('workers'),
      workersMax: build('workers'),
      idleTimeout: build('workers'),
      scalerType: build('scaling'),
      scalerValue: build('scaling'),
      executionTimeoutMs: rename('timeout'),
      flashboot: build('flashboot'),
      networkVolumeId: build('network-volumes'),
      networkVolumeIds: build('network-volumes'),
      dataCenterIds: keep,
    },
    builders: ['endpoint-gpu', 'endpoint-cpu', 'workers', 'scaling', 'flashboot', 'network-volumes'],
    required: [
      { key: 'type', value: 'QUEUE', why: 'v2 requires type on create; every v1 endpoint was queue-based', unlessPresent: ['type'] },
      { key: 'scaling', value: { type: 'QUEUE_DELAY', queueDelay: 4 }, why: 'v2 requires scaling on create; this is the v1 default (QUEUE_DELAY, 4)', unlessPresent: ['scalerType', 'scalerValue', 'scaling'] },
    ],
  },
  UpdateEndpoint: {
    v2Schema: 'UpdateEndpointRequest',
    fields: {
      name: keep,
      templateId: keep,
      gpuTypeIds: build('endpoint-gpu'),
      gpuCount: build('endpoint-gpu'),
      allowedCudaVersions: build('endpoint-gpu'),
      minCudaVersion: build('endpoint-gpu'),
      cpuFlavorIds: build('endpoint-cpu'),
      vcpuCount: build('endpoint-cpu'),
      workersMin: build('workers'),
      workersMax: build('workers'),
      idleTimeout: build('workers'),
      scalerType: build('scaling'),
      scalerValue: build('scaling'),
      executionTimeoutMs: rename('timeout'),
      flashboot: build('flashboot'),
      networkVolumeId: build('network-volumes'),
      networkVolumeIds: build('network-volumes'),
      dataCenterIds: keep,
    },
    builders: ['endpoint-gpu', 'endpoint-cpu', 'workers', 'scaling', 'flashboot', 'network-volumes'],
  },
  CreateTemplate: {
    v2Schema: 'CreateTemplateRequest',
    fields: {
      ...CONTAINER_RENAMES,
      category: keep,
      isServerless: rename('serverless'),
      isPublic: rename('public'),
      volumeInGb: build('template-mounts'),
      volumeMountPath: build('template-mounts'),
      dockerEntrypoint: decision(DECISIONS.dockerEntrypoint),
      readme: { kind: 'drop', advice: 'v2 templates have no readme field, so it was removed; keep the text elsewhere (the console or your repository).' },
    },
    builders: ['args', 'template-mounts'],
    v1Defaults: [
      DEFAULT_PORTS,
      { key: 'mounts', value: { persistent: { size: 20, path: '/workspace' } }, absent: ['volumeInGb', 'volumeMountPath'], what: 'storage (v1 templates had a 20 GB volume at /workspace)' },
    ],
  },
  UpdateTemplate: {
    v2Schema: 'UpdateTemplateRequest',
    fields: {
      ...CONTAINER_RENAMES,
      isPublic: rename('public'),
      volumeInGb: build('template-mounts'),
      volumeMountPath: build('template-mounts'),
      dockerEntrypoint: decision(DECISIONS.dockerEntrypoint),
      readme: { kind: 'drop', advice: 'v2 templates have no readme field, so it was removed; keep the text elsewhere (the console or your repository).' },
    },
    builders: ['args', 'template-mounts'],
  },
  CreateNetworkVolume: {
    v2Schema: 'CreateNetworkVolumeRequest',
    fields: { name: keep, size: keep, dataCenterId: rename('dataCenter') },
    builders: [],
  },
  UpdateNetworkVolume: { v2Schema: 'UpdateNetworkVolumeRequest', fields: { name: keep, size: keep }, builders: [] },
  CreateContainerRegistryAuth: { v2Schema: 'CreateRegistryRequest', fields: { name: keep, username: keep, password: keep }, builders: [] },
};

/** Whether a name is an operation with a body mapping (`toV2<name>Body` of a generated adapter file). */
export const isBodyOperationId = (name: string): name is BodyOperationId => Object.prototype.hasOwnProperty.call(BODY_MAPPINGS, name);

export function bodyMappingFor(operationId: string): BodyMapping | undefined {
  return (BODY_MAPPINGS as Record<string, BodyMapping>)[operationId];
}

/** What a person should check in a body the tool cannot see (both engines say it the same way). */
export function bodyChecklist(mapping: BodyMapping): string {
  const renames = Object.entries(mapping.fields)
    .filter((e): e is [string, FieldRule & { kind: 'rename' }] => e[1].kind === 'rename')
    .map(([k, r]) => `${k} → ${r.to}`);
  const built = Object.entries(mapping.fields).filter(([, r]) => r.kind === 'build').map(([k]) => k);
  const decisions = Object.entries(mapping.fields).filter(([, r]) => r.kind === 'decision' || r.kind === 'drop').map(([k]) => k);
  const required = (mapping.required ?? []).map((r) => `${r.key} ${JSON.stringify(r.value)}`);
  const defaults = (mapping.v1Defaults ?? []).map((d) => d.key);
  const parts = [
    renames.length ? `renamed: ${renames.join(', ')}` : '',
    built.length ? `restructured: ${built.join(', ')}` : '',
    decisions.length ? `no v2 equivalent: ${decisions.join(', ')}` : '',
    required.length ? `required on create in v2 (v1 behaviour): ${required.join(', ')}` : '',
    defaults.length ? `v1 defaults v2 no longer applies on create: ${defaults.join(', ')}` : '',
  ];
  return parts.filter(Boolean).join('; ') || 'the v2 schema';
}

/** False for operations whose v1 body is already a v2 body (only fields kept as they are). */
export function v1BodyDiffers(mapping: BodyMapping): boolean {
  return mapping.builders.length > 0 || !!mapping.required?.length || !!mapping.v1Defaults?.length || Object.values(mapping.fields).some((rule) => rule.kind !== 'keep');
}
