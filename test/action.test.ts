/**
 * The GitHub Action (action.yml, a composite action): its steps are read from action.yml and run
 * here as the runner would run them — `${{ inputs.* }}` from the inputs given or their defaults, the
 * lint step's outputs written to a GITHUB_OUTPUT file — on a copy of fixtures/integrations/team-app.
 * The SARIF it writes must pass the official schema; the upload step is GitHub's own action.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN, cli, copyDir, REPO, sarifValidator, tempDir } from './helpers.js';

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  'working-directory'?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const ACTION = parse(fs.readFileSync(path.join(REPO, 'action.yml'), 'utf8')) as Action;
const FIXTURE = path.join(REPO, 'fixtures', 'integrations', 'team-app');

function project(): string {
  const dir = tempDir('v2-migrate-action-');
  copyDir(FIXTURE, dir);
  return dir;
}

/** `${{ … }}` as the runner fills it for these inputs and step outputs. */
function expand(text: string, inputs: Record<string, string>, outputs: Record<string, string> = {}): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    if (expr === 'github.action_path') return REPO;
    const input = /^inputs\.([\w-]+)$/.exec(expr);
    if (input) {
      if (!(input[1]! in ACTION.inputs)) throw new Error(`action.yml reads an undeclared input: ${input[1]}`);
      return inputs[input[1]!] ?? ACTION.inputs[input[1]!]!.default ?? '';
    }
    const output = /^steps\.lint\.outputs\.([\w-]+)$/.exec(expr);
    if (output) return outputs[output[1]!] ?? '';
    throw new Error(`unexpected expression in action.yml: ${expr}`);
  });
}

interface StepRun {
  code: number | null;
  stdout: string;
  outputs: Record<string, string>;
}

/** Run the lint step in `dir` with these inputs (v2-migrate run from this checkout's build). */
function lintStep(dir: string, inputs: Record<string, string> = {}): StepRun {
  const step = ACTION.runs.steps.find((s) => s.id === 'lint')!;
  const all = { cli: `node ${BIN}`, ...inputs };
  const outputFile = path.join(dir, '.github-output');
  fs.writeFileSync(outputFile, '');
  const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, all)]));
  const cwd = path.resolve(dir, expand(step['working-directory'] ?? '.', all));
  const r = spawnSync('bash', ['-c', expand(step.run!, all)], { cwd, encoding: 'utf8', env: { ...process.env, ...env, GITHUB_OUTPUT: outputFile, NO_COLOR: '1' } });
  const outputs = Object.fromEntries(
    fs
      .readFileSync(outputFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { code: r.status, stdout: r.stdout + r.stderr, outputs };
}

/** The gate step for the lint step's outputs: null when its condition skips it, else its exit code. */
function gateStep(inputs: Record<string, string>, outputs: Record<string, string>): number | null {
  const gate = ACTION.runs.steps.find((s) => s.name === 'Gate')!;
  expect(gate.if).toBe("inputs.fail-on-findings == 'true' && steps.lint.outputs.exit-code != '0'");
  const failOnFindings = inputs['fail-on-findings'] ?? ACTION.inputs['fail-on-findings']!.default;
  if (!(failOnFindings === 'true' && outputs['exit-code'] !== '0')) return null;
  return spawnSync('bash', ['-c', expand(gate.run!, inputs, outputs)], { encoding: 'utf8' }).status;
}

describe('action.yml', () => {
  it('is a composite action: lint, upload the SARIF to code scanning (format sarif), then gate', () => {
    expect(ACTION.runs.using).toBe('composite');
    expect(ACTION.runs.steps.map((s) => s.id ?? s.name)).toEqual(['lint', 'Upload to code scanning', 'Gate']);
    const upload = ACTION.runs.steps[1]!;
    expect(upload.uses).toMatch(/^github\/codeql-action\/upload-sarif@v\d+$/);
    expect(upload.if).toBe("inputs.format == 'sarif'");
    expect(upload.with).toEqual({ sarif_file: '${{ steps.lint.outputs.sarif-file }}', category: '${{ inputs.category }}' });
    for (const input of ['paths', 'format', 'baseline', 'max-warnings']) expect(ACTION.inputs[input], input).toBeDefined();
  });

  it('every input the script reads is passed by the step, and every input is used', () => {
    const script = fs.readFileSync(path.join(REPO, 'action', 'lint.sh'), 'utf8');
    const read = new Set([...script.matchAll(/\$\{?(INPUT_[A-Z_]+)/g)].map((m) => m[1]!));
    const step = ACTION.runs.steps.find((s) => s.id === 'lint')!;
    expect([...read].sort()).toEqual(Object.keys(step.env!).filter((k) => k.startsWith('INPUT_')).sort());
    const yml = fs.readFileSync(path.join(REPO, 'action.yml'), 'utf8');
    for (const input of Object.keys(ACTION.inputs)) expect(yml, input).toMatch(new RegExp(`inputs\\.${input}(?![\\w-])`));
  });
});

describe('the lint step', () => {
  it('format sarif: writes a SARIF file the official schema accepts, records exit code 1, and the gate fails the job after the upload', () => {
    const dir = project();
    const inputs = { format: 'sarif', paths: 'src' };
    const r = lintStep(dir, inputs);
    expect(r.code).toBe(0);
    expect(r.outputs).toEqual({ 'exit-code': '1', 'sarif-file': 'v2-migrate.sarif' });
    const doc = JSON.parse(fs.readFileSync(path.join(dir, 'v2-migrate.sarif'), 'utf8'));
    const validate = sarifValidator();
    expect(validate(doc), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const results = doc.runs[0].results as Array<{ ruleId: string; suppressions?: unknown; locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }>;
    expect(results.filter((x) => !x.suppressions).map((x) => `${x.ruleId} ${x.locations[0]!.physicalLocation.artifactLocation.uri}`)).toContain('pod-reset src/ops.js');
    expect(results.some((x) => x.suppressions)).toBe(true);
    expect(gateStep(inputs, r.outputs)).toBe(1);
    expect(gateStep({ ...inputs, 'fail-on-findings': 'false' }, r.outputs)).toBeNull();
  });

  it('format github (the default): annotations in the log, one per finding in the gate', () => {
    const dir = project();
    const r = lintStep(dir);
    expect(r.code).toBe(0);
    expect(r.outputs['exit-code']).toBe('1');
    expect(r.outputs['sarif-file']).toBeUndefined();
    expect(r.stdout).toMatch(/^::error file=src\/ops\.js,line=2,col=\d+,title=pod-reset::/m);
    expect(r.stdout).toMatch(/^::warning file=src\/ops\.js,line=4,col=\d+,title=embedded-url::/m);
    const lint = JSON.parse(cli(['lint', '--format', 'json'], dir).stdout);
    const inGate = lint.files.flatMap((f: { findings: unknown[] }) => f.findings).length;
    expect(r.stdout.match(/^::(error|warning|notice) /gm)).toHaveLength(inGate);
  });

  it('baseline and max-warnings: a recorded baseline passes the gate; new findings fail it; warnings count against max-warnings', () => {
    const dir = project();
    expect(cli(['lint', '--baseline', 'v2-migrate-baseline.json', '--update-baseline'], dir).code).toBe(0);
    const clean = lintStep(dir, { baseline: 'v2-migrate-baseline.json' });
    expect(clean.outputs['exit-code']).toBe('0');
    expect(gateStep({}, clean.outputs)).toBeNull();
    fs.appendFileSync(path.join(dir, 'src/ops.js'), "export const OLD_DOCS = 'see https://rest.runpod.io/v1/openapi.json in the wiki';\n");
    const warned = lintStep(dir, { baseline: 'v2-migrate-baseline.json' });
    expect(warned.outputs['exit-code']).toBe('1');
    expect(lintStep(dir, { baseline: 'v2-migrate-baseline.json', 'max-warnings': '1' }).outputs['exit-code']).toBe('0');
    expect(lintStep(dir, { baseline: 'v2-migrate-baseline.json', 'max-warnings': '-1', format: 'sarif' }).outputs['exit-code']).toBe('0');
  });

  it('several paths, a working directory', () => {
    const dir = project();
    fs.mkdirSync(path.join(dir, 'packages'));
    fs.renameSync(path.join(dir, 'src'), path.join(dir, 'packages', 'src'));
    const r = lintStep(dir, { 'working-directory': 'packages', paths: 'src/ops.js\nsrc/runpod.js' });
    expect(r.outputs['exit-code']).toBe('1');
    expect(r.stdout).toContain('file=src/ops.js,');
    expect(r.stdout).not.toContain('file=src/volumes.js,');
  });

  it("uses the project's own node_modules/.bin/v2-migrate when there is one", () => {
    const dir = project();
    fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'node_modules', '.bin', 'v2-migrate'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
    const r = lintStep(dir, { cli: '' });
    expect(r.stdout).toContain('node_modules/.bin/v2-migrate lint --format github');
    expect(r.outputs['exit-code']).toBe('1');
  });

  it('a usage or config error fails the step itself (exit 2), so nothing is uploaded', () => {
    const dir = project();
    const missing = lintStep(dir, { baseline: 'no-such-baseline.json', format: 'sarif' });
    expect(missing.code).toBe(2);
    expect(missing.outputs['exit-code']).toBe('2');
    expect(fs.existsSync(path.join(dir, 'v2-migrate.sarif'))).toBe(false);
    const badFormat = lintStep(dir, { format: 'junit' });
    expect(badFormat.code).toBe(2);
    expect(badFormat.stdout).toContain('::error title=v2-migrate::input format must be sarif or github (got "junit")');
    expect(lintStep(dir, { 'max-warnings': 'many' }).code).toBe(2);
  });
});
