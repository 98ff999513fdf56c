/**
 * The generated adapters check the v2 body they built before it is sent (src/adapters/runtime.ts,
 * v2Problems): the issue's cases with their exact errors; the rules across fields against the zod
 * schemas they restate; and, for every adapter, every required field and enum of its v2 request
 * schema — read from runpod-v2.openapi.json when the shared folder is there, and from the
 * repository's own schemas always — a body that breaks it makes the adapter throw naming the field,
 * and every valid body passes unchanged.
 */
import { toJSONSchema } from 'zod';
import { describe, expect, it } from 'vitest';
import { adapterName, type AdapterOptions } from '../src/adapters/generate.js';
import type { FieldTest } from '../src/adapters/runtime.js';
import { BODY_MAPPINGS, type BodyOperationId, type V2BodySchemaName } from '../src/map/bodies.js';
import { V2_CROSS_FIELD_RULES } from '../src/map/body-rules.js';
import { v2BodySchemas } from '../src/map/schemas.js';
import { ADAPTED, loadAdapter, thrown } from './adapter-module.js';
import { V2_SPEC, specProblems, v2Spec, v2SpecPresent, type Json } from './v2-spec.js';

type Options = Omit<AdapterOptions, 'language'>;
const PLAIN: Options = { gpuPools: {} };
const PRESERVE: Options = { gpuPools: {}, preserveV1Defaults: true };

const rejects = (op: BodyOperationId, message: string): string => `${adapterName(op)}: v2 would reject this ${op} body (HTTP 422). ${message}`;

describe('the adapters refuse a body v2 would reject, naming the field and what to do', () => {
  const cases: Array<[string, BodyOperationId, Json, string]> = [
    [
      'a pod create without name (v1 named it "my pod")',
      'CreatePod',
      { imageName: 'runpod/base:1', gpuTypeIds: ['NVIDIA A40'] },
      'name: v2 requires it and v1\'s default "my pod" is gone: set it, or set "preserveV1Defaults": true in the v2-migrate config and run v2-migrate again to have the adapters send "my pod".',
    ],
    ['cloudType ALL, which v2 has no value for', 'CreatePod', { name: 'p', imageName: 'i', cloudType: 'ALL' }, 'cloud: v2 takes "SECURE" or "COMMUNITY", not "ALL" (this body\'s cloudType): use one of them.'],
    ['a string where v2 takes a number', 'CreatePod', { name: 'p', imageName: 'i', containerDiskInGb: '40' }, 'disk: v2 takes an integer here, not a string ("40") (this body\'s containerDiskInGb): convert it.'],
    ['neither image nor templateId', 'CreatePod', { name: 'p' }, 'image: v2 requires image unless templateId is set: set imageName (image in v2) or templateId.'],
    [
      'both gpu and cpu',
      'CreatePod',
      { name: 'p', imageName: 'i', gpu: { id: 'NVIDIA A40' }, cpu: { id: 'cpu3c', vcpuCount: 2 } },
      'cpu: a v2 pod sets exactly one of gpu { id, count } or cpu { id, vcpuCount }: remove one.',
    ],
    [
      'a persistent and a network mount, the persistent one under 10 GB',
      'CreatePod',
      { name: 'p', imageName: 'i', mounts: { persistent: { size: 5, path: '/w' }, network: [{ volumeId: 'v', path: '/n' }] } },
      'mounts.persistent.size: v2 takes 10 or more, not 5: raise it. mounts.network: a v2 pod mounts either a persistent volume or a network volume, not both: choose one (mounts.persistent or mounts.network).',
    ],
    [
      'a CUDA version list with a CUDA floor',
      'CreatePod',
      { name: 'p', imageName: 'i', gpu: { id: 'NVIDIA A40', allowedCudaVersions: ['12.4'], minCudaVersion: '12.0' } },
      'gpu.minCudaVersion: v2 rejects a non-empty allowedCudaVersions together with minCudaVersion: keep one.',
    ],
    ['a field v2 has no place for inside a v2 object', 'CreatePod', { name: 'p', imageName: 'i', gpu: { id: 'NVIDIA A40', colour: 'red' } }, 'gpu.colour: v2 has no such field in gpu: remove it (gpu takes id, count, allowedCudaVersions, minCudaVersion).'],
    ['an endpoint without name, with an unknown type', 'CreateEndpoint', { templateId: 't', type: 'SERVERLESS' }, 'name: v2 requires it: set it. type: v2 takes "QUEUE" or "LOAD_BALANCER", not "SERVERLESS": use one of them.'],
    [
      'a load balancer with the v1 default scaling',
      'CreateEndpoint',
      { name: 'e', templateId: 't', type: 'LOAD_BALANCER' },
      'scaling.type: LOAD_BALANCER endpoints scale on request count: set scaling: { type: "REQUEST_COUNT", requestCount }, or type: "QUEUE".',
    ],
    ['a scaling type v2 does not know', 'UpdateEndpoint', { scaling: { type: 'WORKERS', value: 2 } }, 'scaling.type: v2 takes "QUEUE_DELAY" or "REQUEST_COUNT", not "WORKERS": use one of them.'],
    ['a scaling without its value', 'UpdateEndpoint', { scaling: { type: 'QUEUE_DELAY' } }, 'scaling.queueDelay: v2 requires it: set it.'],
    ['a worker idle timeout over an hour', 'UpdateEndpoint', { idleTimeout: 7200 }, 'workers.idleTimeout: v2 takes 3600 or less, not 7200 (this body\'s idleTimeout): lower it.'],
    ['an unknown template category', 'CreateTemplate', { name: 't', imageName: 'i', category: 'GPU' }, 'category: v2 takes "CPU", "NVIDIA" or "AMD", not "GPU": use one of them.'],
    ['a template without its image', 'CreateTemplate', { name: 't' }, 'image: v2 requires it: set imageName (image in v2).'],
    [
      'a network volume without data center and under 10 GB',
      'CreateNetworkVolume',
      { name: 'n', size: 5 },
      'dataCenter: v2 requires it: set dataCenterId (dataCenter in v2). size: v2 takes 10 or more, not 5: raise it.',
    ],
  ];
  for (const [what, op, body, message] of cases) {
    it(`${adapterName(op)}: ${what}`, async () => {
      const toV2 = await loadAdapter(op, PLAIN);
      expect(thrown(() => toV2(body))).toBe(rejects(op, message));
    });
  }

  it('with preserveV1Defaults, a pod create without name gets v1\'s "my pod"; an empty name is still refused', async () => {
    const toV2 = await loadAdapter('CreatePod', PRESERVE);
    expect(toV2({ imageName: 'i', gpuTypeIds: ['NVIDIA A40'], volumeInGb: 0 })).toEqual({ image: 'i', gpu: { id: 'NVIDIA A40' }, name: 'my pod', ports: ['8888/http', '22/tcp'] });
    expect(thrown(() => toV2({ name: '', imageName: 'i' }))).toBe(rejects('CreatePod', "name: v2 rejects an empty value here: set one."));
  });

  it('a field with no v2 place is reported first; the body is checked once it converts', async () => {
    const toV2 = await loadAdapter('CreatePod', PLAIN);
    expect(thrown(() => toV2({ imageName: 'i', cloudType: 'ALL', countryCodes: ['US'] }))).toMatch(/^toV2CreatePodBody: this CreatePod body cannot be converted to v2\. countryCodes: [^]*$/);
  });
});

type Segment = string | number;

// ---------------------------------------------------------------------------------------------
// The rules across fields restate refinements of the zod schemas: each must agree with them.

/** Per rule (schema and the field it names): a body that breaks it and the same body made right. */
const RULE_CASES: Array<[V2BodySchemaName, string, Json, Json]> = [
  ['CreatePodRequest', 'image', { name: 'p' }, { name: 'p', templateId: 't' }],
  ['CreatePodRequest', 'cpu', { name: 'p', image: 'i', gpu: { id: 'g' }, cpu: { id: 'c', vcpuCount: 2 } }, { name: 'p', image: 'i', cpu: { id: 'c', vcpuCount: 2 } }],
  ['CreatePodRequest', 'mounts.persistent', { name: 'p', image: 'i', cpu: { id: 'c', vcpuCount: 2 }, mounts: { persistent: { size: 20, path: '/w' } } }, { name: 'p', image: 'i', cpu: { id: 'c', vcpuCount: 2 }, mounts: { network: [{ volumeId: 'v', path: '/w' }] } }],
  ['CreatePodRequest', 'mounts.network', { name: 'p', image: 'i', mounts: { persistent: { size: 20, path: '/w' }, network: [] } }, { name: 'p', image: 'i', mounts: { persistent: { size: 20, path: '/w' } } }],
  ['CreatePodRequest', 'gpu.minCudaVersion', { name: 'p', image: 'i', gpu: { id: 'g', allowedCudaVersions: ['12.4'], minCudaVersion: '12.0' } }, { name: 'p', image: 'i', gpu: { id: 'g', allowedCudaVersions: [], minCudaVersion: '12.0' } }],
  ['UpdatePodRequest', 'mounts.network', { mounts: { persistent: { size: 20, path: '/w' }, network: [{ volumeId: 'v', path: '/n' }] } }, { mounts: { network: [{ volumeId: 'v', path: '/n' }] } }],
  ['CreateEndpointRequest', 'image', { name: 'e', type: 'QUEUE', scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } }, { name: 'e', type: 'QUEUE', scaling: { type: 'QUEUE_DELAY', queueDelay: 4 }, image: 'i' }],
  ['CreateEndpointRequest', 'scaling.type', { name: 'e', image: 'i', type: 'LOAD_BALANCER', scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } }, { name: 'e', image: 'i', type: 'LOAD_BALANCER', scaling: { type: 'REQUEST_COUNT', requestCount: 1 } }],
  ['CreateEndpointRequest', 'workers.idleTimeout', { name: 'e', image: 'i', type: 'QUEUE', scaling: { type: 'REQUEST_COUNT', requestCount: 1 }, workers: { idleTimeout: 5 } }, { name: 'e', image: 'i', type: 'QUEUE', scaling: { type: 'REQUEST_COUNT', requestCount: 1 }, workers: { max: 2 } }],
  ['CreateEndpointRequest', 'gpu.minCudaVersion', { name: 'e', image: 'i', type: 'QUEUE', scaling: { type: 'QUEUE_DELAY', queueDelay: 4 }, gpu: { pools: ['ADA_24'], allowedCudaVersions: ['12.4'], minCudaVersion: '12.0' } }, { name: 'e', image: 'i', type: 'QUEUE', scaling: { type: 'QUEUE_DELAY', queueDelay: 4 }, gpu: { pools: ['ADA_24'], minCudaVersion: '12.0' } }],
  ['UpdateEndpointRequest', 'workers.idleTimeout', { scaling: { type: 'REQUEST_COUNT', requestCount: 1 }, workers: { idleTimeout: 5 } }, { scaling: { type: 'QUEUE_DELAY', queueDelay: 1 }, workers: { idleTimeout: 5 } }],
  ['UpdateEndpointRequest', 'gpu.pools', { gpu: { excludedTypes: [] } }, { gpu: { excludedTypes: [], pools: ['ADA_24'] } }],
  ['UpdateEndpointRequest', 'gpu.minCudaVersion', { gpu: { allowedCudaVersions: ['12.4'], minCudaVersion: '12.0' } }, { gpu: { allowedCudaVersions: ['12.4'], minCudaVersion: '' } }],
  ['UpdateNetworkVolumeRequest', 'name', {}, { size: 20 }],
];

const isJson = (value: unknown): value is Json => value !== null && typeof value === 'object';

const valueAt = (body: Json, segments: readonly Segment[]): unknown => segments.reduce<unknown>((v, s) => (isJson(v) ? v[s] : undefined), body);

function holds(test: FieldTest, body: Json): boolean {
  const value = valueAt(body, test.path.split('.'));
  if (test.equals !== undefined) return value === test.equals;
  const there = value !== undefined && !(test.nonEmpty && (value === '' || (Array.isArray(value) && value.length === 0)));
  return test.absent ? !there : there;
}

/** The fields the rules of a schema name for a body: the `then` of each rule it breaks. */
const brokenRules = (schema: V2BodySchemaName, body: Json): string[] =>
  V2_CROSS_FIELD_RULES[schema].filter((rule) => rule.when.every((t) => holds(t, body)) && !holds(rule.then, body)).map((rule) => rule.then.path);

describe('the rules across fields agree with the zod schemas', () => {
  it('every rule has a case', () => {
    const rules = Object.entries(V2_CROSS_FIELD_RULES).flatMap(([schema, list]) => list.map((rule) => `${schema} ${rule.then.path}`));
    expect(RULE_CASES.map(([schema, field]) => `${schema} ${field}`).sort()).toEqual(rules.sort());
  });

  for (const [schema, field, broken, fixed] of RULE_CASES) {
    it(`${schema}: ${field}`, async () => {
      expect(brokenRules(schema, broken), 'the rule reads the broken body as broken').toEqual([field]);
      expect(v2BodySchemas()[schema].safeParse(broken).success, 'zod rejects the broken body').toBe(false);
      expect(brokenRules(schema, fixed), 'the rule accepts the fixed body').toEqual([]);
      expect(v2BodySchemas()[schema].safeParse(fixed).error?.issues ?? [], 'zod accepts the fixed body').toEqual([]);
      const op = ADAPTED.find((o) => BODY_MAPPINGS[o].v2Schema === schema);
      if (!op) return;
      const toV2 = await loadAdapter(op, PLAIN);
      expect(thrown(() => toV2(broken))).toContain(` ${field}: `);
      expect(thrown(() => toV2(fixed))).toBeNull();
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Every required field and enum of each adapter's v2 request schema.

interface Case {
  what: string;
  body: Json;
  /** Breaks the schema at this field (a required field left out, a value outside its enum); else valid or judged by the schema. */
  broken?: string;
}

const shownPath = (segments: readonly Segment[]): string => segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : i ? `.${s}` : s)).join('');

function withValue(body: Json, segments: readonly Segment[], value: unknown): Json {
  const copy = structuredClone(body);
  let holder: Json = copy;
  segments.slice(0, -1).forEach((segment, i) => {
    holder[segment] ??= typeof segments[i + 1] === 'number' ? [] : {};
    holder = holder[segment];
  });
  const last = segments[segments.length - 1]!;
  if (value === undefined) delete holder[last];
  else holder[last] = value;
  return copy;
}

/** A JSON Schema document (the spec, or zod's output) read through its $refs, allOf parts merged. */
class SchemaWalk {
  /** Per schema object: "field required unless another is set" pairs its JSON Schema does not state. */
  private readonly unless = new Map<Json, Array<[string, string]>>();

  constructor(
    private readonly definitions: Json,
    unless: Readonly<Record<string, Array<[string, string]>>> = {},
  ) {
    for (const [name, pairs] of Object.entries(unless)) this.unless.set(definitions[name], pairs);
  }

  private deref(s: Json): Json {
    return s.$ref ? this.deref(this.definitions[s.$ref.split('/').pop()]) : s;
  }

  /** Keywords of `s` and of its allOf parts; `unless` collects "then required B if not required A". */
  flat(s: Json): Json {
    const { allOf, if: condition, then, ...own } = this.deref(s);
    const out: Json = { ...own, properties: { ...own.properties }, required: [...(own.required ?? [])], unless: [...(this.unless.get(s) ?? [])] };
    if (condition?.not?.required?.length === 1 && then?.required) for (const field of then.required) out.unless.push([field, condition.not.required[0]]);
    for (const part of allOf ?? []) {
      const f = this.flat(part);
      for (const [key, value] of Object.entries(f)) if (!(key in own)) out[key] ??= value;
      for (const [key, prop] of Object.entries<Json>(f.properties)) out.properties[key] = { ...prop, ...out.properties[key] };
      out.required.push(...f.required);
      out.unless.push(...f.unless);
    }
    return out;
  }

  values(s: Json): unknown[] | undefined {
    const f = this.flat(s);
    return f.enum ?? (f.const === undefined ? undefined : [f.const]);
  }

  /** A valid value: required fields only, one item per list, the first enum value or variant. */
  sample(s: Json): unknown {
    const f = this.flat(s);
    if (f.oneOf) return this.sample(f.oneOf[0]);
    const values = this.values(s);
    if (values) return values[0];
    const type = [f.type].flat().find((t) => t !== 'null');
    if (type === 'string') return ['x', '12.4'].find((v) => !f.pattern || new RegExp(f.pattern).test(v));
    if (type === 'integer' || type === 'number') return f.minimum ?? 1;
    if (type === 'boolean') return true;
    if (type === 'array') return [this.sample(f.items)];
    const body: Json = Object.fromEntries(f.required.map((key: string) => [key, this.sample(f.properties[key])]));
    for (const [field, unless] of f.unless) if (body[unless] === undefined) body[field] = this.sample(f.properties[field]);
    return body;
  }

  /** Each field of `s` at `at` in `body`: set to a valid value, left out where required, given each enum value and a bad one. */
  *cases(s: Json, at: readonly Segment[], body: Json): Generator<Case> {
    const f = this.flat(s);
    if (f.oneOf) {
      for (const variant of f.oneOf) {
        const withVariant = withValue(body, at, this.sample(variant));
        yield { what: `${shownPath(at)} as ${JSON.stringify(valueAt(withVariant, at))}`, body: withVariant };
        yield* this.cases(variant, at, withVariant);
      }
      return;
    }
    if (f.items) return yield* this.cases(f.items, [...at, 0], withValue(body, [...at, 0], this.sample(f.items)));
    for (const [key, property] of Object.entries<Json>(f.properties)) {
      const here = [...at, key];
      const field = shownPath(here);
      const withField = valueAt(body, here) === undefined ? withValue(body, here, this.sample(property)) : body;
      yield { what: `${field} set`, body: withField };
      if (f.required.includes(key)) yield { what: `${field} left out`, body: withValue(withField, here, undefined), broken: field };
      for (const [required, unless] of f.unless) {
        if (required === key) yield { what: `${field} left out, without ${unless}`, body: withValue(withValue(withField, [...at, unless], undefined), here, undefined), broken: field };
      }
      for (const needed of f.dependentRequired?.[key] ?? []) {
        yield { what: `${field} without ${needed}`, body: withValue(withField, [...at, needed], undefined), broken: shownPath([...at, needed]) };
      }
      const values = this.values(property);
      for (const value of values ?? []) yield { what: `${field}: ${JSON.stringify(value)}`, body: withValue(withField, here, value) };
      if (values) yield { what: `${field} outside its enum`, body: withValue(withField, here, 'NOT_A_V2_VALUE'), broken: field };
      yield* this.cases(property, here, withField);
    }
  }

  /** Every case of a request schema, from its smallest valid body. */
  all(name: string): Case[] {
    const schema = this.definitions[name];
    const smallest = this.sample(schema);
    if (!isJson(smallest)) throw new Error(`${name}: not an object schema`);
    return [{ what: 'the smallest valid body', body: smallest }, ...this.cases(schema, [], smallest)];
  }
}

/** The fields an adapter writes into a create when the body leaves them out. */
function inserted(op: BodyOperationId, options: Options): Json {
  const mapping = BODY_MAPPINGS[op];
  const defaults = options.preserveV1Defaults ? (mapping.v1Defaults ?? []).filter((d) => !d.onlyWhen && !d.unlessPresent) : [];
  return Object.fromEntries([...(mapping.required ?? []), ...defaults].map((insert) => [insert.key, insert.value]));
}

/**
 * For every adapter: each case's body through the adapter. A broken one throws naming the field,
 * unless the adapter writes that field itself (endpoint type and scaling; name with
 * preserveV1Defaults); any other one passes exactly when the schema takes it, and comes out as it
 * went in (with what the adapter adds).
 */
function expectEveryCase(source: string, walk: SchemaWalk, problems: (schema: V2BodySchemaName, body: unknown) => string[]) {
  for (const options of [PLAIN, PRESERVE]) {
    it(`${source}: every required field and enum, preserveV1Defaults ${!!options.preserveV1Defaults}`, async () => {
      const counts = { passed: 0, refused: 0 };
      for (const op of ADAPTED) {
        const schema = BODY_MAPPINGS[op].v2Schema;
        const toV2 = await loadAdapter(op, options);
        for (const c of walk.all(schema)) {
          const what = `${op}: ${c.what}: ${JSON.stringify(c.body)}`;
          let result: unknown;
          const error = thrown(() => (result = toV2(c.body)));
          const adds = inserted(op, options);
          if (c.broken !== undefined && !(c.broken in adds)) {
            expect(problems(schema, c.body), `${what}: the schema rejects it`).not.toEqual([]);
            expect(error, `${what}: the adapter must throw`).not.toBeNull();
            expect(error, `${what}: the error names the field`).toContain(` ${c.broken}: `);
            counts.refused++;
          } else if (problems(schema, { ...adds, ...c.body }).length) {
            expect(error, `${what}: the schema rejects it, so must the adapter`).not.toBeNull();
            counts.refused++;
          } else {
            expect(error, `${what}: the schema takes it`).toBeNull();
            expect(result, what).toMatchObject(c.body);
            expect(problems(schema, result), `${what}: the adapter's body`).toEqual([]);
            counts.passed++;
          }
        }
      }
      // Both outcomes must be common, or the walk tests nothing of one of them.
      expect(counts.passed).toBeGreaterThan(150);
      expect(counts.refused).toBeGreaterThan(40);
    });
  }
}

describe('every adapter against its v2 request schema', () => {
  const zodJson: Json = Object.fromEntries(Object.entries(v2BodySchemas()).map(([name, schema]) => [name, toJSONSchema(schema, { io: 'output' })]));
  // The zod refinement "image unless templateId" is not in zod's JSON Schema: read it off the rules.
  const unless = Object.fromEntries(
    Object.entries(V2_CROSS_FIELD_RULES).map(([name, rules]) => [
      name,
      rules.flatMap((rule): Array<[string, string]> => (rule.when.length === 1 && rule.when[0]!.absent && !rule.then.absent ? [[rule.then.path, rule.when[0]!.path]] : [])),
    ]),
  );
  expectEveryCase('the repository\'s zod schemas', new SchemaWalk(zodJson, unless), (schema, body) => v2BodySchemas()[schema].safeParse(body).error?.issues.map((i) => i.message) ?? []);

  if (!v2SpecPresent) {
    console.warn(`[adapters-validation.test] the runpod-v2.openapi.json cases are skipped: ${V2_SPEC} not found`);
    it.skip('runpod-v2.openapi.json: every required field and enum (the spec is not there)', () => {});
  } else {
    expectEveryCase('runpod-v2.openapi.json', new SchemaWalk(v2Spec().components.schemas), specProblems);
  }
});
