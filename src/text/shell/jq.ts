/**
 * `curl …/v1/pods | jq '.[] | .id'`: a jq program over a v1 list response (a bare array), rewritten to
 * read the v2 envelope first when that is certain: the program is one single-quoted word and jq reads
 * each input as JSON (no slurp, null input, raw input, stream or program file). Then `.pods | P` gives P
 * the array v1 answered, whatever P is, so the program itself is never parsed (no maintained jq parser
 * with source offsets exists for JS); a first stage that is an index or iteration path (`.[]`,
 * `.[0].name`) is written `.pods[]` / `.pods[0].name`, as a person would.
 */
import type { Edit } from '../source.js';
import type { ValueKind } from '../fields.js';
import { programIndex } from './scope.js';
import { literalOf, type Command, type Word } from './syntax.js';

/** jq options that change what the program's input is. */
const INPUT_OPTIONS = new Set(['--slurp', '--null-input', '--raw-input', '--stream', '--stream-errors', '--seq', '--from-file']);
const INPUT_SHORT = /^-[a-zA-Z]*[snRf]/;
/** jq options followed by values (`--arg name value`): how many words each takes. */
const VALUED_OPTIONS: ReadonlyMap<string, number> = new Map([
  ['--arg', 2], ['--argjson', 2], ['--slurpfile', 2], ['--rawfile', 2], ['--indent', 1], ['-L', 1],
]);

/** A first stage that starts at the input with an index or iteration, then plain path steps. */
const INDEX_STAGE = /^\s*\.(\[(?:\d*|-?\d+|\d*:\d*)\]\??(?:\.[A-Za-z_]\w*\??|\[(?:\d*|-?\d+|"[\w-]*")\]\??)*)\s*(\||$)/;

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

/**
 * What to insert into a program (at `at`, relative to its start) so that it reads the envelope key
 * first, or null when that is not certain. `filter`: a jq filter to apply to the unwrapped list before the program (a v1
 * query filter done on the client). An insertion leaves the rest of the program to other edits.
 */
export function unwrapListProgram(program: string, key: string, filter?: string): { at: number; text: string } | null {
  // Definitions and imports must stay first; a program that already reads the key reads v2 already.
  if (/^\s*(def|import|include)\b/.test(program) || new RegExp(`\\.(${key}|"${key}"|\\["${key}"\\])(?![\\w"])`).test(program)) return null;
  const lead = program.length - program.trimStart().length;
  if (filter) return { at: lead, text: `.${key} | ${filter} | ` };
  if (INDEX_STAGE.test(program)) return { at: lead + 1, text: key };
  return { at: lead, text: `.${key} | ` };
}

/** Whether a jq program reads its input as a list (an index, an iteration, a list builtin). */
export function readsList(program: string): boolean {
  return /^\s*(\.\[\s*-?\d*\s*(:\s*-?\d*\s*)?\]|(length|first|last|add|any|all|reverse|sort|unique|min|max)\s*($|\|)|(map|sort_by|group_by|unique_by|min_by|max_by|first|last|any|all)\()/.test(program);
}

/**
 * The edit that unwraps the list in a jq command's program word, or null. `options`: the words between
 * `jq` and the program (its flags); `text`: the file, to see the word's quotes.
 */
export function unwrapJqEdit(text: string, options: readonly Word[], program: Word, key: string, filter?: string): Edit | null {
  for (let i = 0; i < options.length; i++) {
    const only = options[i]?.parts.length === 1 ? options[i]?.parts[0] : undefined;
    const flag = only?.kind === 'lit' ? only.text : null;
    if (flag === null || INPUT_OPTIONS.has(flag) || (!flag.startsWith('--') && INPUT_SHORT.test(flag))) return null;
    i += VALUED_OPTIONS.get(flag) ?? 0;
  }
  const part = program.parts.length === 1 ? program.parts[0] : undefined;
  // One single-quoted word: what is between the quotes is the program, character for character.
  if (part?.kind !== 'lit' || !part.editable || text[program.start] !== "'" || part.start !== program.start + 1 || program.end !== part.start + part.text.length + 1) return null;
  const insert = unwrapListProgram(part.text, key, filter);
  return insert && { start: part.start + insert.at, end: part.start + insert.at, text: insert.text };
}

/**
 * The program of a jq command that reads its standard input (no file named, no `-n`): what a shell
 * function such as `table() { jq -r '.[] | .name'; }` does to whatever is piped into it.
 */
export function stdinJqFilter(cmd: Command): Word | null {
  const [filter] = jqFilters(cmd);
  if (!filter) return null;
  const options = cmd.words.slice(programIndex(cmd) + 1, cmd.words.indexOf(filter)).map(literalOf);
  const rest = cmd.words.slice(cmd.words.indexOf(filter) + 1);
  const nullInput = options.some((o) => o === '--null-input' || (o !== null && /^-[a-zA-Z]*n/.test(o)));
  // A word after the program that is no option names a file jq reads instead.
  return nullInput || rest.some((w) => !literalOf(w)?.startsWith('-')) ? null : filter;
}

/** The filter words of a `jq` command. */
export function jqFilters(cmd: Command): Word[] {
  const at = programIndex(cmd);
  if (at < 0 || literalOf(cmd.words[at]!) !== 'jq') return [];
  const takesValue = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile', '--args', '--jsonargs', '--indent', '-L', '--tab']);
  for (let i = at + 1; i < cmd.words.length; i++) {
    const lit = literalOf(cmd.words[i]!);
    if (lit === '--arg' || lit === '--argjson' || lit === '--slurpfile' || lit === '--rawfile') {
      i += 2;
      continue;
    }
    if (lit && takesValue.has(lit)) {
      i++;
      continue;
    }
    if (lit?.startsWith('-') && lit.length > 1) continue;
    return [cmd.words[i]!];
  }
  return [];
}

/** A key of an object a jq program builds: where its name is, and what its value visibly is. */
export interface JqKey {
  key: string;
  start: number;
  end: number;
  /** In an object at the top of the program's output (not inside an array or another object). */
  topLevel: boolean;
  value: ValueKind | null;
}

/**
 * The keys of the object literals in a jq program (a name written bare or as a plain quoted string) (`{name: $n, imageName: $img} + {…}`), read only as
 * far as a body check needs: brackets, strings and `key:` pairs; everything else is skipped.
 */
export function jqObjectKeys(program: string): JqKey[] {
  const keys: JqKey[] = [];
  const stack: string[] = [];
  let expectKey = false;
  for (let i = 0; i < program.length; i++) {
    const ch = program.charAt(i);
    if (ch === '"') {
      const end = stringEnd(program, i);
      const name = program.slice(i + 1, end);
      if (expectKey && /^[A-Za-z_]\w*$/.test(name)) pushKey(i + 1, i + 1 + name.length);
      expectKey = false;
      i = end;
      continue;
    }
    if (ch === '{' || ch === '[' || ch === '(') {
      // A call's parenthesis (`map(`) makes what is inside per item; a plain one only groups.
      stack.push(ch === '(' && /\w/.test(program[i - 1] ?? '') ? 'call' : ch);
      expectKey = ch === '{';
    } else if (ch === '}' || ch === ']' || ch === ')') {
      stack.pop();
      expectKey = false;
    } else if (ch === ',' && stack[stack.length - 1] === '{') expectKey = true;
    else if (expectKey && /[A-Za-z_]/.test(ch)) {
      const name = /^[A-Za-z_]\w*/.exec(program.slice(i))?.[0] ?? ch;
      pushKey(i, i + name.length);
      expectKey = false;
      i += name.length - 1;
    } else if (!/\s/.test(ch)) expectKey = false;
  }
  return keys;

  function pushKey(start: number, end: number): void {
    const after = program.slice(program[end] === '"' ? end + 1 : end);
    const colon = /^\s*:\s*/.exec(after);
    if (!colon) return;
    const value = after.slice(colon[0].length);
    const topLevel = stack.filter((b) => b !== '(').length === 1;
    keys.push({ key: program.slice(start, end), start, end, topLevel, value: valueKind(value) });
  }
}

/** The index of the quote that closes the jq string opened at `open`. */
function stringEnd(program: string, open: number): number {
  for (let j = open + 1; j < program.length; j++) {
    if (program[j] === '\\') j++;
    else if (program[j] === '"') return j;
  }
  return program.length;
}

/** The JSON kind of a jq value as written, when it is a literal. */
function valueKind(value: string): ValueKind | null {
  if (/^(true|false)\b/.test(value)) return 'boolean';
  if (/^null\b/.test(value)) return 'null';
  if (/^-?\d/.test(value)) return 'number';
  if (value.startsWith('"')) return 'string';
  if (value.startsWith('[')) return 'array';
  if (value.startsWith('{')) return 'object';
  return null;
}
