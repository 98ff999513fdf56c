/**
 * The body adapters' runtime: reshapes a flat v1 request body into the v2 body of one operation,
 * given that operation's migration map as data. It mirrors the static rewrite (src/rules/body.ts with
 * the builders of src/js/body/builders.ts) for values known at run time, and throws where the static
 * rewrite leaves a decision to a person.
 *
 * This text is copied into the file `adapterSource` generates (src/adapters/generate.ts), after this
 * comment and without `export` keywords: it must stay self-contained (no imports), compile under the
 * strictest tsc flags, use no TypeScript syntax but type annotations and type declarations (what
 * src/adapters/strip.ts removes for the JavaScript variant), and export only what it uses itself.
 */

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

/** What a v1 field becomes in v2 (the migration map's rules). */
export type FieldRule =
  | { kind: 'keep' }
  | { kind: 'rename'; to: string }
  | { kind: 'build'; builder: BuilderId }
  | { kind: 'decision'; advice: string }
  | { kind: 'drop' };

/** A field written when the body leaves it out: required by v2, or a v1 default. */
export interface Insert {
  key: string;
  value: unknown;
  /** Not written when the body has any of these fields. */
  unlessPresent: readonly string[];
  /** Only when this field has one of these values (undefined: absent). */
  onlyWhen?: { field: string; values: readonly unknown[] };
}

/** One operation's map. */
export interface BodyMap {
  operation: string;
  /** The adapter's name, for error messages. */
  adapter: string;
  create: boolean;
  fields: { readonly [field: string]: FieldRule };
  /** Fields of the v2 body: they pass through unchanged. */
  v2Fields: readonly string[];
  /** In the order their v2 fields are built. */
  builders: readonly BuilderId[];
  inserts: readonly Insert[];
}

/** GPU type name → v2 serverless pool id. */
export type GpuPools = { readonly [gpuType: string]: string };

interface Problem {
  field: string;
  advice: string;
}

interface Input {
  /** The body's fields, undefined values left out. */
  props: ReadonlyMap<string, unknown>;
  create: boolean;
  gpuPools: GpuPools;
}

interface Built {
  /** v1 fields replaced by `writes`. */
  consumes: string[];
  writes: Array<[string, unknown]>;
  problems: Problem[];
}

export const GPU_CATALOG = 'GET /v2/catalog/gpus?include=AVAILABILITY&product=POD';

const FLASHBOOT_MODES: readonly unknown[] = ['OFF', 'FLASHBOOT', 'PRIORITY_FLASHBOOT'];

const none = (): Built => ({ consumes: [], writes: [], problems: [] });

const reject = (fields: readonly string[], advice: string): Built => ({ consumes: [], writes: [], problems: fields.map((field) => ({ field, advice })) });

const present = (input: Input, keys: readonly string[]): string[] => keys.filter((k) => input.props.has(k));

const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/** An object of the entries whose value is set. */
function entries(pairs: ReadonlyArray<[string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of pairs) if (value !== undefined) out[key] = value;
  return out;
}

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function isCpu(input: Input): boolean {
  const computeType = input.props.get('computeType');
  return computeType === 'CPU' || (computeType === undefined && input.props.has('cpuFlavorIds'));
}

// POSIX shell quoting (the same as src/shell/quote.ts): an element with spaces or shell characters is
// single-quoted, so ["bash", "-lc", "python x.py"] stays three arguments.
const SHELL_SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

function shellQuote(arg: string): string {
  if (arg === '') return "''";
  if (SHELL_SAFE.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function shellJoin(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}

function podGpu(input: Input): Built {
  const ids = input.props.get('gpuTypeIds');
  const count = input.props.get('gpuCount');
  const cuda = input.props.get('allowedCudaVersions');
  if (ids === undefined && count === undefined && cuda === undefined) return none();
  const settings = present(input, ['gpuCount', 'allowedCudaVersions']);
  if (ids === undefined) {
    if (input.props.has('gpu')) return reject(settings, 'it belongs in gpu (count, allowedCudaVersions), which this body already sets: move it there.');
    if (isCpu(input)) return reject(settings, 'GPU settings on a CPU pod have no v2 place: v2 CPU pods take only cpu { id, vcpuCount }.');
    return reject(settings, 'v2 GPU pods need gpu: { id, count }: add the GPU type (gpuTypeIds is not set).');
  }
  if (!isStringList(ids)) return reject(['gpuTypeIds'], 'gpuTypeIds must be a list of GPU type ids; v2 pods take one of them as gpu: { id, count }.');
  if (ids.length !== 1) {
    return reject(['gpuTypeIds'], `v2 pods take one GPU type (gpu: { id, count }) and the server-side fallback list is gone: pick one type, or rebuild the fallback as a client loop over ${GPU_CATALOG}.`);
  }
  return {
    consumes: present(input, ['gpuTypeIds', 'gpuCount', 'allowedCudaVersions']),
    writes: [['gpu', entries([['id', ids[0]], ['count', count], ['allowedCudaVersions', cuda]])]],
    problems: [],
  };
}

function podCpu(input: Input): Built {
  const computeType = input.props.get('computeType');
  const flavors = input.props.get('cpuFlavorIds');
  const vcpu = input.props.get('vcpuCount');
  if (computeType === undefined && flavors === undefined && vcpu === undefined) return none();
  if (!isCpu(input)) {
    // A GPU pod: computeType 'GPU' is implied by gpu, and vcpuCount only ever applied to CPU pods.
    if (flavors !== undefined) return reject(['cpuFlavorIds'], 'a v2 pod sets exactly one of gpu { id, count } or cpu { id, vcpuCount }: remove cpuFlavorIds from a GPU pod, or set computeType: "CPU".');
    return { consumes: present(input, ['computeType', 'vcpuCount']), writes: [], problems: [] };
  }
  if (flavors === undefined) return reject(['computeType'], 'v2 CPU pods need cpu: { id, vcpuCount }: choose a flavor from GET /v2/catalog/cpus.');
  if (!isStringList(flavors)) return reject(['cpuFlavorIds'], 'cpuFlavorIds must be a list of CPU flavor ids; v2 pods take one of them as cpu: { id, vcpuCount }.');
  if (flavors.length !== 1) {
    return reject(['cpuFlavorIds'], 'v2 pods take one CPU flavor and several flavors are no longer accepted: choose one, or loop over GET /v2/catalog/cpus client-side.');
  }
  return {
    consumes: present(input, ['computeType', 'cpuFlavorIds', 'vcpuCount']),
    writes: [['cpu', { id: flavors[0], vcpuCount: vcpu === undefined ? 2 : vcpu }]],
    problems: [],
  };
}

/** What v2 cannot take in a persistent volume size, or null. */
function volumeSizeProblem(size: unknown): string | null {
  if (size === undefined) return null;
  if (typeof size !== 'number') return 'volumeInGb must be a number: v2 takes mounts: { persistent: { size, path } } with a size of at least 10 GB, or no mounts for no volume (v1 volumeInGb: 0).';
  return size < 10 ? 'v2 persistent volumes are at least 10 GB: choose a size of 10 or more, or 0 for no volume.' : null;
}

function persistentMount(size: unknown, path: unknown): unknown {
  return { persistent: { size: size === undefined ? 20 : size, path: path === undefined ? '/workspace' : path } };
}

function podMounts(input: Input): Built {
  const size = input.props.get('volumeInGb');
  const path = input.props.get('volumeMountPath');
  const network = input.props.get('networkVolumeId');
  if (size === undefined && path === undefined && network === undefined) return none();
  const noVolume = size === 0;
  if (network !== undefined && size !== undefined && !noVolume) {
    return reject(['volumeInGb', 'networkVolumeId'], 'a v2 pod mounts either a persistent volume or a network volume, not both: choose one (mounts.persistent or mounts.network).');
  }
  if (network !== undefined) {
    return {
      consumes: present(input, ['networkVolumeId', 'volumeMountPath', 'volumeInGb']),
      writes: [['mounts', { network: [{ volumeId: network, path: path === undefined ? '/workspace' : path }] }]],
      problems: [],
    };
  }
  if (noVolume) return { consumes: present(input, ['volumeInGb', 'volumeMountPath']), writes: [], problems: [] };
  if (isCpu(input)) return reject(present(input, ['volumeInGb', 'volumeMountPath']), 'v2 forbids persistent volumes on CPU pods: attach a network volume (mounts.network) instead.');
  const sizeProblem = volumeSizeProblem(size);
  if (sizeProblem) return reject(['volumeInGb'], sizeProblem);
  return { consumes: present(input, ['volumeInGb', 'volumeMountPath']), writes: [['mounts', persistentMount(size, path)]], problems: [] };
}

function templateMounts(input: Input): Built {
  const size = input.props.get('volumeInGb');
  const path = input.props.get('volumeMountPath');
  if (size === undefined && path === undefined) return none();
  if (size === 0) return { consumes: present(input, ['volumeInGb', 'volumeMountPath']), writes: [], problems: [] };
  const sizeProblem = volumeSizeProblem(size);
  if (sizeProblem) return reject(['volumeInGb'], sizeProblem);
  return { consumes: present(input, ['volumeInGb', 'volumeMountPath']), writes: [['mounts', persistentMount(size, path)]], problems: [] };
}

function args(input: Input): Built {
  const command = input.props.get('dockerStartCmd');
  if (command === undefined) return none();
  if (typeof command === 'string') return { consumes: ['dockerStartCmd'], writes: [['args', command]], problems: [] };
  if (!isStringList(command)) return reject(['dockerStartCmd'], 'dockerStartCmd must be a list of strings (an argv); v2 takes args as one shell-quoted string.');
  if (command.length === 0) return { consumes: ['dockerStartCmd'], writes: [], problems: [] };
  return { consumes: ['dockerStartCmd'], writes: [['args', shellJoin(command)]], problems: [] };
}

function endpointGpu(input: Input): Built {
  const ids = input.props.get('gpuTypeIds');
  const count = input.props.get('gpuCount');
  const cuda = input.props.get('allowedCudaVersions');
  const minCuda = input.props.get('minCudaVersion');
  if (ids === undefined && count === undefined && cuda === undefined && minCuda === undefined) return none();
  if (Array.isArray(cuda) && cuda.length > 0 && minCuda !== undefined) {
    return reject(['allowedCudaVersions', 'minCudaVersion'], 'v2 rejects a non-empty allowedCudaVersions together with minCudaVersion: keep one.');
  }
  const settings = present(input, ['gpuCount', 'allowedCudaVersions', 'minCudaVersion']);
  let pools: string[] | undefined;
  let excludedTypes: string[] | undefined;
  if (ids !== undefined) {
    if (!isStringList(ids)) return reject(['gpuTypeIds'], 'gpuTypeIds must be a list of GPU type names; v2 endpoints take GPU pool ids (gpu.pools).');
    const unmapped = ids.filter((name) => !hasOwn(input.gpuPools, name));
    if (unmapped.length) {
      const which = `${unmapped.map((name) => JSON.stringify(name)).join(', ')} ${unmapped.length === 1 ? 'has' : 'have'}`;
      return reject(['gpuTypeIds'], `v2 endpoints take GPU pool ids (gpu.pools), not GPU type names, and ${which} no pool in the gpuPools map these adapters were generated with: add it to gpuPools in the v2-migrate config and run v2-migrate again (pool ids: GET /v2/catalog/gpus, field pool), or send gpu: { pools } yourself.`);
    }
    pools = [];
    for (const name of ids) {
      const pool = input.gpuPools[name];
      if (pool !== undefined && !pools.includes(pool)) pools.push(pool);
    }
    if (!pools.length) return reject(['gpuTypeIds'], 'gpuTypeIds is empty: v2 endpoints need at least one GPU pool id in gpu.pools.');
    // A pool runs on all its types: the ones v1 did not list are excluded, so only the listed types run.
    const chosen = pools;
    const excluded = Object.keys(input.gpuPools).filter((type) => {
      const pool: string | undefined = input.gpuPools[type];
      return pool !== undefined && chosen.includes(pool) && !ids.includes(type);
    }).sort();
    if (excluded.length) excludedTypes = excluded;
  } else if (input.props.has('gpu')) {
    return reject(settings, 'it belongs in gpu (count, allowedCudaVersions, minCudaVersion), which this body already sets: move it there.');
  } else if (input.create) {
    return reject(settings, 'v2 endpoint GPU settings need gpu.pools on create: add the GPU types (gpuTypeIds is not set).');
  }
  return {
    consumes: present(input, ['gpuTypeIds', 'gpuCount', 'allowedCudaVersions', 'minCudaVersion']),
    writes: [['gpu', entries([['pools', pools], ['excludedTypes', excludedTypes], ['count', count], ['allowedCudaVersions', cuda], ['minCudaVersion', minCuda]])]],
    problems: [],
  };
}

function endpointCpu(input: Input): Built {
  const computeType = input.props.get('computeType');
  const flavors = input.props.get('cpuFlavorIds');
  const vcpu = input.props.get('vcpuCount');
  if (computeType === undefined && flavors === undefined && vcpu === undefined) return none();
  if (!isCpu(input)) {
    if (flavors !== undefined) return reject(['cpuFlavorIds'], 'a v2 endpoint sets gpu { pools } or cpu [{ id, vcpuCount }]: remove cpuFlavorIds from a GPU endpoint, or set computeType: "CPU".');
    return { consumes: present(input, ['computeType', 'vcpuCount']), writes: [], problems: [] };
  }
  if (flavors === undefined) return reject(['computeType'], 'v2 CPU endpoints need cpu: [{ id, vcpuCount }]: choose flavors from GET /v2/catalog/cpus.');
  if (!isStringList(flavors) || flavors.length === 0) {
    return reject(['cpuFlavorIds'], 'cpuFlavorIds must be a non-empty list of CPU flavor ids; v2 endpoints take cpu: [{ id, vcpuCount }, …], one entry per flavor.');
  }
  const vcpuCount = vcpu === undefined ? 2 : vcpu;
  return {
    consumes: present(input, ['computeType', 'cpuFlavorIds', 'vcpuCount']),
    writes: [['cpu', flavors.map((id) => ({ id, vcpuCount }))]],
    problems: [],
  };
}

function workers(input: Input): Built {
  const min = input.props.get('workersMin');
  const max = input.props.get('workersMax');
  const idle = input.props.get('idleTimeout');
  if (min === undefined && max === undefined && idle === undefined) return none();
  // v2 rejects idleTimeout with REQUEST_COUNT scaling (v1 or v2 spelling).
  const scaling = input.props.get('scaling');
  const scalingType = isRecord(scaling) ? scaling['type'] : undefined;
  const requestCount = input.props.get('scalerType') === 'REQUEST_COUNT' || scalingType === 'REQUEST_COUNT';
  const problems = idle !== undefined && requestCount ? [{ field: 'idleTimeout', advice: 'v2 rejects idleTimeout with REQUEST_COUNT scaling: remove it or scale on queue delay.' }] : [];
  const moved = problems.length ? undefined : idle;
  if (min === undefined && max === undefined && moved === undefined) return { consumes: [], writes: [], problems };
  return {
    consumes: present(input, moved === undefined ? ['workersMin', 'workersMax'] : ['workersMin', 'workersMax', 'idleTimeout']),
    writes: [['workers', entries([['min', min], ['max', max], ['idleTimeout', moved]])]],
    problems,
  };
}

function scaling(input: Input): Built {
  const type = input.props.get('scalerType');
  const value = input.props.get('scalerValue');
  if (type === undefined && value === undefined) return none();
  const t = type === undefined ? 'QUEUE_DELAY' : type;
  if (t !== 'QUEUE_DELAY' && t !== 'REQUEST_COUNT') {
    return reject(['scalerType'], 'scalerType must be "QUEUE_DELAY" or "REQUEST_COUNT": v2 takes scaling: { type: "QUEUE_DELAY", queueDelay } or { type: "REQUEST_COUNT", requestCount }.');
  }
  if (type === undefined && !input.create) {
    return reject(['scalerValue'], 'v2 needs the scaling type with its value (scaling: { type, queueDelay | requestCount }): add the endpoint’s scalerType.');
  }
  const field = t === 'QUEUE_DELAY' ? 'queueDelay' : 'requestCount';
  return { consumes: present(input, ['scalerType', 'scalerValue']), writes: [['scaling', { type: t, [field]: value === undefined ? 4 : value }]], problems: [] };
}

function flashboot(input: Input): Built {
  const value = input.props.get('flashboot');
  if (value === undefined) return none();
  if (typeof value === 'boolean') return { consumes: ['flashboot'], writes: [['flashboot', value ? 'FLASHBOOT' : 'OFF']], problems: [] };
  // Already a v2 mode: it passes through as a v2 field.
  if (FLASHBOOT_MODES.includes(value)) return none();
  return reject(['flashboot'], 'flashboot is true/false in v1 and "OFF", "FLASHBOOT" or "PRIORITY_FLASHBOOT" in v2.');
}

function networkVolumes(input: Input): Built {
  const one = input.props.get('networkVolumeId');
  const many = input.props.get('networkVolumeIds');
  if (one === undefined && many === undefined) return none();
  if (many !== undefined && !Array.isArray(many)) return reject(['networkVolumeIds'], 'networkVolumeIds must be a list of network volume ids; v2 takes networkVolumes: [ids].');
  const list: unknown[] = Array.isArray(many) ? many : [];
  return { consumes: present(input, ['networkVolumeId', 'networkVolumeIds']), writes: [['networkVolumes', one === undefined ? list : [one, ...list]]], problems: [] };
}

const BUILDERS: { readonly [id in BuilderId]: (input: Input) => Built } = {
  'pod-gpu': podGpu,
  'pod-cpu': podCpu,
  'pod-mounts': podMounts,
  args,
  'endpoint-gpu': endpointGpu,
  'endpoint-cpu': endpointCpu,
  workers,
  scaling,
  flashboot,
  'network-volumes': networkVolumes,
  'template-mounts': templateMounts,
};

/** The problem a v1 field left over by the builders and rules poses, or null when it passes through. */
function leftoverProblem(map: BodyMap, key: string, props: ReadonlyMap<string, unknown>): Problem | null {
  const rule = hasOwn(map.fields, key) ? map.fields[key] : undefined;
  if (rule === undefined || rule.kind === 'build') {
    if (map.v2Fields.includes(key)) return null;
    if (rule !== undefined) return { field: key, advice: `this ${map.operation} body gives it no v2 place: check it against the v2 schema.` };
    return { field: key, advice: `neither v1 nor v2 ${map.operation} has this field, and v2 rejects unknown fields: remove it, or use a v2 field (${map.v2Fields.join(', ')}).` };
  }
  if (rule.kind === 'rename' && props.has(rule.to)) return { field: key, advice: `it is ${rule.to} in v2, which this body already sets: keep one.` };
  if (rule.kind === 'decision') return { field: key, advice: rule.advice };
  return null;
}

/**
 * The v2 body for a v1 body: renamed and restructured fields, v2-required fields inserted. Throws an
 * Error naming every field v2 has no place for, with what to do instead. null and undefined pass.
 */
export function toV2Body(map: BodyMap, gpuPools: GpuPools, body: unknown): unknown {
  if (body === null || body === undefined) return body;
  if (!isRecord(body)) {
    throw new Error(`${map.adapter}: expected the v1 ${map.operation} body as an object, got ${Array.isArray(body) ? 'an array' : typeof body}.`);
  }
  const props = new Map<string, unknown>();
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (value !== undefined) props.set(key, value);
  }
  const input: Input = { props, create: map.create, gpuPools };
  const problems: Problem[] = [];
  /** v1 fields a builder took care of (consumed, or reported with its problem). */
  const handled = new Set<string>();
  /** Builder writes, placed where the first v1 field they replace was. */
  const writesAt = new Map<string, Array<[string, unknown]>>();

  for (const id of map.builders) {
    const built = BUILDERS[id](input);
    // A v2 field the body already sets is not written twice: the v1 fields would be lost.
    const clash = built.writes.find(([key]) => props.has(key) && !built.consumes.includes(key));
    if (clash) for (const field of built.consumes) problems.push({ field, advice: `it belongs in ${clash[0]}, which this body already sets: merge it into ${clash[0]}.` });
    problems.push(...built.problems);
    if (clash || built.problems.length) {
      for (const field of Object.keys(map.fields)) {
        const rule = map.fields[field];
        if (rule !== undefined && rule.kind === 'build' && rule.builder === id) handled.add(field);
      }
      continue;
    }
    for (const field of built.consumes) handled.add(field);
    const first = [...props.keys()].find((key) => built.consumes.includes(key));
    if (first !== undefined) writesAt.set(first, built.writes);
  }

  const out: Record<string, unknown> = {};
  for (const [key, value] of props) {
    for (const [k, v] of writesAt.get(key) ?? []) out[k] = v;
    if (handled.has(key)) continue;
    const problem = leftoverProblem(map, key, props);
    if (problem) {
      problems.push(problem);
      continue;
    }
    const rule = hasOwn(map.fields, key) ? map.fields[key] : undefined;
    if (rule !== undefined && rule.kind === 'rename') out[rule.to] = value;
    else if (rule === undefined || rule.kind !== 'drop') out[key] = value;
  }

  for (const insert of map.inserts) {
    if (out[insert.key] !== undefined || insert.unlessPresent.some((field) => props.has(field))) continue;
    if (insert.onlyWhen !== undefined && !insert.onlyWhen.values.includes(props.get(insert.onlyWhen.field))) continue;
    out[insert.key] = JSON.parse(JSON.stringify(insert.value));
  }

  if (problems.length) {
    const advice = new Map<string, string>();
    for (const p of problems) if (!advice.has(p.field)) advice.set(p.field, p.advice);
    const lines = [...advice].map(([field, text]) => `${field}: ${text}`);
    throw new Error(`${map.adapter}: this ${map.operation} body cannot be converted to v2. ${lines.join(' ')}`);
  }
  return out;
}
