import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempProject } from './helpers.js';
import { loadSettings } from '../src/config.js';
import { markerParses } from '../src/markers/index.js';
import { run } from '../src/run/runner.js';

const CLIENT = `const BASE = 'https://rest.runpod.io/v1';
export const reset = (id: string) => fetch(\`\${BASE}/pods/\${id}/reset\`, { method: 'POST' }); // v2-migrate-keep-v1 pod-reset
export const help = 'curl https://rest.runpod.io/v1/pods'; // rp-migrate: ignore -- help text
export const cmd = 'curl https://rest.runpod.io/v1/pods/x/stop';
`;

describe('markers end to end', () => {
  it('take marked findings out of the gate and list them apart (text, json)', () => {
    const dir = tempProject({ 'a.ts': CLIENT });
    const text = cli(['lint'], dir);
    expect(text.code).toBe(1); // base-url and the unmarked embedded-url remain
    expect(text.stdout).toMatch(/Kept on purpose \(v2-migrate-keep-v1\), not counted:\n {2}a\.ts:2:\d+ {2}POST \/pods\/\{podId\}\/reset[^\n]*pod-reset\n/);
    expect(text.stdout).toMatch(/Marked false positive \(v2-migrate-ignore\), not counted:\n {2}a\.ts:3:\d+ [^\n]*embedded-url\n/);
    // The kept reset still holds the base it shares: moving it would send the kept request to v2.
    expect(text.stdout).toMatch(/1 error, 1 warning, 0 info \(0 fixable by running v2-migrate\); not counted: 1 kept on purpose, 1 marked false positive\.\nExit code 1: lint fails on 1 error and 1 warning \(more than --max-warnings 0\)\.\n$/);

    const doc = JSON.parse(cli(['lint', '--format', 'json'], dir).stdout);
    expect(doc.files[0].findings.map((f: { ruleId: string; line: number }) => `${f.line} ${f.ruleId}`)).toEqual(['1 base-url', '4 embedded-url']);
    expect(doc.files[0].suppressed.map((f: { ruleId: string; line: number; marker: string }) => `${f.line} ${f.ruleId} ${f.marker}`)).toEqual(['2 pod-reset keep-v1', '3 embedded-url ignore']);
    expect(Object.keys(doc.files[0].findings[0]).sort()).toEqual(['column', 'fixable', 'line', 'message', 'ruleId', 'severity']);
    expect(doc.summary).toMatchObject({ errors: 1, warnings: 1, kept: 1, ignored: 1, baselined: 0 });
  });

  it('a file marker clears the gate; --quiet hides the marked sections', () => {
    const dir = tempProject({ 'a.ts': '// v2-migrate-keep-v1-file -- the legacy admin tool, retired with v1\n' + CLIENT });
    const r = cli(['lint'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('not counted: 3 kept on purpose, 1 marked false positive'); // the line's rp-migrate ignore is more specific than the file marker
    expect(cli(['lint', '--quiet'], dir).stdout).toBe('');
  });

  it('lists marker problems without failing on them', () => {
    const dir = tempProject({ 'a.ts': "export const help = 'curl https://rest.runpod.io/v1/pods'; // v2-migrate-ignore embeded-url\n" });
    const r = cli(['lint'], dir);
    expect(r.code).toBe(1); // the typo matches nothing: the finding stays in the gate
    expect(r.stdout).toContain('Marker comments to check:\n  a.ts:1:');
    expect(r.stdout).toContain('names "embeded-url", which is not a rule id');
  });

  // The engine consults markers when it plans edits (migrate.ts freezeMarked): marked code is not rewritten.
  it('a keep-v1 marker stops the rewrite of the marked code', () => {
    const src = "export const u = 'https://rest.runpod.io/v1/pods'; // v2-migrate-keep-v1\nexport const w = 'https://rest.runpod.io/v1/templates';\n";
    const dir = tempProject({ 'a.ts': src });
    cli(['--allow-dirty'], dir);
    const out = fs.readFileSync(path.join(dir, 'a.ts'), 'utf8');
    expect(out.split('\n')[0]).toBe(src.split('\n')[0]);
    expect(out.split('\n')[1]).toContain('https://api.runpod.io/v2/templates');
  });
});

describe('markers are parsed once per file', () => {
  it('by the engine that reads the file; the runner takes marked findings out of the gate with that index', async () => {
    const dir = tempProject({
      'a.ts': CLIENT,
      'deploy.sh': 'curl -X POST "https://rest.runpod.io/v1/pods/$POD/reset" # v2-migrate-keep-v1\ncurl https://rest.runpod.io/v1/pods\n',
    });
    const before = markerParses.count;
    const result = await run(['.'], dir, loadSettings({ searchFrom: dir }));
    expect(markerParses.count - before).toBe(2);
    expect(result.results.map((r) => [r.path, r.suppressed.map((f) => `${f.line} ${f.ruleId} ${f.marker}`)])).toEqual([
      ['a.ts', ['2 pod-reset keep-v1', '3 embedded-url ignore']],
      ['deploy.sh', ['1 pod-reset keep-v1', '1 base-url keep-v1']],
    ]);
  });
});
