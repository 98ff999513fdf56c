/**
 * The GitHub Action (action.yml, a composite action): its steps are read from action.yml and run
 * here as the runner would run them — `${{ inputs.* }}` from the inputs given or their defaults, the
 * lint step's outputs written to a GITHUB_OUTPUT file, the step in its working-directory, the upload
 * step at the repository root — on a copy of fixtures/integrations/team-app. The SARIF it writes must
 * pass the official schema; the upload step is GitHub's own action. npm and npx are stubs that log
 * their calls: the action never fetches v2-migrate by name, only what the workflow pinned.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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

/** `${{ … }}` as the runner fills it for these inputs and step outputs (the action checked out at `actionPath`). */
function expand(text: string, inputs: Record<string, string>, outputs: Record<string, string> = {}, actionPath = REPO): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    if (expr === 'github.action_path') return actionPath;
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

/**
 * A runner's tools for one test: RUNNER_TEMP, and a folder put first on PATH with `npx`, which fails,
 * and `npm`, which installs or builds a stand-in for v2-migrate that runs this checkout's CLI. Both log
 * their calls (`npm install … (in <cwd>)`) to `calls()`.
 */
function runnerTools() {
  const root = fs.realpathSync(tempDir('v2-migrate-runner-'));
  const [bin, temp, log] = [path.join(root, 'bin'), path.join(root, 'temp'), path.join(root, 'calls.log')];
  fs.mkdirSync(bin);
  fs.mkdirSync(temp);
  fs.writeFileSync(log, '');
  const launcher = `await import(${JSON.stringify(pathToFileURL(BIN).href)});\n`;
  const logCall = `echo "$(basename "$0") $* (in $PWD)" >> ${JSON.stringify(log)}\n`;
  fs.writeFileSync(path.join(bin, 'npx'), `#!/usr/bin/env bash\n${logCall}exit 99\n`, { mode: 0o755 });
  fs.writeFileSync(
    path.join(bin, 'npm'),
    `#!/usr/bin/env bash\n${logCall}` +
      `if [ "$1" = install ]; then pkg="$3/node_modules/v2-migrate"; mkdir -p "$pkg/bin"; echo '{ "type": "module" }' > "$pkg/package.json"; echo ${JSON.stringify(launcher)} > "$pkg/bin/v2-migrate.js"; fi\n` +
      'if [ "$1" = run ]; then mkdir -p dist/lib && : > dist/lib/cli.js; fi\n',
    { mode: 0o755 },
  );
  return { env: { PATH: `${bin}${path.delimiter}${process.env.PATH}`, RUNNER_TEMP: temp }, temp, launcher, calls: () => fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

/** Run the lint step in `dir`, the repository root, with these inputs (default cli: v2-migrate run from this checkout's build). */
function lintStep(dir: string, inputs: Record<string, string> = {}, runner: { env?: Record<string, string>; actionPath?: string } = {}): StepRun {
  const step = ACTION.runs.steps.find((s) => s.id === 'lint')!;
  const all = { cli: `node ${BIN}`, ...inputs };
  const outputFile = path.join(dir, '.github-output');
  fs.writeFileSync(outputFile, '');
  const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, all, {}, runner.actionPath)]));
  const cwd = path.resolve(dir, expand(step['working-directory'] ?? '.', all));
  const r = spawnSync('bash', ['-c', expand(step.run!, all)], { cwd, encoding: 'utf8', env: { ...process.env, ...runner.env, ...env, GITHUB_WORKSPACE: dir, GITHUB_OUTPUT: outputFile, NO_COLOR: '1' } });
  const outputs = Object.fromEntries(
    fs
      .readFileSync(outputFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { code: r.status, stdout: r.stdout + r.stderr, outputs };
}

/** The file the upload step hands to upload-sarif: its `sarif_file`, resolved where that step runs (the repository root). */
function uploadedSarif(dir: string, inputs: Record<string, string>, outputs: Record<string, string>): string {
  const upload = ACTION.runs.steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'))!;
  expect(upload['working-directory']).toBeUndefined();
  return path.resolve(dir, expand(upload.with!.sarif_file!, inputs, outputs));
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
    expect(r.outputs).toEqual({ 'exit-code': '1', 'sarif-file': path.join(dir, 'v2-migrate.sarif') });
    expect(uploadedSarif(dir, inputs, r.outputs)).toBe(path.join(dir, 'v2-migrate.sarif'));
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
    expect(r.stdout).toContain('file=packages/src/ops.js,');
    expect(r.stdout).not.toContain('src/volumes.js,');
  });

  it('format sarif in a working directory: the SARIF file is written there, and the upload step (at the repository root) is given its absolute path', () => {
    const dir = project();
    fs.mkdirSync(path.join(dir, 'packages'));
    fs.renameSync(path.join(dir, 'src'), path.join(dir, 'packages', 'src'));
    const inputs = { format: 'sarif', 'working-directory': 'packages', paths: 'src' };
    const r = lintStep(dir, inputs);
    const written = path.join(dir, 'packages', 'v2-migrate.sarif');
    expect(r.outputs).toEqual({ 'exit-code': '1', 'sarif-file': written });
    expect(uploadedSarif(dir, inputs, r.outputs)).toBe(written);
    expect(fs.existsSync(path.join(dir, 'v2-migrate.sarif'))).toBe(false);
    const doc = JSON.parse(fs.readFileSync(written, 'utf8'));
    expect(doc.runs[0].results.some((x: { ruleId: string }) => x.ruleId === 'pod-reset')).toBe(true);
  });
});

describe('which v2-migrate the lint step runs', () => {
  /** The command the step printed before running it (its first line). */
  const command = (r: StepRun) => r.stdout.split('\n')[0];

  it("the project's own node_modules/.bin/v2-migrate, in working-directory or a folder above it; never npx", () => {
    const dir = project();
    const tools = runnerTools();
    fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
    const own = path.join(dir, 'node_modules', '.bin', 'v2-migrate');
    fs.writeFileSync(own, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
    const r = lintStep(dir, { cli: '' }, tools);
    expect(command(r)).toBe(`${own} lint --format github --max-warnings 0 .`);
    expect(r.outputs['exit-code']).toBe('1');
    // A package of a monorepo, its dependencies hoisted to the root.
    fs.mkdirSync(path.join(dir, 'packages', 'app'), { recursive: true });
    fs.renameSync(path.join(dir, 'src'), path.join(dir, 'packages', 'app', 'src'));
    const hoisted = lintStep(dir, { cli: '', 'working-directory': 'packages/app' }, tools);
    expect(command(hoisted)).toBe(`${own} lint --format github --max-warnings 0 .`);
    expect(hoisted.outputs['exit-code']).toBe('1');
    expect(tools.calls()).toEqual([]);
  });

  it("without one: this action's own checked-out code, built from its lockfile the first time (npm ci --ignore-scripts, npm run build); never npx", () => {
    const dir = project();
    const tools = runnerTools();
    // This checkout is built (npm test builds first): it runs as it is.
    const built = lintStep(dir, { cli: '' }, tools);
    expect(command(built)).toBe(`node ${REPO}/bin/v2-migrate.js lint --format github --max-warnings 0 .`);
    expect(built.outputs['exit-code']).toBe('1');
    expect(tools.calls()).toEqual([]);
    // A fresh checkout of the action has no dist/: it is built once, then reused.
    const action = fs.realpathSync(tempDir('v2-migrate-action-path-'));
    fs.mkdirSync(path.join(action, 'bin'));
    copyDir(path.join(REPO, 'action'), path.join(action, 'action'));
    fs.writeFileSync(path.join(action, 'package.json'), '{ "type": "module" }\n');
    fs.writeFileSync(path.join(action, 'bin', 'v2-migrate.js'), tools.launcher);
    const fresh = lintStep(dir, { cli: '' }, { ...tools, actionPath: action });
    expect(fresh.stdout).toContain(`node ${action}/bin/v2-migrate.js lint --format github --max-warnings 0 .\n`);
    expect(fresh.outputs['exit-code']).toBe('1');
    expect(tools.calls()).toEqual([`npm ci --ignore-scripts --no-audit --no-fund (in ${action})`, `npm run build (in ${action})`]);
    expect(lintStep(dir, { cli: '' }, { ...tools, actionPath: action }).outputs['exit-code']).toBe('1');
    expect(tools.calls()).toHaveLength(2);
  });

  it('an exact version input: installed with npm install --no-save into a folder of its own under RUNNER_TEMP, then run; a range or a tag is refused', () => {
    const dir = project();
    const tools = runnerTools();
    const r = lintStep(dir, { cli: '', version: '0.1.0' }, tools);
    const prefix = path.join(tools.temp, 'v2-migrate-0.1.0');
    expect(tools.calls()).toEqual([`npm install --prefix ${prefix} --no-save --no-package-lock --ignore-scripts --no-audit --no-fund v2-migrate@0.1.0 (in ${dir})`]);
    expect(command(r)).toBe(`node ${prefix}/node_modules/v2-migrate/bin/v2-migrate.js lint --format github --max-warnings 0 .`);
    expect(r.outputs['exit-code']).toBe('1');
    expect(fs.existsSync(path.join(dir, 'node_modules'))).toBe(false);
    for (const version of ['latest', '^0.1.0', '0.1', '0.1.0 || 9.9.9']) {
      const refused = lintStep(dir, { cli: '', version }, tools);
      expect(refused.code).toBe(2);
      expect(refused.stdout).toBe(`::error title=v2-migrate::input version must be an exact version such as 1.2.3 (got "${version}")\n`);
    }
    expect(tools.calls()).toHaveLength(1);
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
