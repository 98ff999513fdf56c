/**
 * The one .env reader (src/scan/dotenv.ts): the run, the JS engine, the report and the text engine's
 * planner read the same entries, with offsets.
 */
import { describe, expect, it } from 'vitest';
import { dotenvAssignments, readDotenv } from '../src/scan/dotenv.js';

const TEXT = ['# settings', 'export API=https://rest.runpod.io/v1 # the base', "SINGLE='https://x/v1'", 'HASHED="https://rest.runpod.io/v1#frag"', 'TICK=`a b`', 'OPEN="unterminated', 'my.var = 1', 'EMPTY=', ''].join('\n');

describe('the .env reader', () => {
  it('reads each KEY=value line with the offsets of its value', () => {
    expect(readDotenv(TEXT).map((e) => [e.name, e.line, e.quote, TEXT.slice(e.start, e.end), TEXT[e.at]])).toEqual([
      ['API', 2, null, 'https://rest.runpod.io/v1', 'h'],
      ['SINGLE', 3, "'", 'https://x/v1', "'"],
      ['HASHED', 4, '"', 'https://rest.runpod.io/v1#frag', '"'],
      ['TICK', 5, '`', 'a b', '`'],
      ['my.var', 7, null, '1', '1'],
      ['EMPTY', 8, null, '', '\n'],
    ]);
  });

  it('gives the run and the JS engine the same values, a # inside quotes kept', () => {
    expect(dotenvAssignments(TEXT).map((a) => [a.name, a.value, a.line, a.column, TEXT.slice(a.start, a.end)])).toEqual([
      ['API', 'https://rest.runpod.io/v1', 2, 11, 'https://rest.runpod.io/v1'],
      ['SINGLE', 'https://x/v1', 3, 8, 'https://x/v1'],
      ['HASHED', 'https://rest.runpod.io/v1#frag', 4, 8, 'https://rest.runpod.io/v1#frag'],
      ['TICK', 'a b', 5, 6, 'a b'],
      ['my.var', '1', 7, 9, '1'],
    ]);
  });
});
