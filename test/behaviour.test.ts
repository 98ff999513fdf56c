/**
 * Behaviour, not text: a v1 client module (test/behaviour/runpod-client.v1.mjs) is migrated by the
 * engine (migrateSource, the same code the CLI runs), then both versions are loaded and run, the v1
 * one against a stub that answers like REST v1 (bare arrays, `{ message }` errors) and the migrated
 * one against v2-migrate/testing (MSW handlers that answer like REST v2: `{ pods }`, `{ records,
 * metadata }`, RFC 9457 errors, every request checked with the v2 schemas), seeded with the same
 * account. Every exported function must return the same value from both, and the migrated module must
 * send exactly the v2 requests (method, URL, JSON body).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrateSource, type MigrateOptions } from '../src/pipeline/js.js';
import { runpodV2 } from '../src/testing/index.js';
import { tempDir } from './helpers.js';

const FILE = 'test/behaviour/runpod-client.v1.mjs';
const SOURCE = readFileSync(fileURLToPath(new URL(`../${FILE}`, import.meta.url)), 'utf8');
const OPTIONS: MigrateOptions = { bases: { legacy: ['https://rest.runpod.io/v1'], target: 'https://api.runpod.io/v2' } };

interface Sent {
  method: string;
  url: string;
  body: unknown;
}
interface Reply {
  status: number;
  body: unknown;
}
type Server = (method: string, url: URL, body: unknown) => Reply;

// One account, seen through each API. Exited pods cost nothing in both.
const PODS_V1 = [
  { id: 'p1', name: 'trainer', desiredStatus: 'RUNNING', costPerHr: 0.74, imageName: 'runpod/pytorch:2.1', containerDiskInGb: 50 },
  { id: 'p2', name: 'idle', desiredStatus: 'EXITED', costPerHr: 0, imageName: 'runpod/base:0.4', containerDiskInGb: 20 },
  { id: 'p3', name: 'server', desiredStatus: 'RUNNING', costPerHr: 0.39, imageName: 'vllm/vllm:0.6', containerDiskInGb: 80 },
];
const PODS_V2 = PODS_V1.map((p) => ({ id: p.id, name: p.name, status: p.desiredStatus, cost: p.costPerHr, image: p.imageName, disk: p.containerDiskInGb }));
const TEMPLATES = [{ id: 't1', name: 'pytorch' }, { id: 't2', name: 'comfy' }];
const VOLUMES_V1 = [{ id: 'v1', name: 'data', size: 50, dataCenterId: 'EU-RO-1' }, { id: 'v2', name: 'models', size: 200, dataCenterId: 'US-TX-3' }];
const SERVERLESS_RECORDS = [1.5, 2.25, 0.75];

const ok = (body: unknown): Reply => ({ status: 200, body });
const v1Error = (status: number, message: string): Reply => ({ status, body: { message } });

const v1Server: Server = (method, url, body) => {
  const route = `${method} ${url.pathname}`;
  switch (route) {
    case 'GET /v1/pods':
      return ok(PODS_V1);
    case 'GET /v1/pods/p1':
      return ok(PODS_V1[0]);
    case 'POST /v1/pods/p1/stop':
      return ok({});
    case 'DELETE /v1/pods/gone':
      return v1Error(404, 'pod not found');
    case 'POST /v1/templates':
      return ok({ id: 'tpl_1', ...(body as object) });
    case 'POST /v1/templates/t1/update':
      return ok({ ...TEMPLATES[0], ...(body as object) });
    case 'GET /v1/templates':
      return ok(TEMPLATES);
    case 'GET /v1/endpoints/e1':
      return ok({ id: 'e1', workersMin: 0, workersMax: 3, scalerType: 'QUEUE_DELAY', scalerValue: 4 });
    case 'GET /v1/billing/endpoints': {
      const records = SERVERLESS_RECORDS.map((amount, i) => ({ time: `2026-06-0${i + 1}T00:00:00Z`, amount, endpointId: 'e1' }));
      return url.searchParams.get('endpointId') === 'e1' ? ok(records) : ok([...records, { amount: 100, endpointId: 'other' }]);
    }
    case 'GET /v1/networkvolumes':
      return ok(VOLUMES_V1);
  }
  return v1Error(404, `no route ${route}`);
};

const SERVERLESS_BILLING = SERVERLESS_RECORDS.map((totalAmount, i) => ({ startTime: `2026-06-0${i + 1}T00:00:00Z`, endTime: `2026-06-0${i + 2}T00:00:00Z`, totalAmount, serverlessId: 'e1' }));

/** The same account on v2: what v2-migrate/testing is seeded with. */
const contract = runpodV2({
  pods: PODS_V2,
  templates: TEMPLATES,
  endpoints: [{ id: 'e1', name: 'whisper', workers: { min: 0, max: 3 }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } }],
  networkVolumes: VOLUMES_V1.map((v) => ({ id: v.id, name: v.name, size: v.size, dataCenter: v.dataCenterId, type: 'STANDARD' })),
  // The trap: /v2/billing/endpoints bills *public* endpoints, a different product.
  billing: { serverless: [...SERVERLESS_BILLING, { ...SERVERLESS_BILLING[0]!, totalAmount: 100, serverlessId: 'other' }], endpoints: [{ startTime: '2026-06-01T00:00:00Z', endTime: '2026-06-02T00:00:00Z', totalAmount: 999 }] },
});
const v2Server = setupServer(...contract.handlers);

function stubFetch(server: Server, sent: Sent[]): void {
  vi.stubGlobal('fetch', async (input: string | URL, init?: { method?: string; body?: string }) => {
    const url = new URL(String(input));
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = init?.body === undefined ? undefined : JSON.parse(init.body);
    sent.push({ method, url: url.href, body });
    const reply = server(method, url, body);
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } });
  });
}

type Module = Record<string, (...args: string[]) => Promise<unknown>>;

/** The calls the test makes, in order, with their arguments. */
const CALLS: Array<[string, ...string[]]> = [
  ['runningPodNames'],
  ['hourlySpend'],
  ['podImage', 'p1'],
  ['stopPod', 'p1'],
  // Before the template calls: v2-migrate/testing keeps state, as v2 does (the v1 stub does not).
  ['templateNames'],
  ['renameTemplate', 't1', 'torch'],
  ['createTemplate', 'mine', 'me/app:1'],
  ['endpointScale', 'e1'],
  ['serverlessSpend', 'e1'],
  ['volumeRegions'],
  ['deletePod', 'gone'],
];

const V2 = 'https://api.runpod.io/v2';
/** What the migrated module must send, in order. */
const EXPECTED_V2_REQUESTS: Sent[] = [
  { method: 'GET', url: `${V2}/pods`, body: undefined },
  { method: 'GET', url: `${V2}/pods`, body: undefined },
  { method: 'GET', url: `${V2}/pods/p1`, body: undefined },
  { method: 'POST', url: `${V2}/pods/p1/action`, body: { action: 'stop' } },
  { method: 'GET', url: `${V2}/templates`, body: undefined },
  { method: 'PATCH', url: `${V2}/templates/t1`, body: { name: 'torch' } },
  { method: 'POST', url: `${V2}/templates`, body: { name: 'mine', image: 'me/app:1', disk: 20, serverless: false } },
  { method: 'GET', url: `${V2}/serverless/e1`, body: undefined },
  { method: 'GET', url: `${V2}/billing/serverless?serverlessId=e1&bucketSize=day`, body: undefined },
  { method: 'GET', url: `${V2}/network-volumes`, body: undefined },
  { method: 'DELETE', url: `${V2}/pods/gone`, body: undefined },
];

/** Run every call against the v1 stub, or against v2-migrate/testing (MSW intercepts fetch). */
async function runAll(mod: Module, api: 'v1' | 'v2'): Promise<{ results: unknown[]; sent: Sent[] }> {
  let sent: Sent[] = [];
  if (api === 'v1') stubFetch(v1Server, sent);
  else {
    vi.unstubAllGlobals();
    contract.reset();
  }
  const results: unknown[] = [];
  for (const [name, ...args] of CALLS) {
    const fn = mod[name];
    if (typeof fn !== 'function') throw new Error(`the module does not export ${name}`);
    results.push(await fn(...args));
  }
  if (api === 'v2') sent = contract.requests.map(({ method, url, body }) => ({ method, url, body }));
  return { results, sent };
}

describe('behaviour: a migrated v1 client against a v2 server', () => {
  let migrated: string;
  let v1: Module;
  let v2: Module;

  beforeAll(async () => {
    const result = migrateSource(SOURCE, FILE, OPTIONS);
    expect(result.output, 'the engine must rewrite the module').not.toBeNull();
    migrated = result.output!;
    const dir = tempDir('v2-migrate-behaviour-');
    writeFileSync(path.join(dir, 'v1.mjs'), SOURCE);
    writeFileSync(path.join(dir, 'v2.mjs'), migrated);
    v1 = (await import(pathToFileURL(path.join(dir, 'v1.mjs')).href)) as Module;
    v2 = (await import(pathToFileURL(path.join(dir, 'v2.mjs')).href)) as Module;
    v2Server.listen({ onUnhandledRequest: 'error' });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  afterAll(() => v2Server.close());

  it('the migrated module no longer mentions REST v1 and a second run changes nothing', () => {
    expect(migrated).not.toContain('rest.runpod.io');
    expect(migrateSource(migrated, FILE, OPTIONS).output).toBeNull();
  });

  it('returns the same values against v2 as the v1 module did against v1', async () => {
    const before = await runAll(v1, 'v1');
    const after = await runAll(v2, 'v2');
    // The v1 run is the reference: it must itself have worked (no "no route" errors).
    expect(before.results).toEqual([
      ['trainer', 'server'],
      0.74 + 0 + 0.39,
      'runpod/pytorch:2.1 (50 GB)',
      'stopped',
      ['pytorch', 'comfy'],
      'torch',
      'tpl_1: me/app:1',
      '0..3',
      1.5 + 2.25 + 0.75,
      ['EU-RO-1', 'US-TX-3'],
      'RunPod 404: pod not found',
    ]);
    CALLS.forEach(([name], i) => expect(after.results[i], name).toEqual(before.results[i]));
  });

  it('sends exactly the v2 requests', async () => {
    const { sent } = await runAll(v2, 'v2');
    expect(sent).toEqual(EXPECTED_V2_REQUESTS);
    // Every request passed v2's checks; the one 404 is the missing pod the module asks for on purpose.
    expect(contract.requests.filter((r) => r.status >= 400).map((r) => `${r.status} ${r.method} ${r.url}`)).toEqual([`404 DELETE ${V2}/pods/gone`]);
  });

  it('the unmigrated module fails against v2 (the stubs tell the versions apart)', async () => {
    const { results } = await runAll(
      {
        ...v1,
        // Keep the comparison going past calls that throw.
        ...Object.fromEntries(CALLS.map(([name]) => [name, (...args: string[]) => v1[name]!(...args).catch((e: Error) => `threw: ${e.message}`)])),
      },
      'v2',
    );
    const reference = (await runAll(v1, 'v1')).results;
    const same = CALLS.filter((_c, i) => JSON.stringify(results[i]) === JSON.stringify(reference[i])).map(([name]) => name);
    expect(same).toEqual([]);
  });
});
