import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempProject } from './helpers.js';

/** The text engine through the CLI: discovery, rewrites, markers, and .env shared with JS code. */
describe('lint everywhere (CLI)', () => {
  it('migrates Python, shell and Markdown next to JS, and leaves the job API alone', () => {
    const dir = tempProject({
      'scripts/pods.py': 'import requests\nBASE = "https://rest.runpod.io/v1"\ndef eps():\n    return requests.get(f"{BASE}/endpoints").json()\n',
      'scripts/stop.sh': 'API="${RUNPOD_REST_API:-https://rest.runpod.io/v1}"\ncurl -s -X DELETE "$API/networkvolumes/$1"\n',
      'docs/run.md': '```bash\ncurl https://api.runpod.ai/v2/$ID/runsync\n```\n',
      'src/a.ts': "export const del = (id: string) => fetch(`https://rest.runpod.io/v1/templates/${id}`, { method: 'DELETE' });\n",
    });
    const dry = JSON.parse(cli(['--dry-run', '--format', 'json'], dir).stdout);
    expect(dry.files.filter((f: { changed: boolean }) => f.changed).map((f: { path: string }) => f.path)).toEqual(['scripts/pods.py', 'scripts/stop.sh', 'src/a.ts']);
    cli([], dir);
    expect(fs.readFileSync(path.join(dir, 'scripts/pods.py'), 'utf8')).toContain('f"{BASE}/serverless"');
    expect(fs.readFileSync(path.join(dir, 'scripts/stop.sh'), 'utf8')).toContain('"$API/network-volumes/$1"');
    expect(fs.readFileSync(path.join(dir, 'docs/run.md'), 'utf8')).toContain('api.runpod.ai/v2/$ID/runsync');
  });

  it('a keep-v1 marker in a Python file keeps the file as it is', () => {
    const src = 'BASE = "https://rest.runpod.io/v1"  # v2-migrate-keep-v1\nURL = f"{BASE}/pods"\n';
    const dir = tempProject({ 'a.py': src });
    const r = cli(['a.py'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Kept on purpose (v2-migrate-keep-v1)');
    expect(fs.readFileSync(path.join(dir, 'a.py'), 'utf8')).toBe(src);
  });

  it('a .env base read by JS code that cannot move stays, with the reason', () => {
    const dir = tempProject({
      '.env.example': 'RUNPOD_REST_URL=https://rest.runpod.io/v1\n',
      'a.ts': 'export const list = (q: string) => fetch(`${process.env.RUNPOD_REST_URL}/pods${q}`);\n',
    });
    const doc = JSON.parse(cli(['lint', '--format', 'json'], dir).stdout);
    const env = doc.files.find((f: { path: string }) => f.path === '.env.example');
    expect(env.findings[0]).toMatchObject({ ruleId: 'base-url', fixable: false });
    cli([], dir);
    expect(fs.readFileSync(path.join(dir, '.env.example'), 'utf8')).toContain('rest.runpod.io/v1');
  });
});
