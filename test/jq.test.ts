import { describe, expect, it } from 'vitest';
import { unwrapListProgram } from '../src/text/shell/jq.js';

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
