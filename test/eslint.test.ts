/**
 * `v2-migrate/eslint`: ESLint's RuleTester (ESLint 10 and 9) on single files, the CLI (`--stdin`) as
 * the oracle for messages and fixes; then `eslint .` end to end over a copy of
 * fixtures/integrations/team-app, whose findings (rule, line, column, message) must be the ones
 * `v2-migrate lint` reports and whose `eslint --fix` must write what `v2-migrate` writes for files
 * whose changes are their own; a second --fix changes nothing. Last, one ESLint process over
 * changes on disk and unsaved text (what an editor does): the answers follow, as the CLI's do.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ESLint, RuleTester } from 'eslint';
import { RuleTester as RuleTester9 } from 'eslint-v9';
import { describe, expect, it } from 'vitest';
import plugin from '../dist/src/eslint/index.js';
import { RULE_IDS } from '../src/rules/registry.js';
import { BIN, cli, copyDir, listFiles, REPO, tempDir } from './helpers.js';

const FIXTURE = path.join(REPO, 'fixtures', 'integrations', 'team-app');
const ESLINT_BINS = { 10: path.join(REPO, 'node_modules', 'eslint', 'bin', 'eslint.js'), 9: path.join(REPO, 'node_modules', 'eslint-v9', 'bin', 'eslint.js') };

interface JsonFinding {
  ruleId: string;
  line: number;
  column: number;
  message: string;
  fixable: boolean;
}
interface EslintMessage {
  ruleId: string;
  line: number;
  column: number;
  message: string;
  fix?: unknown;
  suppressions?: Array<{ kind: string }>;
}
interface EslintResult {
  filePath: string;
  messages: EslintMessage[];
  suppressedMessages: EslintMessage[];
}

/** A copy of the fixture (or an empty folder) where `v2-migrate` resolves to this checkout, as after `npm i -D v2-migrate`. */
function project(from: string | null = FIXTURE): string {
  const dir = tempDir('v2-migrate-eslint-');
  if (from) copyDir(from, dir);
  fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  fs.symlinkSync(REPO, path.join(dir, 'node_modules', 'v2-migrate'), 'dir');
  return dir;
}

/** The CLI on one file's text (the oracle): its findings in the gate and the text a write gives. */
function cliOn(root: string, file: string, text: string): { findings: JsonFinding[]; output: string } {
  const run = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--stdin', '--stdin-filename', file], { cwd: root, input: text, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const lint = JSON.parse(run(['lint', '--format', 'json']).stdout) as { files: Array<{ findings: JsonFinding[] }> };
  return { findings: lint.files[0]?.findings ?? [], output: run([]).stdout };
}

function eslintCli(version: 9 | 10, args: string[], cwd: string): { code: number | null; results: EslintResult[] } {
  const r = spawnSync(process.execPath, [ESLINT_BINS[version], '--format', 'json', ...args], { cwd, encoding: 'utf8' });
  if (r.status === 2) throw new Error(r.stderr || r.stdout);
  return { code: r.status, results: JSON.parse(r.stdout) as EslintResult[] };
}

const key = (f: { ruleId: string | null; line: number; column: number; message: string }, file: string) => `${file}:${f.line}:${f.column} ${f.ruleId?.replace(/^v2-migrate\//, '')} ${f.message}`;

/** `v2-migrate lint` in `dir`: every finding in the gate, as `file:line:column rule message`. */
function cliFindings(dir: string): { keys: string[]; report: { files: Array<{ path: string; changed: boolean; findings: JsonFinding[] }> } } {
  const report = JSON.parse(cli(['lint', '--format', 'json'], dir).stdout);
  return { keys: report.files.flatMap((f: { path: string; findings: JsonFinding[] }) => f.findings.map((x) => key(x, f.path))).sort(), report };
}

const eslintKeys = (dir: string, results: EslintResult[], which: 'messages' | 'suppressedMessages' | 'both' = 'messages'): string[] =>
  results
    .flatMap((r) => {
      const rel = path.relative(dir, r.filePath).split(path.sep).join('/');
      const list = which === 'both' ? [...r.messages, ...r.suppressedMessages] : r[which];
      return list.map((m) => key(m, rel));
    })
    .sort();

const snapshot = (dir: string): Record<string, string> => Object.fromEntries(listFiles(path.join(dir, 'src')).map((f) => [path.relative(dir, f), fs.readFileSync(f, 'utf8')]));

describe('the plugin', () => {
  it('has one rule per tool rule id and a recommended flat config with the CLI severities', () => {
    expect(Object.keys(plugin.rules).sort()).toEqual([...RULE_IDS].sort());
    expect(plugin.meta.name).toBe('v2-migrate');
    const recommended = plugin.configs.recommended;
    expect(recommended.plugins?.['v2-migrate']).toBe(plugin);
    expect(recommended.rules?.['v2-migrate/pod-reset']).toBe('error');
    expect(recommended.rules?.['v2-migrate/embedded-url']).toBe('warn');
    expect(recommended.rules?.['v2-migrate/unresolved-url']).toBe('warn');
    expect(Object.keys(recommended.rules ?? {})).toHaveLength(RULE_IDS.length);
  });

  it('is the package export v2-migrate/eslint (and no bundle chunk but v2-migrate/testing imports ESLint or MSW)', () => {
    const dir = project(null);
    fs.writeFileSync(path.join(dir, 'check.mjs'), "const { default: p } = await import('v2-migrate/eslint'); console.log(Object.keys(p.rules).length, typeof p.configs.recommended);\n");
    const r = spawnSync(process.execPath, ['check.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(r.stdout.trim()).toBe(`${RULE_IDS.length} object`);
    const lib = path.join(REPO, 'dist', 'lib');
    const bundle = fs.readdirSync(lib).filter((f) => f.endsWith('.js') && f !== 'testing.js').map((f) => fs.readFileSync(path.join(lib, f), 'utf8'));
    expect(bundle.some((text) => /from ['"](eslint|msw)(\/[\w/]*)?['"]|import\(['"](eslint|msw)/.test(text))).toBe(false);
  });
});

describe('for CLI users', () => {
  it('nothing of the plugin, the MSW handlers or the action is installed with the CLI: optional peers, and no production dependency leads to ESLint or MSW', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    for (const peer of ['eslint', 'msw']) {
      expect(manifest.dependencies[peer]).toBeUndefined();
      expect(manifest.peerDependenciesMeta[peer]).toEqual({ optional: true });
    }
    // What `npm i v2-migrate` installs: package.json's dependencies and theirs, resolved as npm lays them out.
    const packages = JSON.parse(fs.readFileSync(path.join(REPO, 'package-lock.json'), 'utf8')).packages as Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }>;
    const locate = (from: string, name: string): string | null => {
      for (let dir = from; ; dir = dir.includes('/node_modules/') ? dir.slice(0, dir.lastIndexOf('/node_modules/')) : '') {
        const key = `${dir ? `${dir}/` : ''}node_modules/${name}`;
        if (packages[key]) return key;
        if (!dir) return null;
      }
    };
    const installed = new Set<string>();
    const queue: Array<[string, Record<string, string> | undefined]> = [['', manifest.dependencies]];
    while (queue.length) {
      const [from, deps] = queue.pop()!;
      for (const name of Object.keys(deps ?? {})) {
        const key = locate(from, name);
        if (!key || installed.has(key)) continue;
        installed.add(key);
        queue.push([key, { ...packages[key]!.dependencies, ...packages[key]!.optionalDependencies }]);
      }
    }
    expect(installed).toContain('node_modules/oxc-parser');
    expect([...installed].filter((k) => /node_modules\/(eslint|msw|@eslint|@mswjs|yaml)(\/|$)/.test(k))).toEqual([]);
  });
});

describe('RuleTester', () => {
  const root = tempDir('v2-migrate-ruletester-');
  const file = (name: string) => path.join(root, name);
  const STOP = "const BASE = 'https://rest.runpod.io/v1';\nexport const stop = (id) => fetch(`${BASE}/pods/${id}/stop`, { method: 'POST' });\n";
  const RESET = "export const reset = (id) => fetch('https://rest.runpod.io/v1/pods/' + id + '/reset', { method: 'POST' });\n";
  const LIST = "export async function pods() {\n  const res = await fetch('https://rest.runpod.io/v1/pods');\n  return res.json();\n}\n";
  const VALID = [
    "export const run = (id) => fetch(`https://api.runpod.ai/v2/${id}/run`, { method: 'POST', body: '{}' });\n",
    "export const pods = () => fetch('https://api.runpod.io/v2/pods');\n",
    "export const other = () => fetch('https://api.example.com/v1/pods');\n",
    "// v2-migrate-ignore-next-line\nexport const note = 'v1 lived at https://rest.runpod.io/v1/pods';\n",
  ];

  /** The cases for one rule, expected errors and output taken from the CLI on the same text. */
  function casesFor(rule: string, inputs: Array<[string, string]>) {
    return inputs.map(([name, code]) => {
      const oracle = cliOn(root, name, code);
      const mine = oracle.findings.filter((f) => f.ruleId === rule);
      expect(mine.length, `${name} must have ${rule} findings`).toBeGreaterThan(0);
      return {
        code,
        filename: file(name),
        errors: mine.map((f) => ({ message: f.message, line: f.line, column: f.column })),
        output: mine.some((f) => f.fixable) ? oracle.output : null,
      };
    });
  }

  const suites: Array<[string, Array<[string, string]>]> = [
    ['pod-action', [['stop.js', STOP]]],
    ['base-url', [['stop.js', STOP], ['reset.js', RESET]]],
    ['pod-reset', [['reset.js', RESET]]],
    ['list-envelope', [['list.js', LIST]]],
  ];

  it("each finding carries its own fix: a rule fixes its request and leaves the file's other request as it is", () => {
    const DELETE = "export const del = (id) => fetch('https://rest.runpod.io/v1/pods/' + id, { method: 'DELETE' });\n";
    const code = STOP + DELETE;
    const errors = cliOn(root, 'two.js', code)
      .findings.filter((f) => f.ruleId === 'pod-action')
      .map((f) => ({ message: f.message, line: f.line, column: f.column }));
    const tester = new RuleTester({ settings: { 'v2-migrate': { root } } });
    // STOP's base and path are one fix (base-url and pod-action share it); the DELETE's base is a fix of its own.
    tester.run('pod-action', plugin.rules['pod-action'] as never, { valid: [], invalid: [{ code, filename: file('two.js'), errors, output: cliOn(root, 'stop.js', STOP).output + DELETE }] as never });
  });

  for (const [version, Tester] of [
    [10, RuleTester],
    [9, RuleTester9],
  ] as const) {
    for (const [rule, inputs] of suites) {
      it(`ESLint ${version}: ${rule}`, () => {
        const tester = new Tester({ settings: { 'v2-migrate': { root } } });
        tester.run(rule, plugin.rules[rule as keyof typeof plugin.rules] as never, {
          valid: VALID.map((code, i) => ({ code, filename: file(`valid-${i}.js`) })),
          invalid: casesFor(rule, inputs) as never,
        });
      });
    }
  }
});

describe('eslint . on the fixture project', () => {
  for (const version of [10, 9] as const) {
    it(`ESLint ${version}: the same findings as v2-migrate lint (rule, line, column, message); eslint-disable and markers both work`, () => {
      const dir = project();
      const { keys } = cliFindings(dir);
      const { code, results } = eslintCli(version, ['.'], dir);
      expect(code).toBe(1);
      expect(eslintKeys(dir, results, 'both')).toEqual(keys);
      // The eslint-disable comment takes out exactly the finding it names; the v2-migrate marker's never reaches either.
      const disabled = eslintKeys(dir, results, 'suppressedMessages');
      expect(disabled).toEqual([expect.stringMatching(/^src\/ops\.js:8:\d+ embedded-url /)]);
      expect(keys.some((k) => k.startsWith('src/ops.js:6:'))).toBe(false);
    });
  }

  it('eslint --fix writes what v2-migrate writes for files whose changes are their own, leaves changes that span files (and TODO-only changes) to v2-migrate, and a second --fix changes nothing', () => {
    // Without the suite in test/, which imports runpod.js and volumes.js and so joins their write groups.
    const [dir, byCli] = [project(), project()];
    for (const d of [dir, byCli]) fs.rmSync(path.join(d, 'test'), { recursive: true });
    const before = snapshot(dir);
    const { report } = cliFindings(dir);
    const first = eslintCli(10, ['.'], dir);
    // A fix is offered for exactly the fixable findings of files whose change is their own.
    const spanning = new Set(['src/constants.js', 'src/volumes.js']);
    for (const r of first.results) {
      const rel = path.relative(dir, r.filePath);
      for (const m of r.messages) {
        const f = report.files.find((x) => x.path === rel)!.findings.find((x) => x.line === m.line && x.column === m.column && `v2-migrate/${x.ruleId}` === m.ruleId)!;
        expect(!!m.fix, `${rel}:${m.line}:${m.column} ${m.ruleId}`).toBe(f.fixable && !spanning.has(rel));
      }
    }
    expect(cli([], byCli).code).toBe(1);
    eslintCli(10, ['--fix', '.'], dir);
    const fixed = snapshot(dir);
    const migrated = snapshot(byCli);
    // A file with nothing fixable keeps its text; ops.js's reset moves to v2 with its TODO (its own change).
    const fixable = (rel: string) => !!report.files.find((x) => x.path === rel)?.findings.some((f) => f.fixable);
    expect(migrated['src/ops.js']).not.toBe(before['src/ops.js']);
    expect(fixable('src/ops.js')).toBe(true);
    for (const rel of Object.keys(before)) {
      if (spanning.has(rel) || !fixable(rel)) expect(fixed[rel], rel).toBe(before[rel]);
      else expect(fixed[rel], rel).toBe(migrated[rel]);
    }
    expect(fixed['src/runpod.js']).not.toBe(before['src/runpod.js']);
    eslintCli(10, ['--fix', '.'], dir);
    expect(snapshot(dir)).toEqual(fixed);
    // What is left is what v2-migrate lint finds in the same files.
    expect(eslintKeys(dir, eslintCli(10, ['.'], dir).results, 'both')).toEqual(cliFindings(dir).keys);
  });
});

describe('eslint --fix and write groups', () => {
  it('a file whose change is its own gets no fix when an importer joins it with other changed files (the fixture suite imports runpod.js and volumes.js)', () => {
    const dir = project();
    const fixed = eslintCli(10, ['.'], dir).results.filter((r) => r.messages.some((m) => m.fix));
    // ops.js's reset moves to v2 with the base written in its own URL (v2 answers it 404): a change of its own.
    expect(fixed.map((r) => path.relative(dir, r.filePath))).toEqual(['src/ops.js']);
  });

  // The base comes from the environment (.env) with a v1 default (config.ts); the paths are built in api.ts.
  const ENV_BASE = {
    '.env': 'RUNPOD_API_URL=https://rest.runpod.io/v1\n',
    'src/config.ts': "export const RUNPOD_API = process.env.RUNPOD_API_URL ?? 'https://rest.runpod.io/v1';\n",
    'src/api.ts': "import { RUNPOD_API } from './config';\n\nexport const stopPod = (id) => fetch(`${RUNPOD_API}/pods/${id}/stop`, { method: 'POST' });\n",
  };

  it('a .env that sets the base variable: no file of the group gets a fix, so eslint --fix writes nothing, and v2-migrate moves all three', () => {
    const dir = project(null);
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
    fs.writeFileSync(path.join(dir, 'eslint.config.js'), "import v2migrate from 'v2-migrate/eslint';\n\nexport default [{ files: ['**/*.ts'], ...v2migrate.configs.recommended }];\n");
    fs.mkdirSync(path.join(dir, 'src'));
    for (const [rel, text] of Object.entries(ENV_BASE)) fs.writeFileSync(path.join(dir, rel), text);
    const read = () => Object.fromEntries(Object.keys(ENV_BASE).map((rel) => [rel, fs.readFileSync(path.join(dir, rel), 'utf8')]));
    const { keys, report } = cliFindings(dir);
    expect(report.files.filter((f) => f.changed).map((f) => f.path)).toEqual(['.env', 'src/api.ts', 'src/config.ts']);
    const linted = eslintCli(10, ['.'], dir);
    expect(eslintKeys(dir, linted.results)).toEqual(keys.filter((k) => !k.startsWith('.env:')));
    expect(linted.results.flatMap((r) => r.messages.filter((m) => m.fix).map((m) => `${path.relative(dir, r.filePath)}:${m.line} ${m.ruleId}`))).toEqual([]);
    eslintCli(10, ['--fix', '.'], dir);
    expect(read()).toEqual(ENV_BASE);
    // What editor integrations call: --stdin refuses the same half-migration.
    const piped = spawnSync(process.execPath, [BIN, '--stdin', '--stdin-filename', 'src/config.ts'], { cwd: dir, input: ENV_BASE['src/config.ts'], encoding: 'utf8' });
    expect(piped.stdout).toBe(ENV_BASE['src/config.ts']);
    expect(piped.stderr).toContain('v2-migrate: src/config.ts changes together with .env, src/api.ts; its change is not applied alone');
    expect(cli([], dir).code).toBe(0);
    expect(read()).toEqual({
      '.env': 'RUNPOD_API_URL=https://api.runpod.io/v2\n',
      'src/config.ts': "export const RUNPOD_API = process.env.RUNPOD_API_URL ?? 'https://api.runpod.io/v2';\n",
      'src/api.ts': "import { RUNPOD_API } from './config';\n\nexport const stopPod = (id) => fetch(`${RUNPOD_API}/pods/${id}/action`, { method: 'POST', body: JSON.stringify({ action: 'stop' }) });\n",
    });
  });
});

describe('one ESLint process over edits (an editor)', () => {
  it('answers for unsaved text as the CLI does for it, and follows changes on disk to the files a file depends on', async () => {
    const dir = project();
    const eslint = new ESLint({ cwd: dir });
    const keysOf = (results: ESLint.LintResult[]) => eslintKeys(dir, results as unknown as EslintResult[], 'both');
    const first = keysOf(await eslint.lintFiles(['.']));
    expect(first).toEqual(cliFindings(dir).keys);
    expect(first.filter((k) => k.startsWith('src/volumes.js'))).toHaveLength(2);

    // Unsaved text: a new call through the wrapper-less client, typed into volumes.js.
    const volumes = path.join(dir, 'src', 'volumes.js');
    const edited = fs.readFileSync(volumes, 'utf8') + "\nexport const stop = (id) => fetch(`${RUNPOD_REST}/pods/${id}/stop`, { method: 'POST' });\n";
    const unsaved = await eslint.lintText(edited, { filePath: volumes });
    const oracle = cliOn(dir, 'src/volumes.js', edited).findings.map((f) => key(f, 'src/volumes.js')).sort();
    expect(keysOf(unsaved)).toEqual(oracle);
    expect(oracle.some((k) => / pod-action /.test(k))).toBe(true);

    // On disk: the base constant another file reads moves to a proxy the tool does not know.
    fs.writeFileSync(path.join(dir, 'src', 'constants.js'), "export const RUNPOD_REST = process.env.RUNPOD_REST_URL ?? 'https://runpod-proxy.internal/v1';\n");
    const after = await eslint.lintFiles(['src/volumes.js', 'src/constants.js']);
    const expected = cliFindings(dir).keys.filter((k) => k.startsWith('src/volumes.js') || k.startsWith('src/constants.js'));
    expect(keysOf(after)).toEqual(expected);
    expect(expected).toEqual([]);
  });

  it('a fix that needs the generated adapter file: the findings lint gives, no fix until a run has written the file, then the fix v2-migrate writes', async () => {
    const dir = project(null);
    const CREATE = "const API = 'https://rest.runpod.io/v1';\nexport const createPod = (spec) => fetch(`${API}/pods`, { method: 'POST', body: JSON.stringify(spec) });\n";
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
    fs.writeFileSync(path.join(dir, 'eslint.config.js'), fs.readFileSync(path.join(FIXTURE, 'eslint.config.js')));
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src', 'pods.js'), CREATE);
    const eslint = new ESLint({ cwd: dir });
    const pods = (await eslint.lintFiles(['src/pods.js']))[0]!;
    expect(eslintKeys(dir, [pods] as unknown as EslintResult[], 'both')).toEqual(cliFindings(dir).keys);
    // The created pod is returned to callers outside the run: response-field says its v2 fields.
    expect(pods.messages.map((m) => m.ruleId)).toEqual(['v2-migrate/base-url', 'v2-migrate/body-adapter', 'v2-migrate/response-field']);
    expect(pods.messages.filter((m) => m.fix)).toEqual([]);
    // Once a run has written the adapter file, a new file needing the same adapter is fixed alone.
    cli([], dir);
    const more = path.join(dir, 'src', 'more.js');
    const text = CREATE.replace('createPod', 'makePod');
    const [fixed] = await new ESLint({ cwd: dir, fix: true }).lintText(text, { filePath: more });
    fs.writeFileSync(more, text);
    cli([], dir);
    expect(fixed!.output).toBe(fs.readFileSync(more, 'utf8'));
  });
});
