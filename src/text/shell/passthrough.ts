/**
 * Shell functions that run curl with fixed options and whatever their caller passes
 * (`api() { curl -fsS -H "Authorization: Bearer $KEY" "$@"; }`): each call is a curl command of its
 * own (`api -X POST "$API/pods/$ID/stop"`), planned where it is written, with what the function adds.
 */
import { parseCurl, sendsJson } from './curl.js';
import { curlPrintsBody } from './jq.js';
import { programIndex, programWord } from './scope.js';
import { functionAt, literalOf, type Command, type ShellFunction, type Word } from './syntax.js';

export interface CurlPassThrough {
  /** Whether the function's own options leave the response body as curl's output (no `-o`, `-w`, `-i`…). */
  printsBody: boolean;
  /** Its own options send `Content-Type: application/json`. */
  json: boolean;
}

/** `"$@"` (or `$@`, `"$*"`): the caller's arguments, all of them. */
const isAllArgs = (w: Word): boolean => w.parts.length === 1 && w.parts[0]?.kind === 'var' && (w.parts[0].name === '@' || w.parts[0].name === '*') && w.parts[0].op === '';

/** This file's curl pass-through functions, by name: one curl command in the body, handed `"$@"`, with no URL, method or body of its own. */
export function curlPassThroughs(text: string, cmds: readonly Command[], functions: readonly ShellFunction[]): Map<string, CurlPassThrough> {
  const curls = new Map<string, Command[]>();
  for (const cmd of cmds) {
    const fn = functionAt(functions, cmd.start);
    const program = programWord(cmd);
    if (fn && program && literalOf(program) === 'curl') curls.set(fn.name, [...(curls.get(fn.name) ?? []), cmd]);
  }
  const out = new Map<string, CurlPassThrough>();
  for (const [name, [only, ...more]] of curls) {
    if (!only || more.length || !only.words.some(isAllArgs)) continue;
    const own = parseCurl({ ...only, words: only.words.filter((w) => !isAllArgs(w)) }, programIndex(only));
    if (own.url || own.methodWord || own.data.length || own.get || own.opaque) continue;
    const options = own.cmd.words.slice(programIndex(only) + 1);
    out.set(name, { printsBody: curlPrintsBody(text, options), json: sendsJson(own) });
  }
  return out;
}
