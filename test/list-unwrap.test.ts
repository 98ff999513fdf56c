import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { unwrapListProgram } from '../src/text/shell/jq.js';
import { loadGrammars, scanText } from '../src/text/index.js';

const BASES = { legacy: ['https://rest.runpod.io/v1'], target: 'https://api.runpod.io/v2' };

describe('jq list unwrap (text engine)', () => {
  it('puts the envelope key in front of a first stage that alone reads the input', () => {
    expect(unwrapListProgram('.[] | .id', 'pods')).toBe('.pods[] | .id');
    expect(unwrapListProgram('.[0].name', 'templates')).toBe('.templates[0].name');
    expect(unwrapListProgram(' .[-1]', 'records')).toBe(' .records[-1]');
    expect(unwrapListProgram('.[2:]|map(.id)', 'pods')).toBe('.pods[2:]|map(.id)');
    expect(unwrapListProgram('length', 'networkVolumes')).toBe('.networkVolumes | length');
    expect(unwrapListProgram('.[] | select(.name == "a,b") | .id', 'endpoints')).toBe('.endpoints[] | select(.name == "a,b") | .id');
  });

  it('leaves programs that read the input again, or in another way', () => {
    for (const program of ['.[0].id, .[1].id', '.[0] // empty', 'length > 0', 'map(.id)', '.pods[]', '. as $all | $all[0]', '.[] as $p | $p.id', '.["pods"]', 'first']) {
      expect(unwrapListProgram(program, 'pods')).toBeNull();
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
