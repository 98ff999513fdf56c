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

/**
 * The part of JSON Schema the v2 body schemas are printed in (src/adapters/v2-schema.ts): what v2
 * accepts in one body, checked on the body an adapter built before it is returned.
 */
export interface V2Schema {
  type?: string | readonly string[];
  enum?: readonly unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  items?: V2Schema;
  properties?: { readonly [key: string]: V2Schema };
  required?: readonly string[];
  /** false: no other keys; a schema: what every other key holds (env's values). */
  additionalProperties?: false | V2Schema;
  /** Shapes told apart by a property each gives a `const` (scaling's type). */
  oneOf?: readonly V2Schema[];
}

/**
 * A test on a field of the v2 body, by dotted path: the field equals `equals`; or, without it, is
 * there — or, with `absent`, is not.
 */
export interface FieldTest {
  path: string;
  equals?: unknown;
  absent?: true;
  /** Only a value other than '' and [] counts as there (v2 reads an empty CUDA list or floor as none). */
  nonEmpty?: true;
}

/** A v2 rule across fields (exactly one of gpu/cpu, …): where every `when` holds, `then` must hold. */
export interface CrossFieldRule {
  when: readonly FieldTest[];
  then: FieldTest;
  /** What to do, for the error naming `then.path`. */
  advice: string;
}

/** One operation's map. */
export interface BodyMap {
  operation: string;
  /** The adapter's name, for error messages. */
  adapter: string;
  create: boolean;
  fields: { readonly [field: string]: FieldRule };
  /** The v2 body: its fields pass through, and the body built is checked against it. */
  v2: V2Schema;
  /** v2 rules across fields, checked on the body built. */
  rules: readonly CrossFieldRule[];
  /** What to do when a field v2 requires is missing, where there is more to say than "set it". */
  whenMissing: { readonly [field: string]: string };
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

const v2Fields = (map: BodyMap): string[] => Object.keys(map.v2.properties ?? {});

/** The problem a v1 field left over by the builders and rules poses, or null when it passes through. */
function leftoverProblem(map: BodyMap, key: string, props: ReadonlyMap<string, unknown>): Problem | null {
  const rule = hasOwn(map.fields, key) ? map.fields[key] : undefined;
  if (rule === undefined || rule.kind === 'build') {
    if (v2Fields(map).includes(key)) return null;
    if (rule !== undefined) return { field: key, advice: `this ${map.operation} body gives it no v2 place: check it against the v2 schema.` };
    return { field: key, advice: `neither v1 nor v2 ${map.operation} has this field, and v2 rejects unknown fields: remove it, or use a v2 field (${v2Fields(map).join(', ')}).` };
  }
  if (rule.kind === 'rename' && props.has(rule.to)) return { field: key, advice: `it is ${rule.to} in v2, which this body already sets: keep one.` };
  if (rule.kind === 'decision') return { field: key, advice: rule.advice };
  return null;
}

// Checking the body built against what v2 accepts: every value v2 would answer 422 to, named
// before the request is sent (v2 request schemas reject unknown fields at every level).

interface Check {
  map: BodyMap;
  /** v2 field → the v1 fields of this body it was made from, where they differ. */
  origins: ReadonlyMap<string, readonly string[]>;
  problems: Problem[];
}

const TYPE_WORDS: { readonly [type: string]: string } = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

const typeWords = (type: string): string => TYPE_WORDS[type] ?? type;

const at = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

/** The JSON type of a value, as JSON Schema names it. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const fitsType = (type: string, value: unknown): boolean => jsonType(value) === type || (type === 'number' && jsonType(value) === 'integer');

/** A value as an error message shows it: its JSON, shortened. */
function shown(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return typeof value;
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** `"SECURE" or "COMMUNITY"`, `"OFF", "FLASHBOOT" or "PRIORITY_FLASHBOOT"`. */
function choices(values: readonly unknown[]): string {
  const words = values.map(shown);
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.slice(-1).join('')}`;
}

/** A value v2 would reject, named by its v2 path, with the v1 fields it was made from and what to do. */
function invalid(check: Check, path: string, what: string, todo: string): void {
  const top = path.split(/[.[]/)[0] ?? path;
  const origin = (check.origins.get(top) ?? []).filter((field) => field !== top);
  const from = origin.length ? ` (this body's ${origin.join(', ')})` : '';
  check.problems.push({ field: path, advice: `${what}${from}: ${todo}.` });
}

function missing(check: Check, path: string): void {
  const hint = hasOwn(check.map.whenMissing, path) ? check.map.whenMissing[path] : undefined;
  if (hint !== undefined) {
    check.problems.push({ field: path, advice: hint });
    return;
  }
  const v1 = Object.keys(check.map.fields).filter((field) => {
    const rule = check.map.fields[field];
    return rule !== undefined && rule.kind === 'rename' && rule.to === path;
  });
  check.problems.push({ field: path, advice: `v2 requires it: set ${v1.length ? `${v1.join(' or ')} (${path} in v2)` : 'it'}.` });
}

function stringProblems(check: Check, schema: V2Schema, value: string, path: string): void {
  if (schema.minLength !== undefined && value.length < schema.minLength) invalid(check, path, 'v2 rejects an empty value here', 'set one');
  else if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) invalid(check, path, `v2 takes only values matching /${schema.pattern}/, not ${shown(value)}`, 'correct it');
}

function numberProblems(check: Check, schema: V2Schema, value: number, path: string): void {
  if (schema.minimum !== undefined && value < schema.minimum) invalid(check, path, `v2 takes ${schema.minimum} or more, not ${value}`, 'raise it');
  else if (schema.maximum !== undefined && value > schema.maximum) invalid(check, path, `v2 takes ${schema.maximum} or less, not ${value}`, 'lower it');
}

function listProblems(check: Check, schema: V2Schema, value: readonly unknown[], path: string): void {
  const entries = (n: number): string => `${n} ${n === 1 ? 'entry' : 'entries'}`;
  if (schema.minItems !== undefined && value.length < schema.minItems) invalid(check, path, `v2 takes at least ${entries(schema.minItems)} here, not ${value.length}`, 'add them');
  if (schema.maxItems !== undefined && value.length > schema.maxItems) invalid(check, path, `v2 takes at most ${entries(schema.maxItems)} here, not ${value.length}`, 'keep only that many');
  const items = schema.items;
  if (items !== undefined) value.forEach((item, i) => schemaProblems(check, items, item, `${path}[${i}]`));
}

function objectProblems(check: Check, schema: V2Schema, value: Record<string, unknown>, path: string): void {
  const properties = schema.properties ?? {};
  for (const key of schema.required ?? []) if (value[key] === undefined) missing(check, at(path, key));
  for (const key of Object.keys(value)) {
    const item = value[key];
    // JSON leaves undefined out: v2 never sees it.
    if (item === undefined) continue;
    const known = hasOwn(properties, key) ? properties[key] : undefined;
    const other = schema.additionalProperties;
    if (known !== undefined) schemaProblems(check, known, item, at(path, key));
    else if (other === false) {
      const where = path === '' ? 'this body' : path;
      invalid(check, at(path, key), `v2 has no such field in ${where}`, `remove it (${where} takes ${Object.keys(properties).join(', ')})`);
    } else if (other !== undefined) schemaProblems(check, other, item, at(path, key));
  }
}

/** The property whose `const` tells the shapes apart (scaling's type). */
function discriminator(variants: readonly V2Schema[]): string | undefined {
  const first = variants[0]?.properties ?? {};
  return Object.keys(first).find((key) => variants.every((variant) => variant.properties?.[key]?.const !== undefined));
}

function variantProblems(check: Check, variants: readonly V2Schema[], value: unknown, path: string): void {
  const tag = discriminator(variants);
  if (tag !== undefined && isRecord(value)) {
    const variant = variants.find((v) => v.properties?.[tag]?.const === value[tag]);
    if (variant !== undefined) return schemaProblems(check, variant, value, path);
    if (value[tag] === undefined) return missing(check, at(path, tag));
    const tags = variants.map((v) => v.properties?.[tag]?.const);
    return invalid(check, at(path, tag), `v2 takes ${choices(tags)}, not ${shown(value[tag])}`, 'use one of them');
  }
  // Not an object: the first shape names what v2 takes.
  const first = variants[0];
  if (first !== undefined) schemaProblems(check, first, value, path);
}

function schemaProblems(check: Check, schema: V2Schema, value: unknown, path: string): void {
  if (schema.oneOf !== undefined) return variantProblems(check, schema.oneOf, value, path);
  const types = schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : schema.type;
  if (types.length && !types.some((type) => fitsType(type, value))) {
    return invalid(check, path, `v2 takes ${types.map(typeWords).join(' or ')} here, not ${typeWords(jsonType(value))} (${shown(value)})`, 'convert it');
  }
  const allowed = schema.enum ?? (schema.const === undefined ? undefined : [schema.const]);
  if (allowed !== undefined && !allowed.includes(value)) return invalid(check, path, `v2 takes ${choices(allowed)}, not ${shown(value)}`, allowed.length > 1 ? 'use one of them' : 'use it');
  if (typeof value === 'string') stringProblems(check, schema, value, path);
  else if (typeof value === 'number') numberProblems(check, schema, value, path);
  else if (Array.isArray(value)) listProblems(check, schema, value, path);
  else if (isRecord(value)) objectProblems(check, schema, value, path);
}

/** The value at a dotted path of the body, or undefined. */
function valueAt(body: unknown, path: string): unknown {
  let value = body;
  for (const key of path.split('.')) value = isRecord(value) && hasOwn(value, key) ? value[key] : undefined;
  return value;
}

function holds(test: FieldTest, body: unknown): boolean {
  const value = valueAt(body, test.path);
  if (test.equals !== undefined) return value === test.equals;
  const empty = value === '' || (Array.isArray(value) && value.length === 0);
  const there = value !== undefined && !(test.nonEmpty === true && empty);
  return test.absent === true ? !there : there;
}

/** What v2 would reject in the body built: its schema, then its rules across fields. */
function v2Problems(map: BodyMap, body: Record<string, unknown>, origins: ReadonlyMap<string, readonly string[]>): Problem[] {
  const check: Check = { map, origins, problems: [] };
  schemaProblems(check, map.v2, body, '');
  for (const rule of map.rules) {
    if (rule.when.every((test) => holds(test, body)) && !holds(rule.then, body)) check.problems.push({ field: rule.then.path, advice: rule.advice });
  }
  return check.problems;
}

/** `field: advice` for each field, the first advice for a field named twice. */
function described(problems: readonly Problem[]): string {
  const advice = new Map<string, string>();
  for (const p of problems) if (!advice.has(p.field)) advice.set(p.field, p.advice);
  return [...advice].map(([field, text]) => `${field}: ${text}`).join(' ');
}

/**
 * The v2 body for a v1 body: renamed and restructured fields, v2-required fields inserted. Throws an
 * Error naming every field v2 has no place for, with what to do instead; then, on the body built,
 * every value v2 would reject (a required field missing, a value outside its enum, a wrong type, two
 * fields v2 takes only one of). null and undefined pass.
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
  /** v2 field → the v1 fields it was made from, for the errors of the final check. */
  const origins = new Map<string, readonly string[]>();

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
    for (const [key] of built.writes) origins.set(key, built.consumes);
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
    if (rule !== undefined && rule.kind === 'rename') {
      out[rule.to] = value;
      origins.set(rule.to, [key]);
    } else if (rule === undefined || rule.kind !== 'drop') out[key] = value;
  }

  for (const insert of map.inserts) {
    if (out[insert.key] !== undefined || insert.unlessPresent.some((field) => props.has(field))) continue;
    if (insert.onlyWhen !== undefined && !insert.onlyWhen.values.includes(props.get(insert.onlyWhen.field))) continue;
    out[insert.key] = JSON.parse(JSON.stringify(insert.value));
  }

  if (problems.length) throw new Error(`${map.adapter}: this ${map.operation} body cannot be converted to v2. ${described(problems)}`);
  const rejected = v2Problems(map, out, origins);
  if (rejected.length) throw new Error(`${map.adapter}: v2 would reject this ${map.operation} body (HTTP 422). ${described(rejected)}`);
  return out;
}
