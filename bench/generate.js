// Generates a synthetic monorepo for the benchmark: `packages × files` JS/TS sources of realistic,
// varied shapes (utility modules, React components, services, hooks, data tables, CommonJS, tests,
// scripts) connected by relative imports, a share of packages with RunPod REST v1 code of every
// kind the tool migrates, and `.gitignore`d noise (node_modules, .cache). Deterministic for a seed.
//
// The RunPod files come with what a dry run must report: `expectedChanged` (files whose content
// changes) and `runpodUnchanged` (job-API and already-v2 files that must stay as they are).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** mulberry32: a small seeded PRNG, so a tree is the same on every machine. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['account', 'billing', 'cart', 'checkout', 'dashboard', 'editor', 'feed', 'gallery', 'inbox', 'invoice', 'ledger', 'map', 'media', 'metrics', 'notes', 'orders', 'profile', 'report', 'search', 'settings', 'team', 'timeline', 'upload', 'wallet', 'webhook', 'workflow', 'audit', 'catalog', 'chat', 'export'];
const VERBS = ['load', 'save', 'format', 'parse', 'merge', 'filter', 'compute', 'render', 'sync', 'validate', 'normalize', 'resolve', 'group', 'sort', 'index', 'score'];
const HOSTS = ['https://api.github.com', 'https://api.stripe.com/v1', 'https://clerk.acme-auth.io/v1', 'https://api.openai.com/v1', 'https://hooks.slack.com/services', 'https://sentry.io/api/0', 'https://api.segment.io/v1'];

const cap = (s) => s[0].toUpperCase() + s.slice(1);
const pick = (r, xs) => xs[Math.floor(r() * xs.length)];
const int = (r, lo, hi) => lo + Math.floor(r() * (hi - lo + 1));

/** Relative import specifier from file `from` to module `to` (both package-relative, posix). */
function spec(from, to, keepExt) {
  let rel = path.posix.relative(path.posix.dirname(from), keepExt ? to : to.replace(/\.(tsx?|jsx?|mjs|cjs)$/, ''));
  if (!rel.startsWith('.')) rel = `./${rel}`;
  return rel;
}

// ---------------------------------------------------------------------------------------------
// Unrelated code
// ---------------------------------------------------------------------------------------------

function tsFunctions(r, id, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const v = pick(r, VERBS);
    const w = pick(r, WORDS);
    switch (i % 5) {
      case 0:
        out.push(`export function ${v}${cap(w)}${id}_${i}(items: ReadonlyArray<{ id: string; value: number; tags?: string[] }>, limit = ${int(r, 5, 500)}): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  for (const item of items) {
    if (seen.has(item.id) || out.length >= limit) continue;
    seen.add(item.id);
    out.push(item.value * ${int(r, 2, 9)} + (item.tags?.length ?? 0));
  }
  return out.sort((a, b) => a - b);
}
`);
        break;
      case 1:
        out.push(`export const ${v}${cap(w)}Label${id}_${i} = (input: string, opts: { upper?: boolean; max?: number } = {}): string => {
  const trimmed = input.trim().replace(/\\s+/g, ' ');
  const cut = opts.max && trimmed.length > opts.max ? \`\${trimmed.slice(0, opts.max - 1)}…\` : trimmed;
  return opts.upper ? cut.toUpperCase() : cut;
};
`);
        break;
      case 2:
        out.push(`export interface ${cap(w)}${cap(v)}State${id}_${i} {
  status: 'idle' | 'loading' | 'ready' | 'error';
  updatedAt: number;
  error?: string;
  entries: Record<string, { count: number; last?: Date }>;
}

export function reduce${cap(w)}${id}_${i}(state: ${cap(w)}${cap(v)}State${id}_${i}, event: { type: string; key?: string }): ${cap(w)}${cap(v)}State${id}_${i} {
  switch (event.type) {
    case 'start':
      return { ...state, status: 'loading' };
    case 'hit': {
      const key = event.key ?? 'default';
      const prev = state.entries[key] ?? { count: 0 };
      return { ...state, entries: { ...state.entries, [key]: { count: prev.count + 1, last: new Date() } } };
    }
    case 'fail':
      return { ...state, status: 'error', error: event.key };
    default:
      return state;
  }
}
`);
        break;
      case 3:
        out.push(`export class ${cap(w)}Cache${id}_${i}<V> {
  private readonly map = new Map<string, { value: V; at: number }>();
  constructor(private readonly ttlMs = ${int(r, 1, 60) * 1000}) {}

  get(key: string): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    if (Date.now() - hit.at > this.ttlMs) {
      this.map.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, value: V): this {
    this.map.set(key, { value, at: Date.now() });
    return this;
  }
}
`);
        break;
      default:
        out.push(`export async function ${v}${cap(w)}Batch${id}_${i}<T>(jobs: Array<() => Promise<T>>, concurrency = ${int(r, 2, 8)}): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await jobs[index]!();
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  return results;
}
`);
    }
  }
  return out.join('\n');
}

function utilModule(r, id, imports) {
  return `${imports}\n/** ${pick(r, WORDS)} helpers. */\n${tsFunctions(r, id, int(r, 2, 14))}\nexport const fn${id} = (x: number): number => x * ${int(r, 2, 50)};\n`;
}

function component(r, id, imports) {
  const w = pick(r, WORDS);
  const rows = int(r, 1, 6);
  const extra = [];
  for (let i = 0; i < rows; i++) {
    extra.push(`
export function ${cap(w)}Row${id}_${i}({ item, onSelect }: { item: { id: string; title: string; count: number }; onSelect: (id: string) => void }) {
  return (
    <li className="row" onClick={() => onSelect(item.id)} data-count={item.count}>
      <strong>{item.title}</strong> {item.count > 0 ? <span className="badge">{item.count}</span> : null}
    </li>
  );
}
`);
  }
  return `import { useEffect, useMemo, useState } from 'react';
${imports}
export interface ${cap(w)}PanelProps${id} {
  title: string;
  items: Array<{ id: string; title: string; count: number }>;
  onSelect?: (id: string) => void;
}

export function ${cap(w)}Panel${id}({ title, items, onSelect = () => {} }: ${cap(w)}PanelProps${id}) {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(${r() < 0.5});
  const visible = useMemo(() => items.filter((i) => i.title.toLowerCase().includes(query.toLowerCase())), [items, query]);
  useEffect(() => {
    document.title = \`\${title} (\${visible.length})\`;
  }, [title, visible.length]);
  return (
    <section className="${w}-panel">
      <header>
        <h2>{title}</h2>
        <button type="button" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide' : 'Show'}
        </button>
      </header>
      {open && (
        <>
          <input value={query} placeholder="Filter ${w}…" onChange={(e) => setQuery(e.target.value)} />
          <ul>
            {visible.map((item) => (
              <${cap(w)}Row${id}_0 key={item.id} item={item} onSelect={onSelect} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
${extra.join('')}
export const fn${id} = (x: number): number => x + ${int(r, 1, 99)};
`;
}

function service(r, id, imports) {
  const host = pick(r, HOSTS);
  const w = pick(r, WORDS);
  const methods = [];
  for (let i = 0, n = int(r, 2, 9); i < n; i++) {
    const v = pick(r, VERBS);
    methods.push(`
  async ${v}${cap(w)}${i}(id: string, body?: Record<string, unknown>): Promise<unknown> {
    const res = await fetch(\`\${this.base}/${w}s/\${encodeURIComponent(id)}\`, {
      method: body ? 'POST' : 'GET',
      headers: { Authorization: \`Bearer \${this.token}\`, 'Content-Type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(\`${w} ${v} failed: \${res.status}\`);
    return res.json();
  }
`);
  }
  return `${imports}
const BASE_${id} = process.env.${w.toUpperCase()}_API_URL ?? '${host}';

export class ${cap(w)}Service${id} {
  constructor(private readonly token: string, private readonly base = BASE_${id}) {}
${methods.join('')}}

export const fn${id} = (x: number): number => x - ${int(r, 1, 9)};
`;
}

function hook(r, id, imports) {
  const w = pick(r, WORDS);
  return `import { useCallback, useEffect, useRef, useState } from 'react';
${imports}
export function use${cap(w)}${id}<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const alive = useRef(true);
  const refresh = useCallback(async () => {
    try {
      const value = await load();
      if (alive.current) setData(value);
    } catch (e) {
      if (alive.current) setError(e as Error);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  useEffect(() => {
    alive.current = true;
    void refresh();
    return () => {
      alive.current = false;
    };
  }, [refresh]);
  return { data, error, refresh };
}

export const fn${id} = (x: number): number => x % ${int(r, 2, 97)};
`;
}

/** Large data tables: the heavy tail of file sizes (1–200 KB). */
function dataModule(r, id, imports) {
  const rows = r() < 0.1 ? int(r, 800, 2500) : int(r, 20, 300);
  const out = [];
  for (let i = 0; i < rows; i++) out.push(`  { id: '${id}-${i}', name: '${pick(r, WORDS)} ${pick(r, VERBS)} ${i}', weight: ${(r() * 100).toFixed(3)}, enabled: ${r() < 0.7}, tags: ['${pick(r, WORDS)}', '${pick(r, WORDS)}'] },`);
  return `${imports}\nexport const TABLE_${id} = [\n${out.join('\n')}\n] as const;\n\nexport const fn${id} = (x: number): number => x + TABLE_${id}.length;\n`;
}

function cjsModule(r, id, requires) {
  const w = pick(r, WORDS);
  const fns = [];
  for (let i = 0, n = int(r, 2, 10); i < n; i++) {
    fns.push(`
${cap(w)}Store${id}.prototype.${pick(r, VERBS)}${i} = function (key, value) {
  var entry = this.items[key] || (this.items[key] = { hits: 0, values: [] });
  entry.hits += 1;
  if (value !== undefined) entry.values.push(value);
  return entry.values.length > ${int(r, 1, 20)} ? entry.values.slice(-${int(r, 1, 20)}) : entry.values;
};
`);
  }
  return `'use strict';
${requires}
function ${cap(w)}Store${id}(options) {
  this.options = Object.assign({ max: ${int(r, 10, 1000)} }, options || {});
  this.items = {};
}
${fns.join('')}
module.exports = { ${cap(w)}Store${id}: ${cap(w)}Store${id}, fn${id}: function (x) { return x * 3; } };
`;
}

function jsxComponent(r, id, imports) {
  const w = pick(r, WORDS);
  return `import React from 'react';
${imports}
export default function ${cap(w)}List${id}({ items = [], empty = 'Nothing yet' }) {
  if (!items.length) return <p className="empty">{empty}</p>;
  return (
    <ol className="${w}">
      {items.map((item, i) => (
        <li key={item.id || i}>{item.label} — {new Date(item.at).toLocaleString()}</li>
      ))}
    </ol>
  );
}

export const fn${id} = (x) => x + ${int(r, 1, 9)};
`;
}

function testModule(r, id, imports, target) {
  const cases = [];
  for (let i = 0, n = int(r, 2, 12); i < n; i++) {
    cases.push(`  it('handles case ${i}', () => {
    const input = [${Array.from({ length: int(r, 1, 6) }, () => int(r, 0, 99)).join(', ')}];
    expect(input.map((x) => fn${target}(x))).toHaveLength(input.length);
  });
`);
  }
  return `import { describe, expect, it } from 'vitest';
${imports}
describe('${pick(r, WORDS)} ${id}', () => {
${cases.join('\n')}});
`;
}

function scriptModule(r, id, imports) {
  return `#!/usr/bin/env node
import fs from 'node:fs/promises';
import path from 'node:path';
${imports}
const root = process.argv[2] ?? '.';
const entries = await fs.readdir(root, { withFileTypes: true });
let total = 0;
for (const e of entries) {
  if (!e.isFile()) continue;
  const { size } = await fs.stat(path.join(root, e.name));
  total += size;
}
console.log(\`${pick(r, WORDS)}: \${entries.length} entries, \${total} bytes\`);
export const fn${id} = (x) => x * ${int(r, 2, 9)};
`;
}

const LOGGER = `export type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
let threshold: Level = (process.env.LOG_LEVEL as Level) ?? 'info';

export function setLevel(level: Level): void {
  threshold = level;
}

export function log(level: Level, ...args: unknown[]): void {
  if (order[level] < order[threshold]) return;
  const line = \`[\${new Date().toISOString()}] \${level.toUpperCase()} \${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}\`;
  (level === 'error' ? console.error : console.log)(line);
}
`;

const CJS_LOG = `'use strict';
module.exports = function log() {
  if (process.env.QUIET) return;
  console.log.apply(console, ['[legacy]'].concat([].slice.call(arguments)));
};
`;

// ---------------------------------------------------------------------------------------------
// RunPod code: every kind of REST v1 usage, plus job-API and already-v2 files that must stay
// ---------------------------------------------------------------------------------------------

/** Kinds in the order a cluster cycles through them; `changes` is what the dry run must report. */
const RUNPOD_KINDS = [
  { kind: 'wrapper-client', ext: 'ts', changes: true },
  { kind: 'wrapper-calls', ext: 'ts', changes: true },
  { kind: 'wrapper-create', ext: 'ts', changes: true },
  { kind: 'env-fetch', ext: 'ts', changes: true },
  { kind: 'axios-instance', ext: 'ts', changes: true },
  { kind: 'class-client', ext: 'ts', changes: true },
  { kind: 'tsx-component', ext: 'tsx', changes: true },
  { kind: 'create-fetch', ext: 'ts', changes: true },
  { kind: 'wrapper-calls', ext: 'ts', changes: true },
  { kind: 'axios-cjs', ext: 'js', changes: true },
  { kind: 'job-api', ext: 'ts', changes: false },
  { kind: 'already-v2', ext: 'ts', changes: false },
  { kind: 'update-fetch', ext: 'js', changes: true },
  { kind: 'wrapper-calls', ext: 'ts', changes: true },
];

function runpodFile(kind, id, ctx) {
  switch (kind) {
    case 'wrapper-client':
      return `import { log } from '${ctx.loggerSpec}';

export const RUNPOD_API_${id} = 'https://rest.runpod.io/v1';

export class RunpodError${id} extends Error {}

/** Every REST call of this package goes through here. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  log('debug', 'runpod', method, path);
  const res = await fetch(\`\${RUNPOD_API_${id}}\${path}\`, {
    method,
    headers: {
      Authorization: \`Bearer \${process.env.RUNPOD_API_KEY}\`,
      'Content-Type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new RunpodError${id}(\`RunPod \${method} \${path} failed: \${res.status}\`);
  return (await res.json()) as T;
}
`;
    case 'wrapper-calls':
      return `import { api } from '${ctx.clientSpec}';

export interface Pod${id} {
  id: string;
  name: string;
  desiredStatus: string;
}

export const getPod${id} = (podId: string) => api<Pod${id}>('GET', \`/pods/\${podId}\`);
export const stopPod${id} = (podId: string) => api<Pod${id}>('POST', \`/pods/\${podId}/stop\`);
export const startPod${id} = (podId: string) => api<Pod${id}>('POST', \`/pods/\${podId}/start\`);
export const renamePod${id} = (podId: string, name: string) => api<Pod${id}>('POST', \`/pods/\${podId}/update\`, { name });
export const deleteEndpoint${id} = (endpointId: string) => api<void>('DELETE', \`/endpoints/\${endpointId}\`);
export const deleteVolume${id} = (volumeId: string) => api<void>('DELETE', \`/networkvolumes/\${volumeId}\`);
`;
    case 'wrapper-create':
      return `import { api } from '${ctx.clientSpec}';

export function createTrainer${id}(name: string) {
  return api('POST', '/pods', {
    name,
    imageName: 'runpod/pytorch:2.4.0',
    gpuTypeIds: ['NVIDIA A40'],
    gpuCount: 1,
    containerDiskInGb: 40,
    ports: ['8888/http'],
    volumeInGb: 50,
  });
}
`;
    case 'env-fetch':
      return `const RUNPOD_REST_${id} = process.env.RUNPOD_REST_URL ?? 'https://rest.runpod.io/v1';

export async function restartPod${id}(podId: string, apiKey: string) {
  const res = await fetch(\`\${RUNPOD_REST_${id}}/pods/\${podId}/restart\`, {
    method: 'POST',
    headers: { Authorization: \`Bearer \${apiKey}\` },
  });
  if (!res.ok) throw new Error(\`restart failed: \${res.status}\`);
  return res.json();
}

export async function listEndpoints${id}(apiKey: string) {
  const res = await fetch(\`\${RUNPOD_REST_${id}}/endpoints\`, { headers: { Authorization: \`Bearer \${apiKey}\` } });
  return res.json();
}
`;
    case 'axios-instance':
      return `import axios from 'axios';

const http${id} = axios.create({
  baseURL: 'https://rest.runpod.io/v1',
  headers: { Authorization: \`Bearer \${process.env.RUNPOD_API_KEY}\` },
});

export async function restart${id}(podId: string) {
  const { data } = await http${id}.post(\`/pods/\${podId}/restart\`);
  return data;
}

export async function scale${id}(endpointId: string, workersMax: number) {
  const { data } = await http${id}.post(\`/endpoints/\${endpointId}/update\`, { workersMax });
  return data;
}

export async function registries${id}() {
  const res = await http${id}.get('/containerregistryauth');
  return res.data;
}
`;
    case 'class-client':
      return `export class TemplateAdmin${id} {
  constructor(private readonly baseUrl: string, private readonly key: string) {}

  private async call(path: string, init: RequestInit = {}) {
    const res = await fetch(\`\${this.baseUrl}\${path}\`, {
      ...init,
      headers: { Authorization: \`Bearer \${this.key}\`, 'Content-Type': 'application/json' },
    });
    return res.json();
  }

  remove(templateId: string) {
    return this.call(\`/templates/\${templateId}\`, { method: 'DELETE' });
  }

  rename(templateId: string, name: string) {
    return this.call(\`/templates/\${templateId}/update\`, { method: 'POST', body: JSON.stringify({ name }) });
  }
}

export const templates${id} = new TemplateAdmin${id}('https://rest.runpod.io/v1', process.env.RUNPOD_API_KEY ?? '');
`;
    case 'tsx-component':
      return `import { useState } from 'react';

const REST_${id} = 'https://rest.runpod.io/v1';

export function PodCard${id}({ podId, apiKey }: { podId: string; apiKey: string }) {
  const [busy, setBusy] = useState(false);

  async function stop() {
    setBusy(true);
    await fetch(\`\${REST_${id}}/pods/\${podId}/stop\`, {
      method: 'POST',
      headers: { Authorization: \`Bearer \${apiKey}\` },
    });
    setBusy(false);
  }

  return (
    <div className="pod-card">
      <span>{podId}</span>
      <button disabled={busy} onClick={stop}>
        Stop
      </button>
    </div>
  );
}
`;
    case 'create-fetch':
      return `const RUNPOD_API_${id} = process.env.RUNPOD_REST_URL ?? 'https://rest.runpod.io/v1';

export async function launchTrainer${id}(apiKey: string, runId: string) {
  const res = await fetch(\`\${RUNPOD_API_${id}}/pods\`, {
    method: 'POST',
    headers: { Authorization: \`Bearer \${apiKey}\`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: \`trainer-\${runId}\`,
      imageName: 'ghcr.io/acme/trainer:2.3.1',
      containerDiskInGb: 40,
      gpuTypeIds: ['NVIDIA A100 80GB PCIe'],
      gpuCount: 1,
      cloudType: 'SECURE',
      volumeInGb: 100,
      volumeMountPath: '/data',
      env: { RUN_ID: runId },
      ports: ['8888/http', '22/tcp'],
    }),
  });
  if (!res.ok) throw new Error(\`create pod failed: \${res.status}\`);
  return res.json();
}
`;
    case 'axios-cjs':
      return `'use strict';
const axios = require('axios');

const client = axios.create({ baseURL: 'https://rest.runpod.io/v1', headers: { Authorization: 'Bearer ' + process.env.RUNPOD_API_KEY } });

async function restartPod${id}(podId) {
  const res = await client.post(\`/pods/\${podId}/restart\`);
  return res.data;
}

async function listVolumes${id}() {
  const res = await client.get('/networkvolumes');
  return res.data;
}

module.exports = { restartPod${id}, listVolumes${id} };
`;
    case 'update-fetch':
      return `const API = 'https://rest.runpod.io/v1';

export async function renameEndpoint${id}(endpointId, name, key) {
  const res = await fetch(API + '/endpoints/' + endpointId + '/update', {
    method: 'POST',
    headers: { Authorization: 'Bearer ' + key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  return res.json();
}
`;
    case 'job-api':
      return `// Serverless job API: a different product that already says v2. It must stay as it is.
const JOBS_${id} = 'https://api.runpod.ai/v2';

export async function runSync${id}(endpointId: string, input: unknown) {
  const res = await fetch(\`\${JOBS_${id}}/\${endpointId}/runsync\`, {
    method: 'POST',
    headers: { Authorization: \`Bearer \${process.env.RUNPOD_API_KEY}\`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ input }),
  });
  return res.json();
}

export async function status${id}(endpointId: string, jobId: string) {
  const res = await fetch(\`\${JOBS_${id}}/\${endpointId}/status/\${jobId}\`);
  return res.json();
}
`;
    case 'already-v2':
      return `const V2_${id} = 'https://api.runpod.io/v2';

export async function getPodV2${id}(podId: string, apiKey: string) {
  const res = await fetch(\`\${V2_${id}}/pods/\${podId}\`, { headers: { Authorization: \`Bearer \${apiKey}\` } });
  return res.json();
}

export async function deleteVolumeV2${id}(volumeId: string, apiKey: string) {
  await fetch(\`\${V2_${id}}/network-volumes/\${volumeId}\`, { method: 'DELETE', headers: { Authorization: \`Bearer \${apiKey}\` } });
}
`;
    default:
      throw new Error(`unknown kind ${kind}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Tree
// ---------------------------------------------------------------------------------------------

const UNRELATED_KINDS = [
  ['util', 'ts', 22],
  ['component', 'tsx', 22],
  ['service', 'ts', 12],
  ['hook', 'ts', 8],
  ['data', 'ts', 5],
  ['cjs', 'js', 9],
  ['jsx', 'jsx', 4],
  ['test', 'test.ts', 14],
  ['script', 'mjs', 4],
];
const KIND_TOTAL = UNRELATED_KINDS.reduce((n, k) => n + k[2], 0);

function chooseKind(r) {
  let x = r() * KIND_TOTAL;
  for (const k of UNRELATED_KINDS) if ((x -= k[2]) < 0) return k;
  return UNRELATED_KINDS[0];
}

function folderFor(r, kind) {
  const area = pick(r, WORDS);
  switch (kind) {
    case 'util':
      return r() < 0.5 ? 'src/utils' : `src/features/${area}/lib`;
    case 'component':
    case 'jsx':
      return r() < 0.4 ? 'src/components' : `src/features/${area}/components`;
    case 'service':
      return `src/features/${area}/api`;
    case 'hook':
      return r() < 0.5 ? 'src/hooks' : `src/features/${area}/hooks`;
    case 'data':
      return 'src/data';
    case 'cjs':
      return r() < 0.5 ? 'src/legacy' : `src/legacy/${area}`;
    case 'test':
      return 'test';
    case 'script':
      return 'scripts';
    default:
      return 'src';
  }
}

function write(root, rel, content, manifest) {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
  manifest.bytes += Buffer.byteLength(content);
  manifest.files++;
}

/**
 * Generate a monorepo under `root` (created). Options: packages, files (JS/TS sources per package),
 * runpod (whether some packages use RunPod), runpodEvery (every n-th package uses it), seed,
 * nodeModules (noise files under the ignored node_modules), git (make it a git repository with every file committed; default true).
 */
/** The maker of each kind of unrelated source file (tests and scripts aside). */
const MODULE_MAKERS = { util: utilModule, component, service, hook, data: dataModule, cjs: cjsModule, jsx: jsxComponent };

export function generateTree(root, opts) {
  const { packages, files, runpod, seed = 1, runpodEvery = 3, nodeModules = Math.max(200, Math.round((packages * files) / 10)), git = true } = opts;
  const r = rng(seed);
  const manifest = { root, files: 0, sources: 0, bytes: 0, runpodFiles: [], seeds: [], expectedChanged: [], runpodUnchanged: [], imports: new Map(), ignoredFiles: 0 };
  fs.mkdirSync(root, { recursive: true });
  write(root, '.gitignore', 'node_modules/\n.cache/\n*.log\n/coverage/\n', manifest);
  write(root, 'package.json', JSON.stringify({ name: 'bench-monorepo', private: true, workspaces: ['packages/*'] }, null, 2) + '\n', manifest);
  write(root, 'README.md', '# bench monorepo\n\nGenerated by v2-migrate bench/generate.js.\n', manifest);

  let id = 0;
  for (let p = 0; p < packages; p++) {
    const pkg = `packages/${WORDS[p % WORDS.length]}-${p}`;
    const usesRunpod = runpod && p % runpodEvery === 0;
    write(root, `${pkg}/package.json`, JSON.stringify({ name: `@bench/${path.posix.basename(pkg)}`, version: '1.0.0', type: 'module', main: 'src/index.ts' }, null, 2) + '\n', manifest);
    write(root, `${pkg}/README.md`, `# ${pkg}\n\nPart of the bench monorepo.\n`, manifest);
    const modules = []; // { rel, ext, id, lang } of this package, for imports
    const emit = (rel, content, lang, modId, imports) => {
      write(root, `${pkg}/${rel}`, content, manifest);
      manifest.sources++;
      modules.push({ rel, lang, id: modId });
      manifest.imports.set(`${pkg}/${rel}`, imports.map((t) => `${pkg}/${t}`));
    };
    emit('src/utils/logger.ts', LOGGER, 'ts', -1, []);
    emit('src/legacy/log.js', CJS_LOG, 'cjs', -1, []);
    const runpodCount = usesRunpod ? Math.min(files - 2, Math.max(RUNPOD_KINDS.length, Math.round(files * 0.04))) : 0;
    const unrelated = files - 2 - runpodCount;
    // RunPod cluster: a wrapper client first, then every kind in turn (call sites use the latest client).
    let clientRel = null;
    for (let k = 0; k < runpodCount; k++) {
      const spec0 = RUNPOD_KINDS[k % RUNPOD_KINDS.length];
      const myId = id++;
      const folder = spec0.kind === 'wrapper-client' ? 'src/lib/runpod' : spec0.kind.startsWith('wrapper') ? `src/features/gpu-${k % 4}` : spec0.ext === 'tsx' ? 'src/components/runpod' : 'src/services/runpod';
      const rel = `${folder}/${spec0.kind}-${myId}.${spec0.ext}`;
      const imports = [];
      const ctx = { loggerSpec: spec(rel, 'src/utils/logger.ts'), clientSpec: clientRel ? spec(rel, clientRel) : '' };
      if (spec0.kind === 'wrapper-client') imports.push('src/utils/logger.ts');
      if (spec0.kind.startsWith('wrapper-') && spec0.kind !== 'wrapper-client') imports.push(clientRel);
      emit(rel, runpodFile(spec0.kind, myId, ctx), spec0.ext === 'js' ? 'cjs' : 'ts', myId, imports);
      if (spec0.kind === 'wrapper-client') clientRel = rel;
      const full = `${pkg}/${rel}`;
      manifest.runpodFiles.push(full);
      (spec0.changes ? manifest.expectedChanged : manifest.runpodUnchanged).push(full);
      if (!['wrapper-calls', 'wrapper-create', 'job-api'].includes(spec0.kind)) manifest.seeds.push(full);
      modules.pop(); // unrelated code imports no RunPod file (the client reaches the package through the logger hub)
    }
    for (let k = 0; k < unrelated; k++) {
      const [kind, ext] = chooseKind(r);
      const myId = id++;
      const name = `${pick(r, VERBS)}-${pick(r, WORDS)}-${myId}`;
      const rel = `${folderFor(r, kind)}/${kind === 'component' || kind === 'jsx' ? cap(name.replace(/-(\w)/g, (_, c) => c.toUpperCase())) : name}.${ext}`;
      // Imports: the logger hub (most TS files), plus 0–4 earlier modules of the same language family.
      const isTs = ext.startsWith('ts') || ext === 'test.ts';
      const family = isTs ? modules.filter((m) => m.lang === 'ts' && m.id >= 0) : modules.filter((m) => m.lang === 'cjs' && m.id >= 0);
      const targets = [];
      for (let i = 0, n = family.length ? int(r, 0, 4) : 0; i < n; i++) {
        const t = family[Math.floor(family.length - 1 - Math.floor(r() * r() * family.length))];
        if (t && !targets.includes(t)) targets.push(t);
      }
      let importText;
      const importRels = targets.map((t) => t.rel);
      if (kind === 'cjs') {
        importText = [`const log = require('${spec(rel, 'src/legacy/log.js', true)}');`, ...targets.map((t) => `const { fn${t.id} } = require('${spec(rel, t.rel, true)}');`)].join('\n');
        importRels.push('src/legacy/log.js');
      } else if (kind === 'script' || kind === 'jsx') {
        importText = targets.map((t) => `import { fn${t.id} } from '${spec(rel, t.rel, true)}';`).join('\n');
      } else {
        const lines = targets.map((t) => `import { fn${t.id} } from '${spec(rel, t.rel)}';`);
        if (r() < 0.6) {
          lines.unshift(`import { log } from '${spec(rel, 'src/utils/logger.ts')}';`);
          importRels.push('src/utils/logger.ts');
        }
        importText = lines.join('\n');
      }
      const target = targets[0];
      const content =
        kind === 'test'
          ? target
            ? testModule(r, myId, importText, target.id)
            : testModule(r, myId, `${importText}\nconst fn${myId} = (x: number) => x;`, myId)
          : (MODULE_MAKERS[kind] ?? scriptModule)(r, myId, importText);
      emit(rel, content, kind === 'cjs' ? 'cjs' : kind === 'script' || kind === 'jsx' ? 'esm-js' : 'ts', kind === 'test' ? -1 : myId, importRels);
    }
    // A barrel file at the package root.
    const exported = modules.filter((m) => m.lang === 'ts' && m.id >= 0).slice(0, 20);
    write(root, `${pkg}/src/index.ts`, exported.map((m) => `export { fn${m.id} } from '${spec('src/index.ts', m.rel)}';`).join('\n') + '\n', manifest);
    manifest.sources++;
    manifest.imports.set(`${pkg}/src/index.ts`, exported.map((m) => `${pkg}/${m.rel}`));
  }

  // Ignored noise: installed dependencies and a build cache, one of them a RunPod SDK. Neither tool may look inside.
  const before = manifest.files;
  for (let i = 0; i < nodeModules; i++) {
    const dep = `node_modules/dep-${i % 97}/${i % 3 === 0 ? 'lib' : 'dist'}/m${i}.js`;
    write(root, dep, `'use strict';\nmodule.exports = function m${i}(a, b) { return a + b * ${i}; };\n`, manifest);
  }
  write(root, 'node_modules/runpod-sdk/dist/index.js', `const REST = 'https://rest.runpod.io/v1';\nexports.stop = (id) => fetch(REST + '/pods/' + id + '/stop', { method: 'POST' });\n`, manifest);
  write(root, '.cache/build/runpod-bundle.js', `fetch('https://rest.runpod.io/v1/pods/abc/stop', { method: 'POST' });\n`, manifest);
  write(root, '.cache/build/app.js', `console.log('cached build');\n`, manifest);
  manifest.ignoredFiles = manifest.files - before;
  // A git work tree with every file committed, as a real repository is (so ripgrep honours .gitignore
  // the way v2-migrate does, and v2-migrate lists the tree from git's index).
  if (git) commitAll(root);
  return manifest;
}

/** `git init` and one commit of everything git does not ignore; a minimal, empty `.git` where git is not installed. */
function commitAll(root) {
  const run = (...args) => spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=/dev/null', ...args], { cwd: root, encoding: 'utf8' });
  if (run('init', '-q').status === 0 && run('add', '-A').status === 0 && run('commit', '-q', '--no-verify', '-m', 'bench tree').status === 0) return;
  fs.rmSync(path.join(root, '.git'), { recursive: true, force: true });
  fs.mkdirSync(path.join(root, '.git', 'objects'), { recursive: true });
  fs.mkdirSync(path.join(root, '.git', 'refs'), { recursive: true });
  fs.writeFileSync(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
}

/** The log module every file of the shared-import tree imports (a logger, as real clients import one). */
const SHARED_LOG = `export function log(level: 'debug' | 'info' | 'warn' | 'error', ...args: unknown[]): void {
  if (level === 'debug' && !process.env.DEBUG) return;
  console.log(\`[\${level}]\`, ...args);
}
`;

/**
 * The shared-import tree: `files` REST v1 client files in one folder, cycling through every kind of
 * RunPod code, each of which imports one shared module (`import { log } from './log'`), as real
 * clients import a logger, a config or types. It connects every file of the run by imports, which is
 * what a monorepo's batch run looks like to the cross-file analysis.
 */
export function generateSharedImportTree(root, opts) {
  const { files } = opts;
  const manifest = { root, files: 0, sources: 0, bytes: 0, runpodFiles: [], seeds: [], expectedChanged: [], runpodUnchanged: [], imports: new Map(), ignoredFiles: 0 };
  fs.mkdirSync(root, { recursive: true });
  write(root, 'package.json', JSON.stringify({ name: 'bench-shared-import', private: true, type: 'module' }, null, 2) + '\n', manifest);
  write(root, 'src/clients/log.ts', SHARED_LOG, manifest);
  manifest.sources++;
  manifest.imports.set('src/clients/log.ts', []);
  let clientRel = null;
  for (let k = 0; k < files; k++) {
    const { kind, ext, changes } = RUNPOD_KINDS[k % RUNPOD_KINDS.length];
    const rel = `src/clients/${kind}-${k}.${ext}`;
    const ctx = { loggerSpec: './log', clientSpec: clientRel ? `./${path.posix.basename(clientRel).replace(/\.ts$/, '')}` : '' };
    let content = runpodFile(kind, k, ctx);
    const imports = ['src/clients/log.ts'];
    if (kind.startsWith('wrapper-') && kind !== 'wrapper-client') imports.push(clientRel);
    if (kind !== 'wrapper-client') {
      // Every file imports the shared module and uses it once, after its own imports.
      const use = `log('debug', 'loaded ${kind}-${k}');\n`;
      if (kind === 'axios-cjs') content = content.replace("'use strict';\n", `'use strict';\nconst { log } = require('./log');\n${use}`);
      else content = `import { log } from './log';\n${content.replace(/^((?:import [^\n]*\n)*)/, `$1${use}`)}`;
    }
    write(root, rel, content, manifest);
    manifest.sources++;
    manifest.imports.set(rel, imports);
    if (kind === 'wrapper-client') clientRel = rel;
    manifest.runpodFiles.push(rel);
    (changes ? manifest.expectedChanged : manifest.runpodUnchanged).push(rel);
    if (!['wrapper-calls', 'wrapper-create', 'job-api'].includes(kind)) manifest.seeds.push(rel);
  }
  return manifest;
}

/**
 * The files src/run/project.ts takes part in a run (IMPORT_HOPS = 3, HELPER_HOPS = 2), estimated from
 * the generated import graph. Paths are tree-relative.
 */
export function importClosure(manifest, callerHops = 3, helperHops = 2) {
  // Mirrors src/run/project.ts: the seeds' importers, transitively (callers), then what those import
  // (helpers), never a helper's other importers.
  const importers = new Map();
  for (const [from, tos] of manifest.imports) for (const to of tos) importers.set(to, [...(importers.get(to) ?? []), from]);
  const spread = (start, edges, hops, into) => {
    let frontier = [...start];
    for (let h = 0; h < hops && frontier.length; h++) {
      const next = [];
      for (const f of frontier) for (const g of edges.get(f) ?? []) if (!into.has(g)) (into.add(g), next.push(g));
      frontier = next;
    }
  };
  const callers = new Set(manifest.seeds);
  spread(manifest.seeds, importers, callerHops, callers);
  const taken = new Set(callers);
  spread(callers, manifest.imports, helperHops, taken);
  return [...taken].sort();
}
