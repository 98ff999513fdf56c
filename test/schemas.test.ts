import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { v2BodySchemas, type V2BodySchemaName } from '../src/map/schemas.js';
import { REPO } from './helpers.js';

/**
 * The zod v2 body schemas against the official v2 OpenAPI file: required fields, accepted and
 * rejected properties, enums, and every request example in the spec.
 */
const SPEC = path.resolve(REPO, '../shared/spec/runpod-v2.openapi.json');
const present = fs.existsSync(SPEC);
if (!present) console.warn(`[schemas.test] skipped: ${SPEC} not found (the shared spec folder is only beside the repo in CI and on developer machines)`);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe.skipIf(!present)('v2 body schemas match runpod-v2.openapi.json', () => {
  const spec: Json = present ? JSON.parse(fs.readFileSync(SPEC, 'utf8')) : {};
  const schemas: Json = spec.components?.schemas ?? {};
  const deref = (s: Json): Json => (s.$ref ? deref(schemas[s.$ref.split('/').pop()]) : s);

  /** Merge allOf parts into one { properties, required }. */
  function flatten(s: Json): { properties: Json; required: string[] } {
    const d = deref(s);
    const out = { properties: { ...(d.properties ?? {}) }, required: [...(d.required ?? [])] };
    for (const part of d.allOf ?? []) {
      const f = flatten(part);
      Object.assign(out.properties, f.properties);
      out.required.push(...f.required);
    }
    return out;
  }

  /** A plausible valid value for a property schema. */
  function sample(s: Json): unknown {
    const d = deref(s);
    if (d.allOf && !d.properties && deref(d.allOf[0]).enum) return sample(d.allOf[0]);
    if (d.oneOf) return sample(d.oneOf[0]);
    if (d.enum) return d.enum[0];
    const type = Array.isArray(d.type) ? d.type.find((t: string) => t !== 'null') : d.type;
    if (type === 'string') return d.pattern ? '12.8' : d.minLength ? 'x'.repeat(d.minLength) : 'x';
    if (type === 'integer' || type === 'number') return d.minimum ?? 1;
    if (type === 'boolean') return true;
    if (type === 'array') return d.items ? [sample(d.items)] : [];
    const f = flatten(d);
    if (type === 'object' || Object.keys(f.properties).length) {
      if (d.additionalProperties && typeof d.additionalProperties === 'object') return { K: sample(d.additionalProperties) };
      return Object.fromEntries(f.required.map((k) => [k, sample(f.properties[k])]));
    }
    return 'x';
  }

  const names = Object.keys(v2BodySchemas()) as V2BodySchemaName[];

  // A skipped describe still runs its body to collect tests: build nothing from an absent spec.
  for (const name of present ? names : []) {
    describe(name, () => {
      const zod = v2BodySchemas()[name];
      const f = flatten(schemas[name]);
      const minimal: Json = Object.fromEntries(f.required.map((k) => [k, sample(f.properties[k])]));
      // The spec's top-level if/then: image is required unless templateId is set.
      if ((name === 'CreatePodRequest' || name === 'CreateEndpointRequest') && !minimal.image) minimal.image = 'runpod/base:latest';
      if (name === 'UpdateNetworkVolumeRequest') minimal.name = 'n';

      it('accepts a minimal body with the spec’s required fields', () => {
        expect(zod.safeParse(minimal).error?.issues ?? []).toEqual([]);
      });

      it('rejects a body missing each required field', () => {
        for (const k of f.required) {
          const { [k]: _drop, ...rest } = minimal;
          expect(zod.safeParse(rest).success, `without ${k}`).toBe(false);
        }
      });

      it('accepts every property the spec defines and rejects unknown ones', () => {
        for (const [k, prop] of Object.entries(f.properties)) {
          const body = { ...minimal, [k]: sample(prop as Json) };
          expect(zod.safeParse(body).error?.issues ?? [], `property ${k}`).toEqual([]);
        }
        expect(zod.safeParse({ ...minimal, bogus: 1 }).success).toBe(false);
        expect(zod.safeParse({ ...minimal, gpuTypeIds: ['NVIDIA A40'] }).success).toBe(false);
      });

      it('has the spec’s enums', () => {
        for (const [k, prop] of Object.entries(f.properties)) {
          const d = deref(prop as Json);
          const e = d.enum ?? (d.allOf ? deref(d.allOf[0]).enum : undefined);
          if (!e) continue;
          for (const v of e) {
            // The spec's top-level if/then: a LOAD_BALANCER endpoint must scale on REQUEST_COUNT.
            const extra = k === 'type' && v === 'LOAD_BALANCER' ? { scaling: { type: 'REQUEST_COUNT', requestCount: 1 } } : {};
            expect(zod.safeParse({ ...minimal, ...extra, [k]: v }).success, `${k}=${v}`).toBe(true);
          }
          expect(zod.safeParse({ ...minimal, [k]: 'NOT_IN_ENUM' }).success, `${k} rejects unknown`).toBe(false);
        }
      });
    });
  }

  it('accepts every request-body example in the spec', () => {
    let checked = 0;
    for (const ops of Object.values(spec.paths ?? {}) as Json[]) {
      for (const op of Object.values(ops) as Json[]) {
        const content = op?.requestBody?.content?.['application/json'];
        const ref: string | undefined = content?.schema?.$ref;
        const name = ref?.split('/').pop() as V2BodySchemaName | undefined;
        if (!name || !(name in v2BodySchemas())) continue;
        for (const [exampleName, ex] of Object.entries(content.examples ?? {}) as Array<[string, Json]>) {
          expect(v2BodySchemas()[name].safeParse(ex.value).error?.issues ?? [], `${name} example ${exampleName}`).toEqual([]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(5);
  });
});
