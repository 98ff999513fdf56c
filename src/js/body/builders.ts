import { DECISIONS, GPU_CATALOG_LOOP, type BuilderId } from '../../map/bodies.js';
import { GPU_POOLS_DATE, gpuPoolSelection } from '../../map/gpu-pools.js';
import { shellJoin } from '../../shell/quote.js';
import type { N, P } from '../ast.js';
import type { BodyProp } from './props.js';
import { toSource } from './text.js';
import { UNKNOWN, isKnown, type Static } from './static.js';

export interface BuildInput {
  props: ReadonlyMap<string, BodyProp>;
  source: string;
  quote: string;
  gpuPools: Readonly<Record<string, string>>;
  create: boolean;
  /** The request already targets v2: expressions of unknown type are taken as v2 values. */
  v2: boolean;
}

export interface BuildOutput {
  /** v1 fields replaced by `writes` (the first one's place gets the writes; the rest are removed). */
  consumes: string[];
  writes: Array<{ key: string; text: string; value: Static }>;
  /** Fields left in place for a person, with what to do. */
  decisions: Array<{ field: string; advice: string }>;
  notes: string[];
}

const none = (): BuildOutput => ({ consumes: [], writes: [], decisions: [], notes: [] });
const decide = (fields: string[], advice: string): BuildOutput => ({ ...none(), decisions: fields.map((field) => ({ field, advice })) });

function textOf(input: BuildInput, path: P): string {
  return input.source.slice(path.node.start!, path.node.end!);
}

/** A string literal in the file's quote style, or the other quote when that avoids escapes. */
function quoted(input: BuildInput, s: string): string {
  const other = input.quote === "'" ? '"' : "'";
  return toSource(s, s.includes(input.quote) && !s.includes(other) ? other : input.quote);
}

/** `['a', 'b']` in the file's quote style. */
function stringList(input: BuildInput, items: readonly string[]): string {
  return `[${items.map((s) => quoted(input, s)).join(', ')}]`;
}

function unknownGpuTypesAdvice(unknown: readonly string[]): string {
  const names = unknown.map((n) => JSON.stringify(n)).join(', ');
  const example = unknown.map((n) => `${JSON.stringify(n)}: "<POOL_ID>"`).join(', ');
  return `v2 endpoints take GPU pool ids (gpu.pools), not GPU type names, and ${names} ${unknown.length === 1 ? 'is' : 'are'} in neither RunPod's pool table (${GPU_POOLS_DATE}) nor the config's gpuPools: add "gpuPools": { ${example} } to the v2-migrate config (pool ids: GET /v2/catalog/gpus, field pool) or rewrite by hand.`;
}

/** Elements of an array literal without holes or spreads, else null. */
function elements(prop: BodyProp): P[] | null {
  const n: N = prop.value.node;
  if (n.type !== 'ArrayExpression' || n.elements.some((e) => !e || e.type === 'SpreadElement')) return null;
  return (n.elements as N[]).map((_e, i) => prop.value.get('elements', i));
}

/** `{ a: x, b: y }` from the entries that are present. */
function objectText(entries: Array<[string, string | undefined]>): string {
  const present = entries.filter((e): e is [string, string] => e[1] !== undefined);
  return `{ ${present.map(([k, v]) => `${k}: ${v}`).join(', ')} }`;
}

function objectValue(entries: Array<[string, Static | undefined]>): Record<string, Static> {
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined));
}

const value = (p: BodyProp | undefined): Static => (p ? p.static : undefined);
const present = (input: BuildInput, ...keys: string[]): BodyProp[] => keys.map((k) => input.props.get(k)).filter((p): p is BodyProp => !!p);

function isCpuPod(input: BuildInput): boolean {
  const ct = value(input.props.get('computeType'));
  return ct === 'CPU' || (ct === undefined && input.props.has('cpuFlavorIds'));
}

function podGpu(input: BuildInput): BuildOutput {
  const [ids, count, cuda] = [input.props.get('gpuTypeIds'), input.props.get('gpuCount'), input.props.get('allowedCudaVersions')];
  if (!ids && !count && !cuda) return none();
  if (!ids) {
    if (input.props.has('gpu')) return decide(present(input, 'gpuCount', 'allowedCudaVersions').map((p) => p.key), 'it belongs in gpu (count, allowedCudaVersions), which this body already sets: move it there by hand.');
    if (isCpuPod(input)) return decide(present(input, 'gpuCount', 'allowedCudaVersions').map((p) => p.key), 'GPU settings on a CPU pod have no v2 place: v2 CPU pods take only cpu { id, vcpuCount }.');
    return decide(present(input, 'gpuCount', 'allowedCudaVersions').map((p) => p.key), 'v2 GPU pods need gpu: { id, count }: add the GPU type (gpuTypeIds was not set).');
  }
  const list = elements(ids);
  const several = `v2 pods take one GPU type (gpu: { id, count }) and the server-side fallback list is gone: pick one type, or rebuild the fallback as a client loop over ${GPU_CATALOG_LOOP}.`;
  if (!list) {
    // A constant list: its length still tells a fallback list from a single type.
    if (Array.isArray(ids.static) && ids.static.length !== 1) return decide(['gpuTypeIds'], several);
    return decide(['gpuTypeIds'], `gpuTypeIds is not a literal list, so the tool cannot tell whether it names one type: a v2 pod takes one GPU type (gpu: { id, count }); a list of fallbacks must become a client loop over ${GPU_CATALOG_LOOP}.`);
  }
  if (list.length !== 1) return decide(['gpuTypeIds'], several);
  const id = list[0]!;
  return {
    consumes: present(input, 'gpuTypeIds', 'gpuCount', 'allowedCudaVersions').map((p) => p.key),
    writes: [
      {
        key: 'gpu',
        text: objectText([['id', textOf(input, id)], ['count', count && textOf(input, count.value)], ['allowedCudaVersions', cuda && textOf(input, cuda.value)]]),
        value: objectValue([['id', (ids.static as Static[] | typeof UNKNOWN) === UNKNOWN ? UNKNOWN : (ids.static as Static[])[0]], ['count', value(count)], ['allowedCudaVersions', value(cuda)]]),
      },
    ],
    decisions: [],
    notes: ['gpuTypeIds + gpuCount become gpu { id, count }'],
  };
}

function podCpu(input: BuildInput): BuildOutput {
  const [ct, flavors, vcpu] = [input.props.get('computeType'), input.props.get('cpuFlavorIds'), input.props.get('vcpuCount')];
  if (!ct && !flavors && !vcpu) return none();
  if (ct && !isKnown(ct.static)) return decide(['computeType'], 'computeType is decided at run time: v2 pods set exactly one of gpu { id, count } or cpu { id, vcpuCount } instead.');
  if (!isCpuPod(input)) {
    // A GPU pod: computeType 'GPU' is implied by gpu; vcpuCount only ever applied to CPU pods.
    return { consumes: present(input, 'computeType', 'vcpuCount').map((p) => p.key), writes: [], decisions: [], notes: ['computeType: "GPU" is implied by gpu in v2'] };
  }
  if (!flavors) return decide(['computeType'], 'v2 CPU pods need cpu: { id, vcpuCount }: choose a flavor from GET /v2/catalog/cpus.');
  const list = elements(flavors);
  const several = DECISIONS.cpuFlavorPriority.replace('the fallback order is gone', 'several flavors are no longer accepted');
  if (!list) {
    if (Array.isArray(flavors.static) && flavors.static.length !== 1) return decide(['cpuFlavorIds'], several);
    return decide(['cpuFlavorIds'], 'cpuFlavorIds is not a literal list: a v2 pod takes one CPU flavor (cpu: { id, vcpuCount }).');
  }
  if (list.length !== 1) return decide(['cpuFlavorIds'], several);
  return {
    consumes: present(input, 'computeType', 'cpuFlavorIds', 'vcpuCount').map((p) => p.key),
    writes: [
      {
        key: 'cpu',
        text: objectText([['id', textOf(input, list[0]!)], ['vcpuCount', vcpu ? textOf(input, vcpu.value) : '2']]),
        value: { id: Array.isArray(flavors.static) ? flavors.static[0] : UNKNOWN, vcpuCount: vcpu ? vcpu.static : 2 },
      },
    ],
    decisions: [],
    notes: ['computeType "CPU" + cpuFlavorIds + vcpuCount become cpu { id, vcpuCount }' + (vcpu ? '' : ' (vcpuCount 2 was the v1 default)')],
  };
}

function persistentMount(input: BuildInput, size: BodyProp | undefined, path: BodyProp | undefined): { text: string; value: Static } {
  const q = input.quote;
  const pathText = path ? textOf(input, path.value) : `${q}/workspace${q}`;
  return {
    text: `{ persistent: { size: ${size ? textOf(input, size.value) : '20'}, path: ${pathText} } }`,
    value: { persistent: { size: size ? size.static : 20, path: path ? path.static : '/workspace' } },
  };
}

function podMounts(input: BuildInput): BuildOutput {
  const [size, path, net] = [input.props.get('volumeInGb'), input.props.get('volumeMountPath'), input.props.get('networkVolumeId')];
  if (!size && !path && !net) return none();
  const noVolume = size?.static === 0;
  if (net && size && !noVolume) return decide(['volumeInGb', 'networkVolumeId'], 'a v2 pod mounts either a persistent volume or a network volume, not both: choose one (mounts.persistent or mounts.network).');
  if (net) {
    const q = input.quote;
    const p = path ? textOf(input, path.value) : `${q}/workspace${q}`;
    return {
      consumes: present(input, 'networkVolumeId', 'volumeMountPath', 'volumeInGb').map((x) => x.key),
      writes: [{ key: 'mounts', text: `{ network: [{ volumeId: ${textOf(input, net.value)}, path: ${p} }] }`, value: { network: [{ volumeId: net.static, path: path ? path.static : '/workspace' }] } }],
      decisions: [],
      notes: [`networkVolumeId becomes mounts.network[{ volumeId, path }]${path ? '' : ' (path /workspace, the v1 mount point)'}`],
    };
  }
  if (noVolume) return { consumes: present(input, 'volumeInGb', 'volumeMountPath').map((x) => x.key), writes: [], decisions: [], notes: ['volumeInGb: 0 means no volume: no mounts in v2'] };
  if (isCpuPod(input)) return decide(present(input, 'volumeInGb', 'volumeMountPath').map((x) => x.key), 'v2 forbids persistent volumes on CPU pods: attach a network volume (mounts.network) instead.');
  const sizeProblem = volumeSizeProblem(size);
  if (sizeProblem) return decide(['volumeInGb'], sizeProblem);
  const mount = persistentMount(input, size, path);
  return {
    consumes: present(input, 'volumeInGb', 'volumeMountPath').map((x) => x.key),
    writes: [{ key: 'mounts', ...mount }],
    decisions: [],
    notes: [`volumeInGb + volumeMountPath become mounts.persistent { size, path }${size ? '' : ' (size 20, the v1 default)'}`],
  };
}

/**
 * A volume size v2 cannot take as written: under its 10 GB floor, or decided at run time (v1 read 0 as
 * "no volume", v2 needs either no mounts or a persistent mount of at least 10 GB).
 */
function volumeSizeProblem(size: BodyProp | undefined): string | null {
  if (!size) return null;
  if (typeof size.static === 'number') return size.static < 10 ? 'v2 persistent volumes are at least 10 GB: choose a size of 10 or more.' : null;
  return 'volumeInGb is decided at run time: v1 read 0 as "no volume", v2 needs no mounts in that case and mounts: { persistent: { size, path } } (size ≥ 10 GB) otherwise; build mounts conditionally.';
}

function templateMounts(input: BuildInput): BuildOutput {
  const [size, path] = [input.props.get('volumeInGb'), input.props.get('volumeMountPath')];
  if (!size && !path) return none();
  if (size?.static === 0) return { consumes: present(input, 'volumeInGb', 'volumeMountPath').map((x) => x.key), writes: [], decisions: [], notes: ['volumeInGb: 0 means no volume: no mounts in v2'] };
  const sizeProblem = volumeSizeProblem(size);
  if (sizeProblem) return decide(['volumeInGb'], sizeProblem);
  return { consumes: present(input, 'volumeInGb', 'volumeMountPath').map((x) => x.key), writes: [{ key: 'mounts', ...persistentMount(input, size, path) }], decisions: [], notes: ['volumeInGb + volumeMountPath become mounts.persistent { size, path }'] };
}

function args(input: BuildInput): BuildOutput {
  const cmd = input.props.get('dockerStartCmd');
  if (!cmd) return none();
  const argv = cmd.static;
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) {
    if (typeof argv === 'string') return { consumes: ['dockerStartCmd'], writes: [{ key: 'args', text: textOf(input, cmd.value), value: argv }], decisions: [], notes: ['dockerStartCmd becomes args'] };
    return decide(['dockerStartCmd'], 'dockerStartCmd is built at run time: v2 takes args as one string; join the argv with POSIX shell quoting (an element with spaces must stay one argument).');
  }
  if (argv.length === 0) return { consumes: ['dockerStartCmd'], writes: [], decisions: [], notes: ['an empty dockerStartCmd is the default: no args'] };
  const joined = shellJoin(argv as string[]);
  return { consumes: ['dockerStartCmd'], writes: [{ key: 'args', text: quoted(input, joined), value: joined }], decisions: [], notes: ['dockerStartCmd argv becomes the args string, shell-quoted'] };
}

function endpointGpu(input: BuildInput): BuildOutput {
  const [ids, count, cuda, minCuda] = ['gpuTypeIds', 'gpuCount', 'allowedCudaVersions', 'minCudaVersion'].map((k) => input.props.get(k));
  if (!ids && !count && !cuda && !minCuda) return none();
  if (Array.isArray(cuda?.static) && cuda.static.length > 0 && minCuda) return decide(['allowedCudaVersions', 'minCudaVersion'], 'v2 rejects a non-empty allowedCudaVersions together with minCudaVersion: keep one.');
  let selection: { pools: string[]; excludedTypes: string[] } | undefined;
  if (ids) {
    const names = ids.static;
    if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) return decide(['gpuTypeIds'], 'gpuTypeIds is built at run time: v2 endpoints take GPU pool ids (gpu.pools: ["ADA_24", …]), not GPU type names; map them by hand.');
    if (names.length === 0) return decide(['gpuTypeIds'], 'gpuTypeIds is empty: v2 endpoints need at least one GPU pool in gpu.pools (see GET /v2/catalog/gpus, field pool).');
    const found = gpuPoolSelection(names as string[], input.gpuPools);
    if ('unknown' in found) return decide(['gpuTypeIds'], unknownGpuTypesAdvice(found.unknown));
    selection = found;
  } else if (input.props.has('gpu')) {
    return decide(present(input, 'gpuCount', 'allowedCudaVersions', 'minCudaVersion').map((p) => p.key), 'it belongs in gpu (count, allowedCudaVersions, minCudaVersion), which this body already sets: move it there by hand.');
  } else if (input.create) {
    return decide(present(input, 'gpuCount', 'allowedCudaVersions', 'minCudaVersion').map((p) => p.key), 'v2 endpoint GPU settings need gpu.pools on create: add the GPU types (gpuTypeIds was not set).');
  }
  const excluded = selection?.excludedTypes.length ? selection.excludedTypes : undefined;
  return {
    consumes: present(input, 'gpuTypeIds', 'gpuCount', 'allowedCudaVersions', 'minCudaVersion').map((p) => p.key),
    writes: [
      {
        key: 'gpu',
        text: objectText([['pools', selection && stringList(input, selection.pools)], ['excludedTypes', excluded && stringList(input, excluded)], ['count', count && textOf(input, count.value)], ['allowedCudaVersions', cuda && textOf(input, cuda.value)], ['minCudaVersion', minCuda && textOf(input, minCuda.value)]]),
        value: objectValue([['pools', selection?.pools], ['excludedTypes', excluded], ['count', value(count)], ['allowedCudaVersions', value(cuda)], ['minCudaVersion', value(minCuda)]]),
      },
    ],
    decisions: [],
    notes: selection ? [`gpuTypeIds become gpu.pools (RunPod's pool table of ${GPU_POOLS_DATE} and the config's gpuPools)`, ...(excluded ? ["the pools' unlisted types go to gpu.excludedTypes, so only the listed types run"] : [])] : ['GPU settings move into gpu'],
  };
}

function endpointCpu(input: BuildInput): BuildOutput {
  const [ct, flavors, vcpu] = [input.props.get('computeType'), input.props.get('cpuFlavorIds'), input.props.get('vcpuCount')];
  if (!ct && !flavors && !vcpu) return none();
  if (ct && !isKnown(ct.static)) return decide(['computeType'], 'computeType is decided at run time: v2 endpoints set gpu { pools } or cpu [{ id, vcpuCount }] instead.');
  if (!isCpuPod(input)) return { consumes: present(input, 'computeType', 'vcpuCount').map((p) => p.key), writes: [], decisions: [], notes: ['computeType: "GPU" is implied by gpu in v2'] };
  if (!flavors) return decide(['computeType'], 'v2 CPU endpoints need cpu: [{ id, vcpuCount }]: choose flavors from GET /v2/catalog/cpus.');
  const list = elements(flavors);
  if (!list) return decide(['cpuFlavorIds'], 'cpuFlavorIds is not a literal list: v2 endpoints take cpu: [{ id, vcpuCount }, …], one entry per flavor.');
  const v = vcpu ? textOf(input, vcpu.value) : '2';
  return {
    consumes: present(input, 'computeType', 'cpuFlavorIds', 'vcpuCount').map((p) => p.key),
    writes: [
      {
        key: 'cpu',
        text: `[${list.map((e) => objectText([['id', textOf(input, e)], ['vcpuCount', v]])).join(', ')}]`,
        value: (Array.isArray(flavors.static) ? flavors.static : []).map((id) => ({ id, vcpuCount: vcpu ? vcpu.static : 2 })),
      },
    ],
    decisions: [],
    notes: ['cpuFlavorIds + vcpuCount become cpu [{ id, vcpuCount }, …]'],
  };
}

function workers(input: BuildInput): BuildOutput {
  const [min, max, idle] = ['workersMin', 'workersMax', 'idleTimeout'].map((k) => input.props.get(k));
  if (!min && !max && !idle) return none();
  // v2 rejects idleTimeout with REQUEST_COUNT scaling (v1 or v2 spelling): min/max still move, idleTimeout waits for a person.
  const scaling = value(input.props.get('scaling'));
  const requestCount = value(input.props.get('scalerType')) === 'REQUEST_COUNT' || (!!scaling && typeof scaling === 'object' && (scaling as Record<string, Static>).type === 'REQUEST_COUNT');
  const decisions = idle && requestCount ? [{ field: 'idleTimeout', advice: 'v2 rejects idleTimeout with REQUEST_COUNT scaling: remove it or scale on queue delay.' }] : [];
  const moved = decisions.length ? undefined : idle;
  if (!min && !max && !moved) return { ...none(), decisions };
  return {
    consumes: present(input, 'workersMin', 'workersMax', ...(moved ? ['idleTimeout'] : [])).map((p) => p.key),
    writes: [
      {
        key: 'workers',
        text: objectText([['min', min && textOf(input, min.value)], ['max', max && textOf(input, max.value)], ['idleTimeout', moved && textOf(input, moved.value)]]),
        value: objectValue([['min', value(min)], ['max', value(max)], ['idleTimeout', value(moved)]]),
      },
    ],
    decisions,
    notes: ['workersMin/workersMax/idleTimeout become workers { min, max, idleTimeout }'],
  };
}

function scaling(input: BuildInput): BuildOutput {
  const [type, val] = [input.props.get('scalerType'), input.props.get('scalerValue')];
  if (!type && !val) return none();
  const t = type ? type.static : 'QUEUE_DELAY';
  if (t !== 'QUEUE_DELAY' && t !== 'REQUEST_COUNT') return decide(['scalerType'], 'scalerType is decided at run time: v2 takes scaling: { type: "QUEUE_DELAY", queueDelay } or { type: "REQUEST_COUNT", requestCount }.');
  if (!type && !input.create) return decide(['scalerValue'], 'v2 needs the scaling type with its value (scaling: { type, queueDelay | requestCount }): add the endpoint’s scaler type.');
  const field = t === 'QUEUE_DELAY' ? 'queueDelay' : 'requestCount';
  const q = input.quote;
  return {
    consumes: present(input, 'scalerType', 'scalerValue').map((p) => p.key),
    writes: [{ key: 'scaling', text: `{ type: ${q}${t}${q}, ${field}: ${val ? textOf(input, val.value) : '4'} }`, value: { type: t, [field]: val ? val.static : 4 } }],
    decisions: [],
    notes: [`scalerType/scalerValue become scaling { type, ${field} }${val ? '' : ' (value 4, the v1 default)'}`],
  };
}

const FLASHBOOT_MODES = ['OFF', 'FLASHBOOT', 'PRIORITY_FLASHBOOT'];

function flashboot(input: BuildInput): BuildOutput {
  const fb = input.props.get('flashboot');
  if (!fb) return none();
  const q = input.quote;
  const n: N = fb.value.node;
  if (typeof fb.static === 'boolean') {
    const mode = fb.static ? 'FLASHBOOT' : 'OFF';
    return { consumes: ['flashboot'], writes: [{ key: 'flashboot', text: `${q}${mode}${q}`, value: mode }], decisions: [], notes: ['flashboot is an enum in v2 ("FLASHBOOT" / "OFF")'] };
  }
  const alreadyV2 = (typeof fb.static === 'string' && FLASHBOOT_MODES.includes(fb.static)) || (n.type === 'ConditionalExpression' && [n.consequent, n.alternate].every((b: N) => b.type === 'StringLiteral' && FLASHBOOT_MODES.includes(b.value)));
  if (alreadyV2 || input.v2) return none();
  const expr = textOf(input, fb.value);
  const simple = /^[\w$.]+$/.test(expr);
  return { consumes: ['flashboot'], writes: [{ key: 'flashboot', text: `${simple ? expr : `(${expr})`} ? ${q}FLASHBOOT${q} : ${q}OFF${q}`, value: UNKNOWN }], decisions: [], notes: ['flashboot is an enum in v2 ("FLASHBOOT" / "OFF")'] };
}

function networkVolumes(input: BuildInput): BuildOutput {
  const [one, many] = [input.props.get('networkVolumeId'), input.props.get('networkVolumeIds')];
  if (!one && !many) return none();
  const text = one && many ? `[${textOf(input, one.value)}, ...${textOf(input, many.value)}]` : one ? `[${textOf(input, one.value)}]` : textOf(input, many!.value);
  const v = one && many ? UNKNOWN : one ? [one.static] : many!.static;
  return { consumes: present(input, 'networkVolumeId', 'networkVolumeIds').map((p) => p.key), writes: [{ key: 'networkVolumes', text, value: v }], decisions: [], notes: ['networkVolumeId(s) become networkVolumes [ids]'] };
}

export const BUILDERS: Readonly<Record<BuilderId, (input: BuildInput) => BuildOutput>> = {
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
