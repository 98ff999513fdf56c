import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers.js';

// jscodeshift's own test utilities, on the built transform (what `jscodeshift -t` loads).
const require = createRequire(import.meta.url);
const { applyTransform } = require('jscodeshift/dist/testUtils') as {
  applyTransform: (module: unknown, options: object, input: { source: string; path: string }) => string;
};

describe('jscodeshift transform dist/transforms/v1-to-v2.js', async () => {
  const mod = await import(path.join(REPO, 'dist/transforms/v1-to-v2.cjs'));

  it('rewrites a v1 call like the CLI does', () => {
    const source = "const API = 'https://rest.runpod.io/v1';\nexport const del = (id: string) => fetch(`${API}/endpoints/${id}`, { method: 'DELETE' });\n";
    const out = applyTransform(mod, {}, { source, path: 'a.ts' });
    expect(out).toBe("const API = 'https://api.runpod.io/v2';\nexport const del = (id: string) => fetch(`${API}/serverless/${id}`, { method: 'DELETE' });");
  });

  it('leaves the job API alone and honours --legacyBaseUrl', () => {
    const job = "fetch('https://api.runpod.ai/v2/abc/run', { method: 'POST' });";
    // Returning nothing tells jscodeshift the file is skipped (applyTransform reports it as '').
    expect(applyTransform(mod, {}, { source: job, path: 'j.js' })).toBe('');
    const proxied = "fetch('https://proxy.local/v1/networkvolumes');";
    expect(applyTransform(mod, { legacyBaseUrl: 'https://proxy.local/v1' }, { source: proxied, path: 'p.js' })).toBe("fetch('https://api.runpod.io/v2/network-volumes');");
  });
});
