/**
 * jq reads of a v1 list response (a bare array; v2 wraps it in `{ pods: [...] }`): in the request's own
 * pipeline (`curl … | jq '.[0].id'`), or in a later pipeline that prints the variable the response was
 * assigned to (`pods=$(curl …)` then `echo "$pods" | jq '.[] | .id'`). Each is unwrapped where that is
 * certain (shell/jq.ts), else reported.
 */
import path from 'node:path';
import type { Collector, RequestOutcome } from '../plan.js';
import { isListOp, listEnvelope } from '../fields.js';
import { jqFilters, readsList, stdinJqFilter, unwrapJqEdit } from './jq.js';
import { programIndex, programWord, type ShellScope } from './scope.js';
import { functionAt, literalOf, type Command, type ShellFunction, type Word } from './syntax.js';

/** A shell function that reads what is piped into it with jq (`table() { jq -r '.[] | .name'; }`): its programs, and where it is. */
export interface ListReader {
  filters: readonly string[];
  where: string;
}

/** This file's functions that read their standard input with jq, by name. */
export function stdinReaders(cmds: readonly Command[], functions: readonly ShellFunction[], whereOf: (fn: ShellFunction) => string): Map<string, ListReader> {
  const out = new Map<string, ListReader>();
  for (const cmd of cmds) {
    const fn = cmd.stage === 0 && !cmd.inSub ? functionAt(functions, cmd.start) : null;
    const filter = fn ? stdinJqFilter(cmd) : null;
    const text = filter && literalOf(filter);
    if (!fn || !text) continue;
    out.set(fn.name, { filters: [...(out.get(fn.name)?.filters ?? []), text], where: whereOf(fn) });
  }
  return out;
}

/** A request the shell scanner planned: the command that sends it, and what it turned out to be. */
export interface SentRequest {
  cmd: Command;
  outcome: RequestOutcome;
  /** The command prints the response body as it is (curl without `-o`, `-w`, `-i`…, its own options or a pass-through function's; wget to stdout, HTTPie): its readers read exactly the answer. */
  printsBody?: boolean;
}

/** Commands that print their arguments unchanged to standard output (`printf '%s' "$x"` included). */
function printsVariable(cmd: Command, name: string): boolean {
  const at = programIndex(cmd);
  const word = cmd.words[at];
  const prog = word ? literalOf(word) : null;
  const [first, second, ...more] = cmd.words.slice(at + 1);
  const only = (w: Word | undefined): boolean => {
    const p = w?.parts.length === 1 ? w.parts[0] : undefined;
    return p?.kind === 'var' && p.name === name && p.op === '';
  };
  if (prog === 'echo') return !second && only(first);
  if (prog === 'printf') return !more.length && !!first && /^%s(\\n)?$/.test(literalOf(first) ?? '') && only(second);
  return false;
}

/** `$(curl …)` with nothing else in it: the substitution's output is curl's. */
function aloneInSub(cmds: readonly Command[], sent: Command): boolean {
  const sub = sent.inSub;
  return !!sub && cmds.every((c) => c === sent || c.inSub?.[0] !== sub[0]);
}

/**
 * The jq programs that read a request's response: in its own pipeline, or in a pipeline that prints the
 * variable its `$(…)` was assigned to. `certain`: those that read exactly what curl printed (piped
 * straight from curl, or from `echo "$VAR"` of a variable set once by `$(curl …)` alone), with their
 * jq command.
 */
export function responseReaders(cmds: readonly Command[], scope: ShellScope, request: SentRequest, subAssign: ReadonlyMap<string, string>): { all: Word[]; certain: Map<Word, Command>; consumers: Command[] } {
  const sent = request.cmd;
  const printsBody = request.printsBody ?? false;
  const all: Word[] = [];
  const certain = new Map<Word, Command>();
  /** Every command the response is piped into, jq or not. */
  const consumers: Command[] = [];
  for (const cmd of cmds) {
    if (cmd.pipeline !== sent.pipeline || cmd.stage <= sent.stage) continue;
    consumers.push(cmd);
    const filters = jqFilters(cmd);
    all.push(...filters);
    if (cmd.stage === sent.stage + 1 && printsBody) for (const f of filters) certain.set(f, cmd);
  }
  const assigned = sent.inSub ? subAssign.get(`${sent.inSub[0]}`) : undefined;
  if (!assigned) return { all, certain, consumers };
  const once = (scope.defs.get(assigned) ?? []).length === 1 && printsBody && sent.stage === 0 && aloneInSub(cmds, sent);
  for (const cmd of cmds) {
    if (cmd.stage !== 0 || cmd.start <= sent.end) continue;
    if (!cmd.words.some((w) => w.parts.some((p) => p.kind === 'var' && p.name === assigned))) continue;
    for (const next of cmds) {
      if (next.pipeline !== cmd.pipeline || next.stage === 0) continue;
      if (printsVariable(cmd, assigned)) consumers.push(next);
      const filters = jqFilters(next);
      all.push(...filters);
      if (once && next.stage === 1 && printsVariable(cmd, assigned)) for (const f of filters) certain.set(f, next);
    }
  }
  return { all, certain, consumers };
}

/** Programs that run code of their own on what is piped into them: the tool does not follow what that code reads. */
const INTERPRETERS = /^(python[0-9.]*|node|nodejs|deno|bun|ruby|perl|php)$/;

/**
 * A command a list response is piped into that reads it where the tool cannot unwrap it: a function
 * that reads its input with jq (its programs, and where it is), or an interpreter (`python3 -c …`).
 */
function opaqueReader(cmd: Command, readers: ReadonlyMap<string, ListReader>): { how: string[]; why: string; at: number } | null {
  const word = programWord(cmd);
  const name = word ? literalOf(word) : null;
  if (!word || !name) return null;
  const reader = readers.get(name);
  if (reader) return { how: reader.filters.filter(readsList).map((f) => `jq '${f}' in ${reader.where}`), why: 'the function may serve other callers; unwrap the list before piping it into the function, or inside it', at: word.start };
  const program = path.basename(name);
  // `python3 -m json.tool` only pretty-prints what it reads, for a person.
  const printsOnly = cmd.words.some((w, i) => literalOf(w) === 'json.tool' && literalOf(cmd.words[i - 1] ?? w) === '-m');
  if (INTERPRETERS.test(program) && !printsOnly) return { how: [`the ${program} program it is piped into`], why: `v2-migrate does not follow the ${program} code that reads it`, at: word.start };
  return null;
}

/** `done`: jq programs already rewritten (a query filter moved into them unwrapped their list too). `readers`: the functions of this script and of the scripts it sources that read their input with jq. */
export function listReads(c: Collector, cmds: readonly Command[], scope: ShellScope, requests: readonly SentRequest[], subAssign: ReadonlyMap<string, string>, done: ReadonlySet<Word>, readers: ReadonlyMap<string, ListReader>): void {
  for (const request of requests) {
    const { outcome } = request;
    if (!isListOp(outcome.op) || (outcome.shape.base !== 'legacy' && outcome.shape.base !== 'target')) continue;
    const { all, certain, consumers } = responseReaders(cmds, scope, request, subAssign);
    // Piped into a function that reads it with jq, or into another language's program: reported at that command.
    for (const cmd of consumers) {
      const opaque = opaqueReader(cmd, readers);
      if (!opaque) continue;
      for (const how of opaque.how) {
        if (new RegExp(`\\.${outcome.op.resource}\\b`).test(how)) continue;
        const env = listEnvelope(outcome.op, how, opaque.why);
        if (env) c.report(env.rule, opaque.at, env.message);
      }
    }
    for (const f of all) {
      const filter = literalOf(f);
      if (filter === null || done.has(f) || !readsList(filter) || new RegExp(`\\.${outcome.op.resource}\\b`).test(filter)) continue;
      const env = listEnvelope(outcome.op, `jq '${filter}'`);
      if (!env) continue;
      const jq = certain.get(f);
      const edit = jq ? unwrapJqEdit(c.text, jq.words.slice(programIndex(jq) + 1, jq.words.indexOf(f)), f, env.key) : null;
      if (edit && c.fixWith(outcome.request, env.rule, f.start, env.fixed, [edit])) continue;
      c.report(env.rule, f.start, env.message);
    }
  }
}
