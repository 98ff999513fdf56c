import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../src/findings.js';
import { annotation, escapeData, escapeProperty } from '../src/report/github.js';
import { scanInventory } from '../src/scan/inventory.js';
import { BIN, cli, git, sarifValidator, tempProject } from './helpers.js';

const BASES = { legacy: ['https://rest.runpod.io/v1'], target: 'https://api.runpod.io/v2' };

const TRANSPORT = `// shared transport
export const RUNPOD_REST = process.env.RUNPOD_REST ?? 'https://rest.runpod.io/v1';
export async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(\`\${RUNPOD_REST}\${path}\`, { method, headers: { Authorization: 'Bearer k', 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return res.json();
}
export const listPods = () => api('GET', '/pods');
export const stopPod = (id: string) => api('POST', \`/pods/\${id}/stop\`);
export const resetPod = (id: string) => api('POST', \`/pods/\${id}/reset\`);
export const legacyReset = (id: string) => api('POST', \`/pods/\${id}/reset\`); // v2-migrate-keep-v1 pod-reset -- ops tool, retired with it
`;
const SCRIPT = `// v2-migrate-ignore-next-line
export const help = 'curl https://rest.runpod.io/v1/pods lists pods (old docs)';
export const cmd = 'curl -X POST https://rest.runpod.io/v1/pods/$ID/stop';
`;
const JOBS = `import runpod from 'runpod-sdk';
export const run = (id: string) => fetch(\`https://api.runpod.ai/v2/\${id}/run\`, { method: 'POST', body: '{}' });
export const gql = 'https://api.runpod.io/graphql?api_key=k';
export const v2 = 'https://api.runpod.io/v2/pods';
export { runpod };
`;

function project() {
  return tempProject({ 'src/lib/runpod.ts': TRANSPORT, 'src/scripts/help.ts': SCRIPT, 'src/jobs.ts': JOBS, 'src/ui/Card.tsx': "export const stop = (id: string) => fetch('https://rest.runpod.io/v1/pods/' + id + '/stop', { method: 'POST' });\n" });
}

describe('--format github', () => {
  it('escapes data and properties by GitHub’s rules', () => {
    expect(escapeData('100% done\r\nnext')).toBe('100%25 done%0D%0Anext');
    expect(escapeProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
    const f: Finding = { ruleId: 'embedded-url', severity: 'info', line: 3, column: 7, message: 'say "50%"\nthen: stop, go', fixable: false };
    expect(annotation('dir,x/a:b.ts', f, '')).toBe('::notice file=dir%2Cx/a%3Ab.ts,line=3,col=7,title=embedded-url::say "50%25"%0Athen: stop, go');
  });

  it('prints one workflow command per finding in the gate and a summary line', () => {
    const dir = project();
    const r = cli(['lint', '--format', 'github'], dir);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toContain('::error file=src/lib/runpod.ts,line=9,col=41,title=pod-reset::POST /pods/{podId}/reset has no v2 equivalent: the closest is the restart action (POST /v2/pods/{id}/action {"action":"restart"}); a true reset is a stop then a start.');
    // The reset kept on v1 by its marker keeps the shared base (base and requests move together), and the annotation says so.
    expect(lines.some((l) => l.startsWith('::error file=src/lib/runpod.ts,line=2,') && l.includes('a request marked v2-migrate-keep-v1'))).toBe(true);
    expect(lines.some((l) => l.startsWith('::warning file=src/scripts/help.ts,line=3,') && l.includes('title=embedded-url::'))).toBe(true);
    // Marked lines are not annotated.
    expect(lines.some((l) => l.includes('line=10,') && l.includes('runpod.ts'))).toBe(false);
    expect(lines.some((l) => l.includes('help.ts,line=2,'))).toBe(false);
    expect(lines.at(-1)).toMatch(/^v2-migrate: 4 files scanned: .*not counted: 1 kept on purpose, 1 marked false positive\.$/);
    expect(lines.filter((l) => !l.startsWith('::')).length).toBe(1);
  });
});

describe('paths for GitHub from a package folder', () => {
  it('annotations and SARIF name files relative to the repository (git root, or GITHUB_WORKSPACE), not the folder the run started in', () => {
    const dir = tempProject({ 'apps/web/src/pods.ts': "export const stop = (id: string) => fetch('https://rest.runpod.io/v1/pods/' + id + '/stop', { method: 'POST' });\n" });
    const web = path.join(dir, 'apps', 'web');
    const run = (format: string, env: Record<string, string> = {}) => spawnSync(process.execPath, [BIN, 'lint', '--format', format], { cwd: web, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', GITHUB_WORKSPACE: '', ...env } }).stdout;
    // Not in a repository: relative to where the run started, as before.
    expect(run('github')).toContain('file=src/pods.ts,');
    git(dir, 'init', '-q');
    expect(run('github')).toContain('file=apps/web/src/pods.ts,');
    const uris = (JSON.parse(run('sarif')) as { runs: Array<{ results: Array<{ locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }> }> }).runs[0]!.results.map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri);
    expect(new Set(uris)).toEqual(new Set(['apps/web/src/pods.ts']));
    expect(run('github', { GITHUB_WORKSPACE: path.join(dir, 'apps') })).toContain('file=web/src/pods.ts,');
  });
});

describe('--format sarif', () => {
  const validate = sarifValidator();

  function check(doc: unknown): void {
    const ok = validate(doc);
    expect(ok, JSON.stringify(validate.errors, null, 2)).toBe(true);
  }

  it('validates against the SARIF 2.1.0 schema and has what code scanning needs', () => {
    const dir = project();
    const r = cli(['lint', '--format', 'sarif'], dir);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    check(doc);
    const run = doc.runs[0];
    expect(run.tool.driver).toMatchObject({ name: 'v2-migrate', version: expect.stringMatching(/^\d+\.\d+\.\d+/), informationUri: expect.stringMatching(/^https:\/\//) });
    const ruleIds = run.tool.driver.rules.map((x: { id: string }) => x.id);
    expect(ruleIds).toContain('pod-reset');
    const resetRule = run.tool.driver.rules.find((x: { id: string }) => x.id === 'pod-reset');
    expect(resetRule.shortDescription.text).toMatch(/no v2 equivalent/);
    expect(resetRule.fullDescription.text.length).toBeGreaterThan(100);
    expect(resetRule.help.text).toMatch(/Before:/);
    expect(resetRule.defaultConfiguration.level).toBe('error');
    const reset = run.results.find((x: { ruleId: string; suppressions?: unknown }) => x.ruleId === 'pod-reset' && !x.suppressions);
    expect(reset).toMatchObject({ level: 'error', message: { text: expect.stringMatching(/reset/) }, locations: [{ physicalLocation: { artifactLocation: { uri: 'src/lib/runpod.ts' }, region: { startLine: 9, startColumn: 41 } } }] });
    expect(run.tool.driver.rules[reset.ruleIndex].id).toBe('pod-reset');
    expect(reset.partialFingerprints['v2MigrateLineHash/v1']).toMatch(/^pod-reset:[0-9a-f]{16}:0$/);
    const embedded = run.results.find((x: { ruleId: string; suppressions?: unknown }) => x.ruleId === 'embedded-url' && !x.suppressions);
    expect(embedded.level).toBe('warning');
    const suppressed = run.results.filter((x: { suppressions?: unknown }) => x.suppressions);
    expect(suppressed.map((x: { ruleId: string; suppressions: { kind: string }[] }) => [x.ruleId, x.suppressions[0]!.kind])).toEqual([
      ['pod-reset', 'inSource'],
      ['embedded-url', 'inSource'],
    ]);
  });

  it('maps info to note, percent-encodes paths, and marks baselined results unchanged', () => {
    const dir = tempProject({
      'my dir/a.ts': "export const list = (base: string) => fetch(`${base}/pods`); export const x = 'https://rest.runpod.io/v1';\n",
      'b.ts': "export const reset = (id: string) => fetch('https://rest.runpod.io/v1/pods/' + id + '/reset', { method: 'POST' });\n",
    });
    expect(cli(['lint', '--baseline', 'base.json', '--update-baseline'], dir).code).toBe(0);
    fs.appendFileSync(path.join(dir, 'b.ts'), "export const reset2 = (pod: string) => fetch('https://rest.runpod.io/v1/pods/' + pod + '/reset', { method: 'POST' });\n");
    const r = cli(['lint', '--format', 'sarif', '--baseline', 'base.json'], dir);
    const doc = JSON.parse(r.stdout);
    check(doc);
    const results = doc.runs[0].results as { ruleId: string; level: string; baselineState?: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[];
    expect(results.some((x) => x.locations[0]!.physicalLocation.artifactLocation.uri === 'my%20dir/a.ts')).toBe(true);
    expect(results.filter((x) => x.baselineState === 'new').map((x) => [x.ruleId, x.locations[0]!.physicalLocation.region.startLine])).toContainEqual(['pod-reset', 2]);
    expect(results.filter((x) => x.baselineState === 'unchanged').map((x) => [x.ruleId, x.locations[0]!.physicalLocation.region.startLine])).toContainEqual(['pod-reset', 1]);
    expect(results.find((x) => x.ruleId === 'unresolved-url')?.level).toBe('note');
  });

  it('gives fixable findings their fixes: findings whose edits depend on each other share one, listed on the first of them', () => {
    const dir = tempProject({
      'a.ts': "const BASE = 'https://rest.runpod.io/v1';\nexport const stop = (id: string) => fetch(`${BASE}/pods/${id}/stop`, { method: 'POST' });\nexport const del = (id: string) => fetch('https://rest.runpod.io/v1/pods/' + id, { method: 'DELETE' });\n",
    });
    const doc = JSON.parse(cli(['--dry-run', '--format', 'sarif'], dir).stdout);
    check(doc);
    const change = (...replacements: Array<[number, number, number, number, string]>) => [
      {
        description: { text: expect.stringMatching(/^What v2-migrate writes for this [a-z-]+ finding\.$/) },
        artifactChanges: [{ artifactLocation: { uri: 'a.ts' }, replacements: replacements.map(([startLine, startColumn, endLine, endColumn, text]) => ({ deletedRegion: { startLine, startColumn, endLine, endColumn }, insertedContent: { text } })) }],
      },
    ];
    const stop = change([1, 15, 1, 40, 'https://api.runpod.io/v2'], [2, 63, 2, 67, 'action'], [2, 86, 2, 86, ", body: JSON.stringify({ action: 'stop' })"]);
    const results = doc.runs[0].results as Array<{ ruleId: string; locations: Array<{ physicalLocation: { region: { startLine: number } } }>; fixes?: unknown }>;
    expect(results.map((r) => [r.ruleId, r.locations[0]!.physicalLocation.region.startLine, r.fixes])).toEqual([
      ['base-url', 1, stop],
      ['pod-action', 2, undefined],
      ['base-url', 3, change([3, 43, 3, 68, 'https://api.runpod.io/v2'])],
    ]);
  });

  it('validates for a clean project and a dry run', () => {
    const dir = tempProject({ 'a.ts': "export const x = 'https://api.runpod.io/v2/pods';\n" });
    const clean = cli(['lint', '--format', 'sarif'], dir);
    expect(clean.code).toBe(0);
    check(JSON.parse(clean.stdout));
    expect(JSON.parse(clean.stdout).runs[0].results).toEqual([]);
    const dry = cli(['--dry-run', '--format', 'sarif'], project());
    check(JSON.parse(dry.stdout));
  });
});

describe('--format markdown', () => {
  it('is an inventory: APIs in use, files, decisions, order, kept and ignored', () => {
    const dir = project();
    const r = cli(['lint', '--format', 'markdown'], dir);
    expect(r.code).toBe(1);
    const md = r.stdout;
    const section = (title: string) => {
      const start = md.indexOf(`## ${title}\n`);
      expect(start, `section ${title}`).toBeGreaterThanOrEqual(0);
      const next = md.indexOf('\n## ', start + 3);
      return md.slice(start, next < 0 ? undefined : next);
    };
    expect(md).toMatch(/^# RunPod API inventory\n/);
    const apis = section('APIs in use');
    expect(apis).toMatch(/\| REST v1 \(retired\) \| 4 \| 3 \|/);
    expect(apis).toMatch(/\| REST v2 \(already migrated\) \| 1 \| 1 \|/);
    expect(apis).toMatch(/\| Serverless job API[^|]*\| 1 \| 1 \|/);
    expect(apis).toMatch(/\| GraphQL[^|]*\| 1 \| 1 \|/);
    expect(apis).toMatch(/\| RunPod SDK imports \| 1 \| 1 \|/);

    const files = section('Files');
    // Held by its reset: nothing fixable yet; the pods and the stop's answer are returned to callers outside the run.
    expect(files).toContain('| `src/lib/runpod.ts` | 5 | 4 | 2 | 0 | 0 | 1 | 0 | 0 |');
    expect(files).toContain('| **total** | 8 | 6 | 3 | 0 | 2 | 1 | 1 | 0 |');
    expect(files).toContain('| `src/scripts/help.ts` | 2 | 0 | 1 | 0 | 0 | 0 | 1 | 0 |');
    expect(files).not.toContain('jobs.ts');

    const decisions = section('Decisions to make');
    expect(decisions).toContain('### `pod-reset` (1)');
    expect(decisions).toContain('- `src/lib/runpod.ts:9` — POST /pods/{podId}/reset has no v2 equivalent');
    expect(decisions).toContain('### `embedded-url` (1)');
    expect(decisions).toContain('- `src/scripts/help.ts:3`');
    expect(decisions).not.toContain('runpod.ts:10');

    const order = section('Suggested order');
    const listed = [...order.matchAll(/^\d+\. `([^`]+)`/gm)].map((m) => m[1]);
    // Transport first (defines the base), then fewest v1 sites first.
    expect(listed).toEqual(['src/lib/runpod.ts', 'src/ui/Card.tsx', 'src/scripts/help.ts']);
    expect(order).toMatch(/1\. `src\/lib\/runpod\.ts` — defines a v1 base URL \(line 2\): shared transport; 5 v1 sites, 6 decisions/); // the held requests wait for the reset

    expect(section('Kept on purpose')).toContain('- `src/lib/runpod.ts:10` `pod-reset` —');
    expect(section('Marked false positive')).toContain('- `src/scripts/help.ts:2` `embedded-url` —');
  });

  it('says so when there is nothing to migrate, and reports a baseline', () => {
    const dir = tempProject({ 'a.ts': "export const x = 'https://api.runpod.io/v2/pods';\n" });
    const md = cli(['lint', '--format', 'markdown'], dir).stdout;
    expect(md).toContain('No file uses REST v1.');
    expect(md).toContain('None: everything in the gate is fixable by the codemod.');
    const dir2 = project();
    cli(['lint', '--baseline', 'b.json', '--update-baseline'], dir2);
    const md2 = cli(['lint', '--format', 'markdown', '--baseline', 'b.json'], dir2).stdout;
    expect(md2).toMatch(/## Baselined\n\n\d+ findings are in the baseline `b\.json`/);
  });
});

describe('inventory', () => {
  it('classifies REST v1, v2, job API, GraphQL and SDK imports, and finds base definitions', () => {
    const text = [
      "const API = 'https://rest.runpod.io/v1';", // 1: v1, a base definition
      'API="${RUNPOD_REST:-https://rest.runpod.io/v1/}"', // 2: v1, a base definition
      "fetch('https://rest.runpod.io/v1/pods');", // 3: v1
      "fetch('https://api.runpod.io/v2/pods');", // 4: v2
      "fetch('https://api.runpod.ai/v2/abc/run');", // 5: job
      "fetch('https://api.runpod.io/graphql?api_key=k');", // 6: GraphQL
      'import runpod', // 7: Python SDK
      'from runpod.serverless import start', // 8: Python SDK
      "import { x } from 'runpod-sdk';", // 9: JS SDK
      "const y = require('@runpod/ai-sdk-provider');", // 10: JS SDK
      "const z = 'https://rest.runpod.io/v10 https://myrest.runpod.io/v1 https://rest.runpod.io.evil.com/v1';", // 11: none
      'See https://rest.runpod.io/v1.', // 12: v1 (sentence end)
      'import runpod_utils', // 13: none
      '',
    ].join('\n');
    const inv = scanInventory(text, BASES);
    expect(inv.counts).toEqual({ restV1: 4, restV2: 1, jobApi: 1, graphql: 1, sdk: 4 });
    expect(inv.hits.filter((h) => h.kind === 'restV1').map((h) => h.line)).toEqual([1, 2, 3, 12]);
    expect(inv.hits.filter((h) => h.kind === 'sdk').map((h) => h.line)).toEqual([7, 8, 9, 10]);
    expect(inv.v1BaseLines).toEqual([1, 2]);
  });

  it('knows configured proxy bases and is empty for files without RunPod', () => {
    const inv = scanInventory("const B = 'https://runpod-proxy.internal/v1';\n", { ...BASES, legacy: [...BASES.legacy, 'https://runpod-proxy.internal/v1'] });
    expect(inv.counts.restV1).toBe(1);
    expect(scanInventory("fetch('https://api.openai.com/v1/models')\n", BASES).hits).toEqual([]);
  });
});
