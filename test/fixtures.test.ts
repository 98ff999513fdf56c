/**
 * Golden fixtures: `fixtures/<rule>/<case>.input.<ext>`, with
 * - `<case>.output.<ext>`: the migrated file (absent = the file must stay unchanged);
 * - `<case>.findings.json`: the expected findings, in order, as `{ ruleId, severity, line, column,
 *   fixable }` plus an optional `message` substring.
 * Every fixture is also run a second time on its own result: that run must change nothing and leave
 * nothing fixable behind.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrateSource, type MigrateOptions } from '../src/js/migrate.js';
import type { Finding } from '../src/findings.js';

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
}

const INPUT = /^(?<name>.+)\.input\.(?<ext>[a-z]+)$/;

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
      return [
        {
          name,
          file: `fixtures/${rule}/${entry}`,
          input: readFileSync(`${dir}${entry}`, 'utf8'),
          output: existsSync(outputFile) ? readFileSync(outputFile, 'utf8') : null,
          findings: existsSync(findingsFile) ? (JSON.parse(readFileSync(findingsFile, 'utf8')) as ExpectedFinding[]) : null,
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

const rules = readdirSync(FIXTURES)
  .filter((entry) => statSync(`${FIXTURES}${entry}`).isDirectory())
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

        const first = migrateSource(fx.input, fx.file, OPTIONS);
        expect(first.output, fx.output === null ? 'the file must stay unchanged' : 'migrated output').toBe(fx.output);
        expect(comparable(first.findings, expected)).toEqual(expected);

        const result = first.output ?? fx.input;
        const second = migrateSource(result, fx.file, OPTIONS);
        expect(second.output, 'a second run must not change the file again').toBeNull();
        expect(
          second.findings.filter((f) => f.fixable),
          'a second run must find nothing left to fix',
        ).toEqual([]);
      });
    }
  }
});
