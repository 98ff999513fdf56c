import { withDocumentedPools } from '../map/gpu-pools.js';
import { BODY_MAPPINGS, v1BodyDiffers, type BodyMapping, type BodyOperationId } from '../map/bodies.js';
import { V2_CROSS_FIELD_RULES } from '../map/body-rules.js';
import { V1_OPERATIONS, V2_PATH_PREFIX } from '../map/operations.js';
import { v2BodySchemas } from '../map/schemas.js';
import { toSource } from '../js/body/text.js';
import type { BodyMap, FieldRule, Insert, V2Schema } from './runtime.js';
import { runtimeJavaScript, runtimeTypeScript } from './strip.js';
import { typeDeclaration } from './types.js';
import { GENERATED_MARK } from './adapter-file.js';
import { v2Schema, v2SchemaText } from './v2-schema.js';
import { LIST_QUERY, LIST_QUERY_NAME, listQuerySource } from './list-query.js';

/**
 * The adapter file v2-migrate writes into a project whose code builds request bodies at run time:
 * one `toV2<Operation>Body(body)` per operation, each the runtime (src/adapters/runtime.ts) applied
 * to that operation's map, printed here as data from the migration map.
 */
export interface AdapterOptions {
  language: 'ts' | 'js';
  /** GPU type name → v2 serverless pool id (config `gpuPools`), on top of RunPod's documented pools. */
  gpuPools: Readonly<Record<string, string>>;
  /** Write the v1 defaults v2 no longer applies into creates (config `preserveV1Defaults`). */
  preserveV1Defaults?: boolean;
}

/** What a generated adapter file exports: a body adapter per operation, and the list-query guard. */
export type AdapterExport = BodyOperationId | typeof LIST_QUERY;

export const isBodyOperation = (op: AdapterExport): op is BodyOperationId => op !== LIST_QUERY;

export function adapterName(op: AdapterExport): string {
  return isBodyOperation(op) ? `toV2${op}Body` : LIST_QUERY_NAME;
}

/** False for operations whose v1 body is already a v2 body (only fields kept as they are). */
export function needsAdapter(op: BodyOperationId): boolean {
  return v1BodyDiffers(BODY_MAPPINGS[op]);
}

const typeName = (op: BodyOperationId): string => `V2${op}Body`;
const constName = (op: BodyOperationId): string => op.replace(/(?<=[a-z])(?=[A-Z])/g, '_').toUpperCase();
const schemaConstName = (op: BodyOperationId): string => `${constName(op)}_V2`;
const q = (value: unknown): string => toSource(value, "'");

/** The advice for a v2-required field v1 filled in by default, when the adapters do not write the default. */
function whenMissing(mapping: BodyMapping, v2: V2Schema, preserveV1Defaults: boolean): Record<string, string> {
  if (preserveV1Defaults) return {};
  const required = new Set(v2.required ?? []);
  const advice: Record<string, string> = {};
  for (const d of mapping.v1Defaults ?? []) {
    if (!required.has(d.key)) continue;
    const value = JSON.stringify(d.value);
    advice[d.key] = `v2 requires it and v1's default ${value} is gone: set it, or set "preserveV1Defaults": true in the v2-migrate config and run v2-migrate again to have the adapters send ${value}.`;
  }
  return advice;
}

/** The migration map of one operation, as data for toV2Body (the adapters' runtime, also used to rewrite visible JSON bodies). */
export function bodyMap(op: BodyOperationId, mapping: BodyMapping, preserveV1Defaults: boolean): BodyMap {
  const create = op.startsWith('Create');
  const v2 = v2Schema(mapping.v2Schema, v2BodySchemas()[mapping.v2Schema]);
  const fields: Record<string, FieldRule> = {};
  for (const [field, rule] of Object.entries(mapping.fields)) fields[field] = rule.kind === 'drop' ? { kind: 'drop' } : rule;
  const inserts: Insert[] = [];
  if (create) {
    for (const r of mapping.required ?? []) inserts.push({ key: r.key, value: r.value, unlessPresent: r.unlessPresent });
    // v1 defaults apply when every field that sets them is absent: one list for the runtime.
    for (const d of preserveV1Defaults ? (mapping.v1Defaults ?? []) : []) {
      inserts.push({ key: d.key, value: d.value, unlessPresent: [...d.absent, ...(d.unlessPresent ?? [])], ...(d.onlyWhen ? { onlyWhen: d.onlyWhen } : {}) });
    }
  }
  return {
    operation: op,
    adapter: adapterName(op),
    create,
    fields,
    v2,
    rules: V2_CROSS_FIELD_RULES[mapping.v2Schema],
    whenMissing: whenMissing(mapping, v2, preserveV1Defaults),
    builders: mapping.builders,
    inserts,
  };
}

function mapText(op: BodyOperationId, map: BodyMap, ts: boolean): string {
  const fields = Object.entries(map.fields).map(([field, rule]) => `    ${field}: ${q(rule)},`);
  const rules = map.rules.map((rule) => `    ${q(rule)},`);
  const inserts = map.inserts.map((insert) => `    ${q(insert)},`);
  return [
    `const ${constName(op)}${ts ? ': BodyMap' : ''} = {`,
    `  operation: ${q(map.operation)},`,
    `  adapter: ${q(map.adapter)},`,
    `  create: ${map.create},`,
    `  fields: {`,
    ...fields,
    `  },`,
    `  v2: ${schemaConstName(op)},`,
    rules.length ? `  rules: [\n${rules.join('\n')}\n  ],` : '  rules: [],',
    `  whenMissing: ${Object.keys(map.whenMissing).length ? q(map.whenMissing) : '{}'},`,
    `  builders: ${q(map.builders)},`,
    inserts.length ? `  inserts: [\n${inserts.join('\n')}\n  ],` : '  inserts: [],',
    '};',
  ].join('\n');
}

/** `v1: POST /pods. v2: POST /v2/pods.` for the adapter's comment. */
function routes(op: BodyOperationId): string {
  const v1 = V1_OPERATIONS.filter((o) => o.id === op);
  const v2 = v1.find((o) => o.v2)?.v2;
  return `v1: ${v1.map((o) => `${o.method} ${o.path}`).join(', ')}.${v2 ? ` v2: ${v2.method} ${V2_PATH_PREFIX}${v2.path}.` : ''}`;
}

function adapterText(op: BodyOperationId, pools: string, ts: boolean): string {
  const name = adapterName(op);
  const doc = [
    '/**',
    ` * ${op}: a v1 body reshaped for v2.`,
    ` * ${routes(op)}`,
    ' * Throws an Error naming each field v2 has no place for, or each value v2 would reject in the body',
    ' * built (a required field missing, a value outside its enum, …); null and undefined are returned as they are.',
    ' */',
  ].join('\n');
  const call = `  return toV2Body(${constName(op)}, ${pools}, body);`;
  if (!ts) return `${doc}\nexport function ${name}(body) {\n${call}\n}`;
  const type = typeName(op);
  return [
    doc,
    `export function ${name}(body: object): ${type};`,
    `export function ${name}<T extends null | undefined>(body: T): T;`,
    `export function ${name}(body: unknown): ${type} | null | undefined;`,
    `export function ${name}(body: unknown): unknown {`,
    call,
    '}',
  ].join('\n');
}

function header(ops: readonly AdapterExport[], options: AdapterOptions): string {
  const pools = Object.keys(options.gpuPools).length;
  return [
    '/**',
    ` * ${GENERATED_MARK}`,
    ' *',
    ' * Some of your code builds RunPod request bodies at run time in the retired v1 shape, which',
    ' * v2-migrate cannot rewrite in the source. Each toV2…Body(body) below reshapes such a body the way',
    ' * v2-migrate rewrites a literal one: fields renamed, nested into gpu, cpu, mounts, workers and',
    ' * scaling, and the fields v2 requires on create added. A field with no v2 equivalent, and any value',
    ' * v2 would reject in the body built (checked against the v2 schema below), makes it throw an Error',
    ' * that names the field and what to do instead, before the request is sent.',
    ' *',
    ` * Operations: ${ops.filter(isBodyOperation).join(', ') || 'none'}.${ops.includes(LIST_QUERY) ? ` And ${LIST_QUERY_NAME}(operation, query), which throws on a v1 list filter v2 would ignore.` : ''}`,
    ` * Options: preserveV1Defaults ${!!options.preserveV1Defaults}; gpuPools for ${pools} GPU type${pools === 1 ? '' : 's'}.`,
    ' *',
    ' * Remove it once your code builds v2 bodies itself: replace each toV2…Body(x) call by a v2 body.',
    ' */',
  ].join('\n');
}

/**
 * The text of one file exporting the adapters of `ops` (sorted, without duplicates). The same input
 * gives the same bytes.
 */
export function adapterSource(exports: readonly AdapterExport[], given: AdapterOptions): string {
  // The same GPU pool table as the static rewrite: RunPod's documented pools, then the config's gpuPools.
  const options = { ...given, gpuPools: withDocumentedPools(given.gpuPools) };
  if (!exports.length) throw new Error('adapterSource: no operations');
  const sorted = [...new Set(exports.filter(isBodyOperation))].sort();
  const guard = exports.includes(LIST_QUERY);
  const ts = options.language === 'ts';
  const maps = sorted.map((op) => [op, bodyMap(op, BODY_MAPPINGS[op], !!options.preserveV1Defaults)] as const);
  const usesPools = maps.some(([, map]) => map.builders.includes('endpoint-gpu'));
  const pools = Object.keys(options.gpuPools)
    .sort()
    .map((type) => `  ${q(type)}: ${q(options.gpuPools[type])},`);
  const sections = [
    header(guard ? [...sorted, LIST_QUERY] : sorted, options),
    ...(ts ? sorted.map((op) => typeDeclaration(typeName(op), v2BodySchemas()[BODY_MAPPINGS[op].v2Schema])) : []),
    ...sorted.map((op) => adapterText(op, usesPools ? 'GPU_POOLS' : '{}', ts)),
    ...(maps.length ? ['// What v2 accepts in each body (v2-migrate\'s schemas of runpod-v2.openapi.json): toV2Body checks the body it built against it.'] : []),
    ...maps.map(([op, map]) => v2SchemaText(schemaConstName(op), map.v2, ts)),
    ...(maps.length ? ['// The migration map of each operation, as data for toV2Body.'] : []),
    ...maps.map(([op, map]) => mapText(op, map, ts)),
    ...(usesPools ? [`/** GPU type name → v2 serverless pool id (gpuPools in the v2-migrate config). */\nconst GPU_POOLS${ts ? ': GpuPools' : ''} = {${pools.length ? `\n${pools.join('\n')}\n` : ''}};`] : []),
    ...(guard ? [listQuerySource(ts)] : []),
    ...(sorted.length ? ['// The runtime: the steps of v2-migrate\'s rewrite of literal bodies, applied to a map above.', (ts ? runtimeTypeScript() : runtimeJavaScript()).trimEnd()] : []),
  ];
  return `${sections.join('\n\n')}\n`;
}
