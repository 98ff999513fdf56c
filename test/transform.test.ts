import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, REPO, tempProject } from './helpers.js';

// The real jscodeshift binary on the built transform, as the README tells users to run it.
const JSCODESHIFT = path.join(path.dirname(createRequire(import.meta.url).resolve('jscodeshift/package.json')), 'bin', 'jscodeshift.js');
const TRANSFORM = path.join(REPO, 'dist', 'transforms', 'v1-to-v2.cjs');

function jscodeshift(dir: string, ...flags: string[]) {
  const r = spawnSync(process.execPath, [JSCODESHIFT, '-t', TRANSFORM, '--extensions=ts,js', ...flags, 'src/'], { cwd: dir, encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
}

const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel), 'utf8');

const PROJECT = {
  'src/config.ts': "export const API = 'https://rest.runpod.io/v1';\n",
  'src/fetcher.ts': "import { API } from './config';\nexport const list = () => fetch(`${API}/endpoints`);\n",
  'src/alone.ts': "export const del = (id: string) => fetch(`https://rest.runpod.io/v1/networkvolumes/${id}`, { method: 'DELETE' });\n",
  'src/jobs.js': "export const run = (id) => fetch(`https://api.runpod.ai/v2/${id}/run`, { method: 'POST' });\n",
};

describe('jscodeshift -t dist/transforms/v1-to-v2.cjs', () => {
  for (const babel of [[], ['--no-babel']]) {
    it(`rewrites a change that stands alone like the CLI, and refuses one that spans files ${babel.join(' ') || '(babel-register on)'}`, () => {
      const dir = tempProject(PROJECT);
      const cliAlone = tempProject(PROJECT);
      cli(['--allow-dirty'], cliAlone);
      const r = jscodeshift(dir, ...babel);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/1 ok/);
      expect(r.out).not.toMatch(/[1-9]\d* errors/);
      // The file whose change is its own gets exactly the CLI's text.
      expect(read(dir, 'src/alone.ts')).toBe(read(cliAlone, 'src/alone.ts'));
      // The base and the paths built on it must move together: neither is written, and the report says why.
      expect(read(dir, 'src/config.ts')).toBe(PROJECT['src/config.ts']);
      expect(read(dir, 'src/fetcher.ts')).toBe(PROJECT['src/fetcher.ts']);
      expect(r.out).toContain('src/config.ts: not rewritten: its change must move together with src/fetcher.ts');
      expect(read(dir, 'src/jobs.js')).toBe(PROJECT['src/jobs.js']);
      // A second run changes nothing.
      expect(jscodeshift(dir, ...babel).out).toMatch(/0 ok/);
    }, 60_000);
  }

  it('honours --legacyBaseUrl', () => {
    const dir = tempProject({ 'src/p.js': "fetch('https://proxy.local/v1/networkvolumes');\n" });
    jscodeshift(dir, '--legacyBaseUrl=https://proxy.local/v1');
    expect(read(dir, 'src/p.js')).toBe("fetch('https://api.runpod.io/v2/network-volumes');\n");
  }, 60_000);
});
