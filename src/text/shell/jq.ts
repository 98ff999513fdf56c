/**
 * `curl …/v1/pods | jq '.[] | .id'`: a jq program over a v1 list response (a bare array), rewritten to
 * read the v2 envelope first (`.pods[] | .id`) when that is certain: the program is one single-quoted
 * word, jq reads each input as JSON (no slurp, null input, raw input, stream or program file), and the
 * program's first pipe stage is the only part that reads the input — an index or iteration path
 * (`.[]`, `.[0].name`, `.[1:]`) or `length` — so putting the envelope key in front of it changes nothing
 * else.
 */
import type { Edit } from '../source.js';
import type { Word } from './syntax.js';

/** jq options that change what the program's input is. */
const INPUT_OPTIONS = new Set(['--slurp', '--null-input', '--raw-input', '--stream', '--stream-errors', '--seq', '--from-file']);
const INPUT_SHORT = /^-[a-zA-Z]*[snRf]/;

/** A first stage that starts at the input with an index or iteration, then plain path steps. */
const INDEX_STAGE = /^\s*\.(\[(?:\d*|-?\d+|\d*:\d*)\]\??(?:\.[A-Za-z_]\w*\??|\[(?:\d*|-?\d+|"[\w-]*")\]\??)*)\s*(\||$)/;
const LENGTH_STAGE = /^\s*length\s*(\||$)/;

/** curl options after which its standard output is not (only) the response body. */
const NOT_BODY_OPTIONS = new Set(['--output', '--remote-name', '--remote-name-all', '--include', '--write-out', '--dump-header', '--output-dir']);
const NOT_BODY_SHORT = /^-[a-zA-Z]*[oOiwD]/;

/**
 * Whether curl's standard output is the response body alone (so a jq piped from it reads the list). An
 * unquoted `$VAR` word may split into options nobody can see: then it is not known.
 */
export function curlPrintsBody(text: string, curlWords: readonly Word[]): boolean {
  return curlWords.every((w) => {
    const p = w.parts[0];
    if (w.parts.length === 1 && p?.kind === 'var' && text[w.start] === '$') return false;
    const flag = p?.kind === 'lit' ? p.text : '';
    return !(NOT_BODY_OPTIONS.has(flag.split('=')[0]!) || (!flag.startsWith('--') && NOT_BODY_SHORT.test(flag)));
  });
}

/** The program with the envelope key read first, or null when that is not certain. */
export function unwrapListProgram(program: string, key: string): string | null {
  const m = INDEX_STAGE.exec(program);
  if (m) return program.replace(/^(\s*)\./, `$1.${key}`);
  if (LENGTH_STAGE.test(program)) return program.replace(/^(\s*)length/, `$1.${key} | length`);
  return null;
}

/**
 * The edit that unwraps the list in a jq command's program word, or null. `options`: the words between
 * `jq` and the program (its flags); `text`: the file, to see the word's quotes.
 */
export function unwrapJqEdit(text: string, options: readonly Word[], program: Word, key: string): Edit | null {
  for (const w of options) {
    const flag = w.parts.length === 1 && w.parts[0]!.kind === 'lit' ? w.parts[0].text : null;
    if (flag === null || INPUT_OPTIONS.has(flag) || (!flag.startsWith('--') && INPUT_SHORT.test(flag))) return null;
  }
  const part = program.parts.length === 1 ? program.parts[0] : undefined;
  // One single-quoted word: what is between the quotes is the program, character for character.
  if (part?.kind !== 'lit' || !part.editable || text[program.start] !== "'" || part.start !== program.start + 1 || program.end !== part.start + part.text.length + 1) return null;
  const rewritten = unwrapListProgram(part.text, key);
  return rewritten === null ? null : { start: part.start, end: part.start + part.text.length, text: rewritten };
}
