import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, tempProject } from './helpers.js';

/** Single-worker and multi-worker runs must produce byte-identical reports and diffs. */
function tree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let p = 0; p < 6; p++) {
    files[`pkg${p}/src/api.ts`] =
      "const BASE = process.env.RUNPOD_REST_URL ?? 'https://rest.runpod.io/v1';\n" +
      'export async function api(method: string, path: string, body?: unknown) {\n' +
      "  const r = await fetch(BASE + path, { method, headers: { 'Content-Type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });\n" +
      '  return r.json();\n}\n';
    for (let f = 0; f < 4; f++) {
      files[`pkg${p}/src/use${f}.ts`] =
        "import { api } from './api';\n" +
        'export const stop = (id: string) => api(\'POST\', `/pods/${id}/stop`);\n' +
        "export const eps = () => api('GET', '/endpoints');\n" +
        "export const mk = () => api('POST', '/pods', { name: 'n', imageName: 'i', gpuTypeIds: ['NVIDIA A40', 'NVIDIA L40'] });\n";
    }
  }
  files['pkg0/src/reset.ts'] = "import { api } from './api';\nexport const reset = (id: string) => api('POST', `/pods/${id}/reset`);\n";
  return files;
}

function run(dir: string, jobs: number, format: string): string {
  const r = spawnSync(process.execPath, [BIN, '--dry-run', '.', '--format', format, '--jobs', String(jobs)], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', V2_MIGRATE_WORKER_THRESHOLD: '0', V2_MIGRATE_SCREEN_THRESHOLD: '0' },
  });
  expect(r.status, r.stderr).toBe(1);
  return r.stdout;
}

describe('--jobs', () => {
  it('gives byte-identical diffs and reports with 1 and 2 workers', () => {
    const dir = tempProject(tree());
    for (const format of ['text', 'json', 'sarif']) {
      const one = run(dir, 1, format);
      expect(run(dir, 2, format), format).toBe(one);
    }
    expect(run(dir, 1, 'text')).toContain('+++ b/pkg5/src/use3.ts');
  }, 60_000);
});
