/**
 * Golden fixtures: `fixtures/<rule>/<case>.input.<ext>`, with
 * - `<case>.output.<ext>`: the migrated file (absent = the file must stay unchanged);
 * - `<case>.findings.json`: the expected findings, in order, as `{ ruleId, severity, line, column,
 *   fixable }` plus an optional `message` substring.
 * - `<case>.config.json` (optional): per-case engine options, `{ "gpuPools": { "<GPU type>": "<pool id>" },
 *   "preserveV1Defaults": true, "adapters": false }`; any other key fails the case.
 * Every fixture is also run a second time on its own result (with the same options): that run must
 * change nothing and leave nothing fixable behind.
 *
 * Request bodies: no fixture outside fixtures/v2-schema/ may get a `v2-schema` finding, and every body
 * literal in a migrated request-body fixture (read back from its output) must pass the zod v2 schemas.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrateSource, type MigrateOptions } from '../src/pipeline/js.js';
import type { Finding } from '../src/findings.js';
import { applyFixEdits, fixEdits } from '../src/fixes.js';
import { bodyAudit, v2BodyProblems, type PlannedBody } from '../src/rules/body.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

const OPTIONS: MigrateOptions = {
  bases: { legacy: ['https://rest.runpod.io/v1'], target: 'https://api.runpod.io/v2' },
};

interface ExpectedFinding {
  ruleId: string;
  severity: string;
  line: number;
  column: number;
  fixable: boolean;
  /** A substring the message must contain. */
  message?: string;
}

interface Fixture {
  name: string;
  /** Path relative to the repository root: also the file name the engine sees (its extension picks the parser). */
  file: string;
  input: string;
  /** null = the engine must leave the file unchanged. */
  output: string | null;
  findings: ExpectedFinding[] | null;
  /** Raw `<case>.config.json`, validated by `optionsFor`. */
  config: unknown;
  configFile: string;
}

/** Keys a `<case>.config.json` may hold, with their checks. */
const CONFIG_KEYS: Record<string, (v: unknown) => boolean> = {
  gpuPools: (v) => !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string'),
  preserveV1Defaults: (v) => typeof v === 'boolean',
  adapters: (v) => v === false,
};

/** The engine options for a case: the shared ones plus its validated config. */
function optionsFor(fx: Fixture): MigrateOptions {
  if (fx.config === undefined) return OPTIONS;
  const config = fx.config;
  if (!config || typeof config !== 'object' || Array.isArray(config)) throw new Error(`${fx.configFile}: must be a JSON object`);
  for (const [key, value] of Object.entries(config)) {
    const check = CONFIG_KEYS[key];
    if (!check) throw new Error(`${fx.configFile}: unknown key "${key}" (allowed: ${Object.keys(CONFIG_KEYS).join(', ')})`);
    if (!check(value)) throw new Error(`${fx.configFile}: "${key}" has the wrong type`);
  }
  return { ...OPTIONS, ...(config as Pick<MigrateOptions, 'gpuPools' | 'preserveV1Defaults' | 'adapters'>) };
}

const INPUT = /^(?<name>.+)\.input\.(?<ext>[a-z]+)$/;
const CONFIG = /^(?<name>.+)\.config\.json$/;

function readCases(rule: string): Fixture[] {
  const dir = `${FIXTURES}${rule}/`;
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const m = INPUT.exec(entry);
      if (!m) return [];
      const { name, ext } = m.groups as { name: string; ext: string };
      const outputFile = `${dir}${name}.output.${ext}`;
      const findingsFile = `${dir}${name}.findings.json`;
      const configFile = `${dir}${name}.config.json`;
      return [
        {
          name,
          file: `fixtures/${rule}/${entry}`,
          input: readFileSync(`${dir}${entry}`, 'utf8'),
          output: existsSync(outputFile) ? readFileSync(outputFile, 'utf8') : null,
          findings: existsSync(findingsFile) ? (JSON.parse(readFileSync(findingsFile, 'utf8')) as ExpectedFinding[]) : null,
          config: existsSync(configFile) ? (JSON.parse(readFileSync(configFile, 'utf8')) as unknown) : undefined,
          configFile: `fixtures/${rule}/${name}.config.json`,
        },
      ];
    });
}

/** The actual findings in the expected form: `message` only where the expectation names one. */
function comparable(actual: readonly Finding[], expected: readonly ExpectedFinding[]): ExpectedFinding[] {
  return actual.map((f, i) => {
    const want = expected[i]?.message;
    const base = { ruleId: f.ruleId, severity: f.severity, line: f.line, column: f.column, fixable: f.fixable };
    if (want === undefined) return base;
    return { ...base, message: f.message.includes(want) ? want : f.message };
  });
}

/**
 * A directory that holds only directories is a nested suite with its own runner (fixtures/projects/ in
 * test/project.test.ts, fixtures/text/ in test/text.test.ts), not a rule's cases.
 */
function isNestedSuite(dir: string): boolean {
  const entries = readdirSync(dir);
  return entries.length > 0 && entries.every((e) => statSync(`${dir}/${e}`).isDirectory());
}

const rules = readdirSync(FIXTURES)
  .filter((entry) => statSync(`${FIXTURES}${entry}`).isDirectory() && !isNestedSuite(`${FIXTURES}${entry}`))
  .sort();

describe('fixtures', () => {
  it('are present', () => {
    expect(rules.length, `no fixture directories under ${FIXTURES}`).toBeGreaterThan(0);
  });

  for (const rule of rules) {
    const cases = readCases(rule);
    if (!cases.length) {
      it(`${rule} has cases`, () => {
        expect.fail(`fixtures/${rule}/ holds no <case>.input.<ext> file: a broken name or glob must not pass silently`);
      });
      continue;
    }
    for (const fx of cases) {
      it(`${rule}/${fx.name}`, () => {
        expect(fx.findings, `missing fixtures/${rule}/${fx.name}.findings.json`).not.toBeNull();
        const expected = fx.findings!;

        const options = optionsFor(fx);
        const first = migrateSource(fx.input, fx.file, options);
        expect(first.output, fx.output === null ? 'the file must stay unchanged' : 'migrated output').toBe(fx.output);
        expect(comparable(first.findings, expected)).toEqual(expected);
        // Every edit is some finding's fix (ESLint and --rule make them one by one). Not so: a change that
        // needs the generated adapter file (no fix of one file), and TODOs alone (no finding is fixable).
        if (first.output !== null && !first.adapter && first.findings.some((f) => f.fixable)) {
          expect(applyFixEdits(fx.input, fixEdits(first.findings)), "the findings' fixes are the whole change").toBe(first.output);
          expect(first.findings.filter((f) => f.fixable && !f.fix).map((f) => `${f.line}:${f.column} ${f.ruleId}`), 'every fixable finding carries its fix').toEqual([]);
        }

        const result = first.output ?? fx.input;
        const second = migrateSource(result, fx.file, options);
        expect(second.output, 'a second run must not change the file again').toBeNull();
        expect(
          second.findings.filter((f) => f.fixable),
          'a second run must find nothing left to fix',
        ).toEqual([]);
      });
    }
  }
});

/** Run the engine and collect every body literal it judged (see `bodyAudit` in src/rules/body.ts). */
function auditedRun(source: string, fx: Fixture): { findings: Finding[]; bodies: PlannedBody[] } {
  const bodies: PlannedBody[] = [];
  bodyAudit.onBody = (b) => void bodies.push(b);
  try {
    return { findings: migrateSource(source, fx.file, optionsFor(fx)).findings, bodies };
  } finally {
    bodyAudit.onBody = undefined;
  }
}

/** Directories whose fixtures migrate request bodies (fixtures/v2-schema/ is the one expected to fail the schema). */
const BODY_RULES = ['body-field', 'removed-field', 'dropped-field', 'v1-default', 'opaque-body'];

describe('fixture request bodies against the v2 schemas', () => {
  it('every <case>.config.json belongs to a <case>.input.<ext>', () => {
    for (const rule of rules) {
      const entries = readdirSync(`${FIXTURES}${rule}/`);
      for (const entry of entries) {
        const name = CONFIG.exec(entry)?.groups?.name;
        if (name) expect(entries.some((e) => INPUT.exec(e)?.groups?.name === name), `fixtures/${rule}/${entry} has no input`).toBe(true);
      }
    }
  });

  it('v2-schema is expected and reported only in fixtures/v2-schema/', () => {
    for (const rule of rules.filter((r) => r !== 'v2-schema')) {
      for (const fx of readCases(rule)) {
        expect(fx.findings?.some((f) => f.ruleId === 'v2-schema') ?? false, `${fx.file}: expects a v2-schema finding`).toBe(false);
        const { findings } = auditedRun(fx.input, fx);
        expect(findings.filter((f) => f.ruleId === 'v2-schema'), fx.file).toEqual([]);
      }
    }
  });

  it('fixtures/v2-schema/ cases are rejected by the schema and left unrewritten', () => {
    const cases = readCases('v2-schema');
    expect(cases.length).toBeGreaterThan(0);
    for (const fx of cases) {
      const { findings, bodies } = auditedRun(fx.input, fx);
      expect(findings.some((f) => f.ruleId === 'v2-schema'), fx.file).toBe(true);
      expect(bodies.some((b) => v2BodyProblems(b.schema, b.body).length > 0), fx.file).toBe(true);
    }
  });

  for (const rule of BODY_RULES) {
    it(`${rule}: every body the migrated output sends passes the v2 schema`, () => {
      const cases = readCases(rule).filter((fx) => fx.output !== null);
      let checked = 0;
      for (const fx of cases) {
        // A required field the first run warned about as a v1 default (a pod's name) is the user's to add.
        const first = auditedRun(fx.input, fx);
        const warned = new Set(first.findings.filter((f) => f.ruleId === 'v1-default').flatMap((f) => /v1 default for (\w+)/.exec(f.message)?.[1] ?? []));
        const { findings, bodies } = auditedRun(fx.output!, fx);
        expect(findings.filter((f) => f.ruleId === 'v2-schema'), `${fx.file} (output)`).toEqual([]);
        for (const b of bodies) {
          if (!b.v2) {
            // A request that needs a person stays on v1 whole (its base with it): the output must still say so.
            const holding = findings.filter((f) => f.severity === 'error' && !f.fixable);
            expect(holding.length, `${fx.file}: the output sends a v1 request body (line ${b.line}) with no finding that holds it`).toBeGreaterThan(0);
            continue;
          }
          expect(v2BodyProblems(b.schema, b.body, warned), `${fx.file}: ${b.operation} body at line ${b.line}`).toEqual([]);
        }
        checked += bodies.length;
      }
      // The seam must see bodies: a silently dead hook would pass every case.
      if (rule !== 'opaque-body') expect(checked, `no body literal was checked in fixtures/${rule}/`).toBeGreaterThan(0);
    });
  }
});
