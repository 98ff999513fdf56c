/**
 * `v2-migrate/testing`: the v2 contract as MSW handlers. First what it answers (envelopes, problems,
 * 201/204, validation with the v2 schemas and v2's messages, seeds, state, options), then the team's
 * own suite in fixtures/integrations/team-app run with vitest: red with 410/404/422 answers that name
 * the v1 path or field on the unmigrated code and on code whose base alone was moved, green once
 * v2-migrate has run. Last, the README's example suite type-checks under tsc --strict.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runpodV2 } from '../src/testing/index.js';
import { fencesOf } from '../src/text/fences.js';
import { cli, copyDir, REPO, tempDir, tempProject } from './helpers.js';

const V2 = 'https://api.runpod.io/v2';
const AUTH = { Authorization: 'Bearer test-key', 'Content-Type': 'application/json' };

const api = runpodV2({
  pods: [
    { id: 'p1', name: 'trainer', status: 'RUNNING', image: 'runpod/pytorch:2.4', cost: 0.74 },
    { id: 'p2', name: 'idle', status: 'EXITED' },
    { name: 'no id given' },
  ],
  endpoints: [{ id: 'e1', name: 'whisper' }],
  registries: [{ id: 'r1', name: 'ghcr' }],
  billing: {
    serverless: [
      { startTime: '2026-06-01T00:00:00Z', endTime: '2026-06-02T00:00:00Z', totalAmount: 1.5, gpuAmount: 1.25, serverlessId: 'e1' },
      { startTime: '2026-06-02T00:00:00Z', endTime: '2026-06-03T00:00:00Z', totalAmount: 2.5, gpuAmount: 2, serverlessId: 'e1' },
      { startTime: '2026-06-02T00:00:00Z', endTime: '2026-06-03T00:00:00Z', totalAmount: 9, gpuAmount: 9, serverlessId: 'e2' },
    ],
  },
});
const proxied = runpodV2({ pods: [{ id: 'x', name: 'behind the proxy' }] }, { baseUrl: 'https://runpod-gw.internal/v2/', legacyBaseUrls: ['https://runpod-proxy.internal/v1'], apiKey: 'secret' });
const server = setupServer(...api.handlers, ...proxied.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  api.reset();
  proxied.reset();
});
afterAll(() => server.close());

async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = AUTH) {
  const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), allow: res.headers.get('allow'), body: text ? JSON.parse(text) : undefined };
}

describe('answers like v2', () => {
  it('lists in envelopes, seeded items with ids, pods with the actions their status allows', async () => {
    const pods = await call('GET', `${V2}/pods`);
    expect(pods.status).toBe(200);
    expect(pods.type).toMatch(/^application\/json/);
    expect(pods.body.pods.map((p: { id: string }) => p.id)).toEqual(['p1', 'p2', 'pod_1']);
    expect(pods.body.pods[1].actions).toEqual(['start', 'terminate']);
    expect((await call('GET', `${V2}/serverless`)).body).toEqual({ endpoints: [{ id: 'e1', name: 'whisper' }] });
    expect((await call('GET', `${V2}/templates`)).body).toEqual({ templates: [] });
    expect((await call('GET', `${V2}/network-volumes`)).body).toEqual({ networkVolumes: [] });
    expect((await call('GET', `${V2}/registries`)).body).toEqual({ registries: [{ id: 'r1', name: 'ghcr' }] });
  });

  it('creates with 201, updates with PATCH, deletes with 204 and no body; the state follows', async () => {
    const created = await call('POST', `${V2}/templates`, { name: 'comfy', image: 'me/comfy:1', disk: 20 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 'tpl_1', name: 'comfy', image: 'me/comfy:1', startSsh: true, startJupyter: true });
    expect((await call('PATCH', `${V2}/templates/tpl_1`, { name: 'comfy-2' })).body.name).toBe('comfy-2');
    const deleted = await call('DELETE', `${V2}/templates/tpl_1`);
    expect([deleted.status, deleted.body]).toEqual([204, undefined]);
    expect((await call('GET', `${V2}/templates/tpl_1`)).body).toEqual({ title: 'Not Found', status: 404, detail: 'template not found' });
    const registry = await call('POST', `${V2}/registries`, { name: 'ecr', username: 'u', password: 'p' });
    expect(registry.body).toEqual({ id: 'reg_1', name: 'ecr', username: 'u' });
  });

  it('pod actions: 200 with the pod, 204 for terminate, 409 for an action the status does not allow', async () => {
    const stopped = await call('POST', `${V2}/pods/p1/action`, { action: 'stop' });
    expect([stopped.status, stopped.body.status, stopped.body.actions]).toEqual([200, 'EXITED', ['start', 'terminate']]);
    const again = await call('POST', `${V2}/pods/p1/action`, { action: 'stop' });
    expect([again.status, again.type, again.body.detail]).toEqual([409, 'application/problem+json', 'action stop is not valid for a pod that is EXITED']);
    expect((await call('POST', `${V2}/pods/p1/action`, { action: 'terminate' })).status).toBe(204);
    expect((await call('GET', `${V2}/pods/p1`)).status).toBe(404);
  });

  it('checks bodies with the v2 schemas: 422 problems with v2 validation messages', async () => {
    const v1Body = await call('POST', `${V2}/pods`, { name: 'x', imageName: 'img', gpuTypeIds: ['NVIDIA A40'], gpuCount: 1 });
    expect(v1Body.status).toBe(422);
    expect(v1Body.type).toBe('application/problem+json');
    expect(v1Body.body).toEqual({
      title: 'Unprocessable Entity',
      status: 422,
      detail: 'Request validation failed.',
      errors: ["$: additional properties 'imageName', 'gpuTypeIds', 'gpuCount' not allowed", '$.image: image is required unless templateId is set'],
    });
    const errors = async (url: string, body: unknown, method = 'POST') => (await call(method, url, body)).body.errors;
    expect(await errors(`${V2}/pods`, { image: 'img' })).toEqual(["$: missing property 'name'"]);
    expect(await errors(`${V2}/pods`, { name: 'x', image: 'img', disk: '40' })).toEqual(['$.disk: got string, want number']);
    expect(await errors(`${V2}/pods`, { name: 'x', image: 'img', mounts: { persistent: { size: 5, path: '/w' } } })).toEqual(['$.mounts.persistent.size: minimum: got 5, want 10']);
    expect(await errors(`${V2}/pods/p2/action`, { action: 'reset' })).toEqual(["$.action: value must be one of 'start', 'stop', 'restart', 'terminate'"]);
    expect(await errors(`${V2}/serverless`, { name: 'e', templateId: 't', gpuTypeIds: ['NVIDIA A40'] })).toEqual(["$: missing property 'type'", "$: missing property 'scaling'", "$: additional properties 'gpuTypeIds' not allowed"]);
    expect(await errors(`${V2}/network-volumes`, { name: 'v', size: 50, dataCenterId: 'EU-RO-1' })).toEqual(["$: missing property 'dataCenter'", "$: additional properties 'dataCenterId' not allowed"]);
    expect(await errors(`${V2}/templates/t1`, { isServerless: true }, 'PATCH')).toEqual(["$: additional properties 'isServerless' not allowed"]);
    expect((await call('POST', `${V2}/pods`, '{ not json')).status).toBe(400);
    expect((await call('POST', `${V2}/pods`)).body.detail).toBe('request body is required (JSON)');
  });

  it('checks paths and methods: a v1 path on the v2 base is a 404 naming its v2 form; a wrong method a 405 with Allow', async () => {
    expect((await call('GET', `${V2}/endpoints`)).body.detail).toBe("no route GET /v2/endpoints: v1's GET /endpoints is GET /v2/serverless in v2");
    expect((await call('POST', `${V2}/pods/p1/stop`)).body.detail).toBe(`no route POST /v2/pods/p1/stop: v1's POST /pods/{podId}/stop is POST /v2/pods/{id}/action with the JSON body {"action":"stop"} in v2`);
    expect((await call('GET', `${V2}/networkvolumes`)).status).toBe(404);
    expect((await call('POST', `${V2}/pods/p1/reset`)).body.detail).toMatch(/^no route POST \/v2\/pods\/p1\/reset: POST \/pods\/\{podId\}\/reset has no v2 equivalent/);
    const wrong = await call('PUT', `${V2}/pods/p1`, {});
    expect([wrong.status, wrong.allow]).toEqual([405, 'GET, DELETE, PATCH']);
    expect((await call('GET', `${V2}/catalog/gpus`)).status).toBe(501);
  });

  it('checks the query: v2 filters validated (422), unknown parameters ignored as v2 ignores them', async () => {
    const bad = await call('GET', `${V2}/billing/serverless?bucketSize=fortnight&lastN=x&startTime=yesterday`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual(["query.startTime: 'yesterday' is not valid 'datetime'", "query.bucketSize: value must be one of 'hour', 'day', 'week', 'month', 'year'", "query.lastN: got 'x', want a whole number of at least 1"]);
    expect((await call('GET', `${V2}/pods?desiredStatus=RUNNING`)).body.pods).toHaveLength(3);
    expect((await call('GET', `${V2}/pods?includeClusterPods=yes`)).status).toBe(422);
  });

  it('billing: records filtered by id and lastN, with metadata totals and counts', async () => {
    const all = (await call('GET', `${V2}/billing/serverless`)).body;
    expect(all.metadata).toMatchObject({ recordCount: 3, uniqueServerlessCount: 2, totals: { totalAmount: 13, gpuAmount: 12.25 } });
    const e1 = (await call('GET', `${V2}/billing/serverless?serverlessId=e1&bucketSize=day`)).body;
    expect(e1.records.map((r: { totalAmount: number }) => r.totalAmount)).toEqual([1.5, 2.5]);
    expect(e1.metadata).toMatchObject({ query: { serverlessId: 'e1', bucketSize: 'day', startTime: '2026-06-01T00:00:00Z', endTime: '2026-06-03T00:00:00Z' }, recordCount: 2, uniqueServerlessCount: 1, totals: { totalAmount: 4 } });
    expect((await call('GET', `${V2}/billing/serverless?lastN=1`)).body.records).toHaveLength(1);
    expect((await call('GET', `${V2}/billing/endpoints`)).body).toMatchObject({ records: [], metadata: { recordCount: 0 } });
  });

  it('needs a bearer token (401 problems); an apiKey option accepts only that one', async () => {
    expect((await call('GET', `${V2}/pods`, undefined, {})).body).toEqual({ title: 'Unauthorized', status: 401, detail: 'missing bearer token' });
    const gw = 'https://runpod-gw.internal/v2';
    expect((await call('GET', `${gw}/pods`)).body.detail).toBe('invalid bearer token');
    expect((await call('GET', `${gw}/pods`, undefined, { Authorization: 'Bearer secret' })).body).toEqual({ pods: [{ id: 'x', name: 'behind the proxy', status: 'RUNNING', actions: ['stop', 'restart', 'terminate'] }] });
  });

  it('answers the retired v1 bases with a 410 Gone naming the v1 request and its v2 form (also as v1 clients read errors)', async () => {
    const v1 = await call('POST', 'https://rest.runpod.io/v1/pods/p1/stop');
    expect([v1.status, v1.type, v1.body.title, v1.body.status]).toEqual([410, 'application/problem+json', 'Gone', 410]);
    expect(v1.body.detail).toBe(`REST v1 was retired on 2026-11-15: POST https://rest.runpod.io/v1/pods/p1/stop no longer answers; v1's POST /pods/{podId}/stop is POST /v2/pods/{id}/action with the JSON body {"action":"stop"} in v2`);
    expect(v1.body.message).toBe(v1.body.detail);
    expect((await call('GET', 'https://runpod-proxy.internal/v1/billing/endpoints')).body.detail).toMatch(/GET \/billing\/endpoints is GET \/v2\/billing\/serverless in v2$/);
  });

  it('a body not sent as application/json is a 400, as v2 answers it: a pod action without Content-Type changes nothing', async () => {
    const { Authorization } = AUTH;
    const stop = JSON.stringify({ action: 'stop' });
    const untyped = await fetch(`${V2}/pods/p1/action`, { method: 'POST', headers: { Authorization }, body: stop });
    expect([untyped.status, untyped.headers.get('content-type')]).toEqual([400, 'application/problem+json']);
    expect(await untyped.json()).toEqual({ title: 'Bad Request', status: 400, detail: 'request body sent with Content-Type text/plain;charset=UTF-8: v2 needs Content-Type: application/json' });
    const form = await call('POST', `${V2}/pods/p1/action`, 'action=stop', { Authorization, 'Content-Type': 'application/x-www-form-urlencoded' });
    expect([form.status, form.body.detail]).toEqual([400, 'request body is not valid JSON']);
    const mislabelled = await call('POST', `${V2}/pods/p1/action`, { action: 'stop' }, { Authorization, 'Content-Type': 'text/json' });
    expect([mislabelled.status, mislabelled.body.detail]).toEqual([400, 'request body sent with Content-Type text/json: v2 needs Content-Type: application/json']);
    expect(api.account.get('pods', 'p1')?.status).toBe('RUNNING');
    expect((await call('POST', `${V2}/templates`, { name: 'comfy', image: 'me/comfy:1' }, { Authorization })).status).toBe(400);
    const charset = await call('POST', `${V2}/pods/p1/action`, { action: 'stop' }, { Authorization, 'Content-Type': 'application/json; charset=utf-8' });
    expect([charset.status, charset.body.status]).toEqual([200, 'EXITED']);
  });

  it('records every request answered, and reset() goes back to the seed', async () => {
    await call('POST', `${V2}/pods/p1/action`, { action: 'stop' });
    expect(api.requests).toEqual([{ method: 'POST', url: `${V2}/pods/p1/action`, body: { action: 'stop' }, status: 200 }]);
    expect(api.account.get('pods', 'p1')?.status).toBe('EXITED');
    api.reset();
    expect(api.requests).toEqual([]);
    expect(api.account.get('pods', 'p1')?.status).toBe('RUNNING');
  });
});

describe("a team's own suite against v2-migrate/testing (fixtures/integrations/team-app)", () => {
  const FIXTURE = path.join(REPO, 'fixtures', 'integrations', 'team-app');

  /** A copy where v2-migrate, msw and vitest resolve as in a project that installed them. */
  function project(): string {
    const dir = tempDir('v2-migrate-testing-');
    copyDir(FIXTURE, dir);
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.symlinkSync(REPO, path.join(dir, 'node_modules', 'v2-migrate'), 'dir');
    for (const dep of ['msw', 'vitest']) fs.symlinkSync(path.join(REPO, 'node_modules', dep), path.join(dir, 'node_modules', dep), 'dir');
    return dir;
  }

  const vitest = (dir: string) => {
    const r = spawnSync(process.execPath, [path.join(REPO, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=verbose'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    return { code: r.status, out: r.stdout + r.stderr };
  };

  it('fails on the unmigrated code with 410s that name the v1 path and its v2 form', () => {
    const r = vitest(project());
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/Tests\s+8 failed/);
    expect(r.out).toContain("listEndpoints: HTTP 410: REST v1 was retired on 2026-11-15: GET https://rest.runpod.io/v1/endpoints no longer answers; v1's GET /endpoints is GET /v2/serverless in v2");
    expect(r.out).toContain('stopPod p1: HTTP 410: REST v1 was retired on 2026-11-15: POST https://rest.runpod.io/v1/pods/p1/stop');
  });

  it('fails where only the base moved, with 404s and 422s that name the v1 path or field', () => {
    const dir = project();
    for (const file of ['src/runpod.js', 'src/constants.js']) {
      const abs = path.join(dir, file);
      fs.writeFileSync(abs, fs.readFileSync(abs, 'utf8').replace('https://rest.runpod.io/v1', 'https://api.runpod.io/v2'));
    }
    const r = vitest(dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain("createPod: HTTP 422: Request validation failed. ($: additional properties 'imageName', 'gpuTypeIds', 'gpuCount', 'containerDiskInGb', 'volumeInGb', 'volumeMountPath' not allowed; $.image: image is required unless templateId is set)");
    expect(r.out).toContain(`stopPod p1: HTTP 404: no route POST /v2/pods/p1/stop: v1's POST /pods/{podId}/stop is POST /v2/pods/{id}/action with the JSON body {"action":"stop"} in v2`);
    expect(r.out).toContain("listEndpoints: HTTP 404: no route GET /v2/endpoints: v1's GET /endpoints is GET /v2/serverless in v2");
  });

  it('passes once v2-migrate has run', () => {
    const dir = project();
    expect(cli([], dir).code).toBe(1);
    const r = vitest(dir);
    expect(r.out).toMatch(/Tests\s+8 passed/);
    expect(r.code).toBe(0);
  });
});

describe("the README's example suite", () => {
  /** The first TypeScript block of the README section "In your tests (a v2 contract)". */
  function readmeExample(): string {
    const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const section = readme.indexOf('### In your tests (a v2 contract)');
    const fence = fencesOf(readme).find((f) => f.start > section && f.info.trim() === 'ts');
    if (section < 0 || !fence) throw new Error('README: no ts block in "In your tests (a v2 contract)"');
    return readme.slice(fence.contentStart, fence.contentEnd);
  }

  it('type-checks under tsc --strict against the published types of v2-migrate/testing, msw and vitest', () => {
    const dir = tempProject({
      'package.json': '{ "type": "module" }\n',
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [], noEmit: true }, include: ['src', 'test'] }),
      // The module the example tests, as a team's client would type it.
      'src/runpod.ts': 'export declare function listPods(): Promise<Array<{ id: string; name: string }>>;\nexport declare function stopPod(id: string): Promise<void>;\n',
      'test/runpod.test.ts': readmeExample(),
    });
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.symlinkSync(REPO, path.join(dir, 'node_modules', 'v2-migrate'), 'dir');
    for (const dep of ['msw', 'vitest']) fs.symlinkSync(path.join(REPO, 'node_modules', dep), path.join(dir, 'node_modules', dep), 'dir');
    const tsc = spawnSync(path.join(REPO, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });
});
