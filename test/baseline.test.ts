import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../src/findings.js';
import { formatBaseline, lineHash, linePrints } from '../src/run/baseline.js';
import { cli, tempProject } from './helpers.js';

const A = `const BASE = 'https://rest.runpod.io/v1';
export const reset = (id: string) => fetch(\`\${BASE}/pods/\${id}/reset\`, { method: 'POST' });
export const cmd = 'curl https://rest.runpod.io/v1/pods';
`;
const LOG = "console.log('curl https://rest.runpod.io/v1/pods');\n";
const B = "export const cmd = 'curl https://rest.runpod.io/v1/pods';\n" + LOG;

const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');

describe('fingerprints', () => {
  const f = (line: number, column: number, ruleId: Finding['ruleId'] = 'embedded-url'): Finding => ({ ruleId, severity: 'warning', line, column, message: 'm', fixable: false });

  it('hash the trimmed line text and number repeats in position order', () => {
    expect(lineHash('  x();  ')).toBe(lineHash('x();'));
    expect(lineHash('x();')).toMatch(/^[0-9a-f]{16}$/);
    const lines = ['same();', 'other();', '  same();', 'same(); same();'];
    const findings = [f(4, 9), f(1, 1), f(3, 3), f(4, 1), f(2, 1), f(1, 1, 'pod-reset')];
    const prints = linePrints(findings, lines);
    const occ = (x: Finding) => prints.get(x)!.occurrence;
    expect([occ(findings[1]!), occ(findings[2]!)]).toEqual([0, 1]); // lines 1 and 3 have the same trimmed text
    expect([occ(findings[3]!), occ(findings[0]!)]).toEqual([0, 1]); // two on line 4, by column
    expect(occ(findings[4]!)).toBe(0);
    expect(occ(findings[5]!)).toBe(0); // another rule counts apart
  });

  it('format stably: sorted, whatever the input order', () => {
    const e = (p: string, ruleId: string, occurrence = 0) => ({ path: p, ruleId, lineHash: 'h', occurrence });
    const one = formatBaseline([e('b.ts', 'x'), e('a.ts', 'y', 1), e('a.ts', 'y', 0), e('a.ts', 'x')]);
    const two = formatBaseline([e('a.ts', 'y', 0), e('a.ts', 'x'), e('a.ts', 'y', 1), e('b.ts', 'x')]);
    expect(one).toBe(two);
    expect(JSON.parse(one).findings.map((x: { path: string; ruleId: string; occurrence: number }) => `${x.path}:${x.ruleId}:${x.occurrence}`)).toEqual(['a.ts:x:0', 'a.ts:y:0', 'a.ts:y:1', 'b.ts:x:0']);
    expect(one.endsWith('\n')).toBe(true);
  });
});

describe('lint --baseline', () => {
  it('round trip: update-baseline exits 0, then lint passes; moved lines still match; a new v1 call fails', () => {
    const dir = tempProject({ 'src/a.ts': A, 'src/b.ts': B });
    expect(cli(['lint'], dir).code).toBe(1);

    const update = cli(['lint', '--baseline', 'v2-migrate-baseline.json', '--update-baseline'], dir);
    expect(update.code).toBe(0);
    expect(update.stdout).toMatch(/wrote 5 findings in 2 files to v2-migrate-baseline\.json/);
    const saved = read(dir, 'v2-migrate-baseline.json');
    const doc = JSON.parse(saved);
    expect(doc.version).toBe(1);
    expect(doc.findings.map((x: { path: string; ruleId: string }) => `${x.path} ${x.ruleId}`)).toEqual(['src/a.ts base-url', 'src/a.ts embedded-url', 'src/a.ts pod-reset', 'src/b.ts embedded-url', 'src/b.ts embedded-url']);
    // Running it again writes the same bytes.
    cli(['lint', '--baseline', 'v2-migrate-baseline.json', '--update-baseline'], dir);
    expect(read(dir, 'v2-migrate-baseline.json')).toBe(saved);

    const ok = cli(['lint', '--baseline', 'v2-migrate-baseline.json'], dir);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/0 errors, 0 warnings, 0 info .*not counted: 5 baselined\./);
    const json = JSON.parse(cli(['lint', '--baseline', 'v2-migrate-baseline.json', '--format', 'json'], dir).stdout);
    expect(json.summary).toMatchObject({ errors: 0, warnings: 0, baselined: 5 });
    expect(json.files.flatMap((x: { findings: unknown[] }) => x.findings)).toEqual([]);

    // Lines move (a header, a blank line, re-indentation): still baselined.
    fs.writeFileSync(path.join(dir, 'src/a.ts'), '// RunPod client\n\n' + A.replace("export const cmd", "  export const cmd"));
    expect(cli(['lint', '--baseline', 'v2-migrate-baseline.json'], dir).code).toBe(0);

    // A new v1 call fails, and only it is reported.
    fs.appendFileSync(path.join(dir, 'src/b.ts'), "export const stop = (id: string) => fetch('https://rest.runpod.io/v1/pods/' + id + '/reset', { method: 'POST' });\n");
    const fail = cli(['lint', '--baseline', 'v2-migrate-baseline.json', '--format', 'json'], dir);
    expect(fail.code).toBe(1);
    const left = JSON.parse(fail.stdout).files.flatMap((x: { path: string; findings: { ruleId: string; line: number }[] }) => x.findings.map((y) => `${x.path}:${y.line} ${y.ruleId}`));
    expect(left.sort()).toEqual(['src/b.ts:3 base-url', 'src/b.ts:3 pod-reset']);

    // A second copy of a baselined line is new too (occurrence 1 is not in the baseline).
    fs.appendFileSync(path.join(dir, 'src/b.ts'), LOG);
    const dup = JSON.parse(cli(['lint', '--baseline', 'v2-migrate-baseline.json', '--format', 'json'], dir).stdout);
    expect(dup.files.flatMap((x: { path: string; findings: { ruleId: string; line: number }[] }) => x.findings.filter((y) => y.ruleId === 'embedded-url').map((y) => `${x.path}:${y.line}`))).toEqual(['src/b.ts:4']);
  });

  it('stores paths relative to the baseline file, so lint works from another folder', () => {
    const dir = tempProject({ 'pkg/src/a.ts': A });
    expect(cli(['lint', 'src', '--baseline', 'ci/baseline.json', '--update-baseline'], path.join(dir, 'pkg')).code).toBe(2); // ci/ does not exist: a clear error
    fs.mkdirSync(path.join(dir, 'pkg/ci'));
    expect(cli(['lint', 'src', '--baseline', 'ci/baseline.json', '--update-baseline'], path.join(dir, 'pkg')).code).toBe(0);
    expect(JSON.parse(read(dir, 'pkg/ci/baseline.json')).findings[0].path).toBe('../src/a.ts');
    expect(cli(['lint', 'pkg/src', '--baseline', 'pkg/ci/baseline.json'], dir).code).toBe(0);
  });

  it('keeps marker-suppressed findings out of the baseline', () => {
    const dir = tempProject({ 'a.ts': LOG.replace(';\n', '; // v2-migrate-keep-v1\n') + LOG });
    cli(['lint', '--baseline', 'b.json', '--update-baseline'], dir);
    expect(JSON.parse(read(dir, 'b.json')).findings).toHaveLength(1);
  });

  it('exits 2 for a missing or malformed baseline and for --update-baseline without a file', () => {
    const dir = tempProject({ 'a.ts': B, 'bad.json': '{"version": 1, "findings": [{"path": 1}]}' });
    const missing = cli(['lint', '--baseline', 'nope.json'], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/baseline not found \(create it with --update-baseline\)/);
    const bad = cli(['lint', '--baseline', 'bad.json'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not a v2-migrate baseline \(findings\.0\.path/);
    expect(cli(['lint', '--update-baseline'], dir).code).toBe(2);
  });
});

describe('lint --max-warnings', () => {
  it('allows N warnings, -1 for no limit, and rejects values that are not whole numbers', () => {
    const dir = tempProject({ 'a.ts': B });
    expect(cli(['lint'], dir).code).toBe(1);
    expect(cli(['lint', '--max-warnings', '1'], dir).code).toBe(1);
    expect(cli(['lint', '--max-warnings', '2'], dir).code).toBe(0);
    expect(cli(['lint', '--max-warnings', '-1'], dir).code).toBe(0);
    for (const bad of ['abc', '1.5', '-2']) {
      const r = cli(['lint', '--max-warnings', bad], dir);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(/--max-warnings must be a whole number/);
    }
  }, 30_000);

  it('does not count marked or baselined warnings', () => {
    const dir = tempProject({ 'a.ts': LOG.replace(';\n', '; // v2-migrate-ignore embedded-url\n') });
    expect(cli(['lint'], dir).code).toBe(0);
  });
});
