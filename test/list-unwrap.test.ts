import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { unwrapListProgram } from '../src/text/shell/jq.js';
import { loadGrammars, scanText } from '../src/text/index.js';

const BASES = { legacy: ['https://rest.runpod.io/v1'], target: 'https://api.runpod.io/v2' };

/** The program with the unwrap inserted, or null. */
function unwrapped(program: string, key: string, filter?: string): string | null {
  const insert = unwrapListProgram(program, key, filter);
  return insert && program.slice(0, insert.at) + insert.text + program.slice(insert.at);
}

describe('jq list unwrap (text engine)', () => {
  it('puts the envelope key in front of a first stage that alone reads the input', () => {
    expect(unwrapped('.[] | .id', 'pods')).toBe('.pods[] | .id');
    expect(unwrapped('.[0].name', 'templates')).toBe('.templates[0].name');
    expect(unwrapped(' .[-1]', 'records')).toBe(' .records[-1]');
    expect(unwrapped('.[2:]|map(.id)', 'pods')).toBe('.pods[2:]|map(.id)');
    expect(unwrapped('.[] | select(.name == "a,b") | .id', 'endpoints')).toBe('.endpoints[] | select(.name == "a,b") | .id');
  });

  it('reads the envelope before any other program, which then gets the array v1 answered (a pipe binds loosest)', () => {
    expect(unwrapped('length', 'networkVolumes')).toBe('.networkVolumes | length');
    expect(unwrapped('.[0].id, .[1].id', 'pods')).toBe('.pods | .[0].id, .[1].id');
    expect(unwrapped('.[0] // empty', 'pods')).toBe('.pods | .[0] // empty');
    expect(unwrapped('map(.id)', 'pods')).toBe('.pods | map(.id)');
    expect(unwrapped('. as $all | $all[0]', 'pods')).toBe('.pods | . as $all | $all[0]');
    expect(unwrapped('.[0].id', 'pods', 'map(select(.name == $name))')).toBe('.pods | map(select(.name == $name)) | .[0].id');
  });

  it('leaves programs that start with definitions, or already read the envelope', () => {
    for (const program of ['def ids: map(.id); ids', 'import "x" as x; .', '.pods[]', '.["pods"] | length', '."pods"[0]']) {
      expect(unwrapped(program, 'pods'), program).toBeNull();
    }
  });
});

describe('an unwrapped list read (text engine)', () => {
  beforeAll(() => loadGrammars(['bash', 'python']));

  it('is not reported again once migrated', () => {
    for (const [file, lines] of [
      ['fixtures/text/python/list-json.py', [11, 16]],
      ['fixtures/text/shell/jq-list-reads.sh', [7, 8, 9, 10]],
    ] as const) {
      const migrated = readFileSync(`${file}.output`, 'utf8');
      const again = scanText(migrated, file, BASES).findings.filter((f) => f.ruleId === 'list-envelope' || f.ruleId === 'billing-records');
      expect(again.filter((f) => (lines as readonly number[]).includes(f.line)), file).toEqual([]);
    }
  });
});
