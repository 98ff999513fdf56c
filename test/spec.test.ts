/**
 * The migration map against the published specs (../shared/spec/, next to the repository):
 * every v2 target exists in the v2 spec with its method, the map and the v1 spec list the same
 * v1 operations, and the GPU pool table names GPU types v1 endpoints accepted. Skipped, with the reason printed, when the spec folder is not there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DOCUMENTED_GPU_POOLS } from '../src/map/gpu-pools.js';
import { V1_OPERATIONS, V2_PATH_PREFIX } from '../src/map/operations.js';

const ROOT = new URL('..', import.meta.url);
const SPEC_DIR = new URL('../shared/spec/', ROOT);
const V1_SPEC = new URL('runpod-v1.openapi.json', SPEC_DIR);
const V2_SPEC = new URL('runpod-v2.openapi.json', SPEC_DIR);

const present = existsSync(fileURLToPath(V1_SPEC)) && existsSync(fileURLToPath(V2_SPEC));
if (!present) {
  console.warn(`spec.test.ts: skipped, the OpenAPI specs are not at ${fileURLToPath(SPEC_DIR)} (expected runpod-v1.openapi.json and runpod-v2.openapi.json).`);
}

/** v1 operations that are documentation, not API: the map leaves them out on purpose. */
const NOT_MIGRATED = new Set(['GET /openapi.json', 'GET /docs']);

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface OpenApi {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, { properties?: Record<string, { items?: { enum?: string[] } }> }> };
}

/** Every `METHOD /path` a spec declares. */
function operationsOf(spec: OpenApi): Set<string> {
  const out = new Set<string>();
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of Object.keys(item)) if (HTTP_METHODS.includes(method)) out.add(`${method.toUpperCase()} ${path}`);
  }
  return out;
}

const load = (url: URL): OpenApi => JSON.parse(readFileSync(fileURLToPath(url), 'utf8')) as OpenApi;

describe.skipIf(!present)('migration map vs. OpenAPI specs', () => {
  const v1 = present ? operationsOf(load(V1_SPEC)) : new Set<string>();
  const v2 = present ? operationsOf(load(V2_SPEC)) : new Set<string>();
  const mapped = V1_OPERATIONS.map((op) => `${op.method} ${op.path}`);

  it('every v2 target the map can produce exists in the v2 spec with that method', () => {
    const targets = V1_OPERATIONS.flatMap((op) => (op.v2 ? [`${op.v2.method} ${V2_PATH_PREFIX}${op.v2.path}`] : []));
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((t) => !v2.has(t))).toEqual([]);
  });

  it('every v1 operation in the map exists in the v1 spec with that method and path', () => {
    expect(mapped.filter((m) => !v1.has(m))).toEqual([]);
  });

  it('every v1 spec operation is in the map (except the schema and docs pages)', () => {
    const inMap = new Set(mapped);
    expect([...v1].filter((o) => !NOT_MIGRATED.has(o) && !inMap.has(o))).toEqual([]);
    expect([...NOT_MIGRATED].filter((o) => !v1.has(o)), 'the exceptions must be real v1 operations').toEqual([]);
  });

  it('lists each v1 operation once', () => {
    expect(mapped.length).toBe(new Set(mapped).size);
  });

  it('the GPU pool table names v1 endpoint GPU types, each in one pool', () => {
    const types = Object.values(DOCUMENTED_GPU_POOLS).flat();
    const v1Types = present ? (load(V1_SPEC).components.schemas.EndpointCreateInput?.properties?.gpuTypeIds?.items?.enum ?? []) : [];
    expect(v1Types.length).toBeGreaterThan(0);
    expect(types.filter((t) => !v1Types.includes(t))).toEqual([]);
    expect(types.length).toBe(new Set(types).size);
  });
});
