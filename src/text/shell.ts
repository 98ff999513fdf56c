/**
 * Shell: `curl` requests with their method (`-X`, implied by `-d`), body (`-d`/`--data…`/`--json`,
 * `jq -n` filters) and URL resolved through the file's variable assignments and defaults (syntax from
 * tree-sitter-bash in shell/syntax.ts, variables in shell/scope.ts, curl options in shell/curl.ts); `jq` reads of v1 list
 * responses and fields.
 */
import { isCompleteUrl, planRequest, planValue, flatText, type Collector, type EditsOrReason, type RequestOutcome, type TPiece } from './plan.js';
import { mentionsGraphql, scanGraphql } from './fields.js';
import type { Edit } from './source.js';
import type { HttpMethod } from '../map/operations.js';
import { functionAt, literalOf, shellSyntax, type Command, type Part, type ShellFunction, type Word } from './shell/syntax.js';
import { assignmentOf, programIndex, programWord, ShellScope } from './shell/scope.js';
import { curlSetBody, curlSetMethod, parseCurl } from './shell/curl.js';
import { listReads, stdinReaders, type ListReader, type SentRequest } from './shell/lists.js';
import { curlPrintsBody } from './shell/jq.js';
import { curlPassThroughs, type CurlPassThrough } from './shell/passthrough.js';
import { getRequestOf } from './shell/get-clients.js';
import { responseReads } from './shell/responses.js';
import { curlBody } from './shell/body.js';
import { curlListFilter } from './shell/filter.js';
import { argumentPieces, fill, findWrappers, paramOf, type ShellWrapper } from './shell/wrappers.js';

export { literalOf, shellSyntax, type Word } from './shell/syntax.js';
export type { ShellWrapper } from './shell/wrappers.js';
export { ShellScope } from './shell/scope.js';

export interface ShellOptions {
  /** Variables known from outside the shell text (Dockerfile ENV, workflow `env:`). */
  seeds?: ReadonlyMap<string, TPiece[]>;
  /** Scan GraphQL operations in the text (off when an enclosing engine already does). */
  graphql?: boolean;
  /**
   * Whether text with quotes and `: ` may be inserted at an offset (not inside a YAML plain scalar or a
   * JSON string, where it would need escaping). Default: everywhere.
   */
  canInsert?: (at: number) => boolean;
  /** What the other files of the same shell program define (see text/project.ts). */
  program?: ShellProgramView;
}

/** The variables and wrapper functions other files of the program define, and the names they call. */
export interface ShellProgramView {
  vars: ReadonlyMap<string, TPiece[]>;
  wrappers: ReadonlyMap<string, ShellWrapper>;
  /** Functions of other files that read what is piped into them with jq. */
  listReaders: ReadonlyMap<string, ListReader>;
  /** Functions of other files that run curl with the caller's arguments. */
  passThroughs: ReadonlyMap<string, CurlPassThrough>;
  /** Function names called anywhere in the program (a wrapper nobody calls is planned where it is). */
  called: ReadonlySet<string>;
}

/** A file's shell syntax, variables and wrappers, read once. */
export interface ShellFile {
  cmds: Command[];
  functions: ShellFunction[];
  heredocs: Array<[number, number]>;
  scope: ShellScope;
  /** This file's wrapper functions. */
  wrappers: Map<string, ShellWrapper>;
  /** Variable reads that went into a wrapper's model: its callers decide whether they move. */
  modelReads: Set<number>;
  /** This file's functions that read what is piped into them with jq. */
  listReaders: Map<string, ListReader>;
  /** This file's functions that run curl with the caller's arguments. */
  passThroughs: Map<string, CurlPassThrough>;
}

export function readShell(text: string, opts: Pick<ShellOptions, 'seeds' | 'program'>, whereOf: (fn: ShellFunction) => string): ShellFile {
  const { cmds, functions, heredocs } = shellSyntax(text);
  const seeds = opts.program ? new Map([...opts.program.vars, ...(opts.seeds ?? [])]) : opts.seeds;
  const scope = new ShellScope(seeds);
  scope.functions = functions;
  scope.defineAll(cmds);
  const modelReads = new Set<number>();
  const wrappers = findWrappers(cmds, functions, scope, opts.program?.wrappers ?? new Map(), whereOf, modelReads);
  return { cmds, functions, heredocs, scope, wrappers, modelReads, listReaders: stdinReaders(cmds, functions, whereOf), passThroughs: curlPassThroughs(text, cmds, functions) };
}

export function scanShell(c: Collector, text: string, opts: ShellOptions = {}): void {
  const { cmds, functions, heredocs, scope, wrappers, modelReads, listReaders, passThroughs } = readShell(text, opts, (fn) => `${fn.name} (line ${c.lines.pos(fn.start).line})`);
  const curlLike = new Map([...(opts.program?.passThroughs ?? []), ...passThroughs]);
  const known = new Map([...(opts.program?.wrappers ?? []), ...wrappers]);
  const called = new Set(opts.program?.called);
  for (const cmd of cmds) {
    const at = programIndex(cmd);
    const name = at >= 0 ? literalOf(cmd.words[at]!) : null;
    if (name && functionAt(functions, cmd.start)?.name !== name) called.add(name);
  }
  // A wrapper's own request is planned at each call, unless nobody calls it.
  const inCalledWrapper = (offset: number): boolean => {
    const fn = functionAt(functions, offset);
    return !!fn && wrappers.has(fn.name) && called.has(fn.name);
  };
  const subAssign = new Map<string, string>(); // `$(…)` start → the variable it is assigned to
  for (const [name, defs] of scope.defs) for (const d of defs) for (const p of d.parts) if (p.kind === 'sub') subAssign.set(`${p.start}`, name);
  const requests: SentRequest[] = [];
  // jq programs that now filter an unwrapped list in place of an ignored v1 query filter.
  const filtered = new Set<Word>();
  const covered = new Set<number>(modelReads);
  for (const cmd of cmds) {
    const at = programIndex(cmd);
    const word = programWord(cmd);
    const program = word ? literalOf(word) : null;
    // A call of a pass-through function is a curl command with the function's options added.
    const through = program !== null && program !== 'curl' && functionAt(functions, cmd.start)?.name !== program ? curlLike.get(program) : undefined;
    if (program === null || (program !== 'curl' && !through) || inCalledWrapper(cmd.start)) continue;
    const curl = parseCurl({ ...cmd, words: scope.expandArrays(cmd.words, cmd.start) }, at);
    if (!curl.url) continue;
    if (through?.json) curl.headers.push('Content-Type: application/json');
    const urlWord = curl.url;
    const { url, reads } = urlOfCommand(scope, curl.url, cmd);
    // `curl -G -d desiredStatus=RUNNING …`: the data are query parameters.
    const query = curl.get
      ? curl.data.flatMap((d) => {
          const p = d.parts[0];
          const m = p?.kind === 'lit' ? /^([A-Za-z][A-Za-z0-9_]*)=/.exec(p.text) : null;
          return m && p?.kind === 'lit' ? [{ name: m[1]!, at: p.start, editable: p.editable }] : [];
        })
      : [];
    const outcome = planRequest(c, {
      client: 'curl',
      url,
      query,
      anchor: curl.curlWord.start,
      method: curl.method,
      setMethod: (to) => curlSetMethod(curl, to),
      setJsonBody: (body) => (opts.canInsert && !opts.canInsert(curl.cmd.end) ? 'a body cannot be added inside this quoted or plain value; add it by hand' : curlSetBody(curl, body)),
      pinV1Base: () => pinBase(scope, urlWord),
      filterList: (filters, envelope) => (opts.canInsert && !opts.canInsert(curl.cmd.end) ? 'a filter cannot be written inside this quoted or plain value' : curlListFilter(text, cmds, cmd, curl, filters, envelope, filtered)),
    });
    requests.push({ cmd, outcome, printsBody: (through?.printsBody ?? true) && curlPrintsBody(text, curl.cmd.words) });
    coverReads(outcome, reads, covered);
    if (outcome.op && !curl.get) curlBody(c, cmds, scope, curl.data, outcome);
  }
  // wget and HTTPie GETs: their path and the list their readers get (their method and body are never written).
  for (const cmd of cmds) {
    const get = inCalledWrapper(cmd.start) ? null : getRequestOf(cmd);
    if (!get) continue;
    const { url, reads } = urlOfCommand(scope, get.url, cmd);
    const unwritten = `the tool does not write ${get.client}'s method or body; use curl, or change it by hand`;
    const outcome = planRequest(c, { client: get.client, url, anchor: get.url.start, method: 'GET', setMethod: () => unwritten, setJsonBody: () => unwritten, pinV1Base: () => pinBase(scope, get.url) });
    requests.push({ cmd, outcome, printsBody: get.printsBody });
    coverReads(outcome, reads, covered);
  }
  for (const cmd of cmds) {
    const at = programIndex(cmd);
    const name = at >= 0 ? literalOf(cmd.words[at]!) : null;
    const wrapper = name ? known.get(name) : undefined;
    if (!wrapper || inCalledWrapper(cmd.start) || functionAt(functions, cmd.start)?.name === name) continue;
    const outcome = planWrapperCall(c, cmds, scope, cmd, at, wrapper, covered);
    requests.push({ cmd, outcome });
  }
  literalPass(c, cmds, scope, covered);
  // Heredoc bodies (a config file written by `cat > … <<EOF`, a script fed to a shell): each URL as written.
  for (const [s, e] of heredocs) urlTokens(c, text, s, e);
  holdUncoveredBases(c, cmds, scope, covered, opts.seeds);
  listReads(c, cmds, scope, requests, subAssign, filtered, new Map([...(opts.program?.listReaders ?? []), ...listReaders]));
  responseReads(c, cmds, scope, requests, subAssign);
  if (opts.graphql !== false && mentionsGraphql(text)) scanGraphql(c, text, 0, text.length);
}

/** A piece of text written in the command itself, marked as the request's own. */
const localTo = (cmd: Command) => (p: TPiece): TPiece => (p.kind === 'text' && p.origin.start >= cmd.start && p.origin.start < cmd.end ? { ...p, origin: { ...p.origin, local: true } } : p);

/** The variable reads of a request's URL move with it when it goes to a RunPod base (v1, or v2 already). */
function coverReads(outcome: RequestOutcome, reads: ReadonlySet<number>, covered: Set<number>): void {
  if (outcome.shape.base === 'legacy' || outcome.shape.base === 'target') for (const r of reads) covered.add(r);
}

/**
 * A command's URL word as pieces (the text written in the command itself is the request's own), and
 * the variable reads it took: they move with the request.
 */
function urlOfCommand(scope: ShellScope, word: Word, cmd: Command): { url: TPiece[]; reads: Set<number> } {
  const reads = new Set<number>();
  scope.recorder = reads;
  const url = scope.pieces(word.parts, word.start).map(localTo(cmd));
  scope.recorder = null;
  return { url, reads };
}

/**
 * `"$API/pods?x=1"` → `"https://rest.runpod.io/v1/pods?x=1"`: the variable a URL starts with, spelled out as
 * the plain text it holds (a blocked request keeps its v1 URL while the base it shared moves).
 */
function pinBase(scope: ShellScope, url: Word): EditsOrReason {
  const first = url.parts[0];
  if (first?.kind !== 'var') return 'its URL does not start with the variable that holds its base';
  const pieces = scope.pieces([first], first.start);
  if (!pieces.length || pieces.some((p) => p.kind !== 'text' || /[\s"'`$\\]/.test(p.text))) return 'its base variable does not hold plain text';
  return [{ start: first.start, end: first.end, text: flatText(pieces) }];
}

/** A call of a wrapper function (`api POST "/pods/$id/stop"`): the wrapper's request with this call's arguments. */
function planWrapperCall(c: Collector, cmds: readonly Command[], scope: ShellScope, cmd: Command, at: number, wrapper: ShellWrapper, covered: Set<number>): RequestOutcome {
  const args = scope.expandArrays(cmd.words, cmd.start).slice(at + 1);
  const reads = new Set<number>();
  scope.recorder = reads;
  const argPieces = argumentPieces(scope, args).map((a) => a.map(localTo(cmd)));
  scope.recorder = null;
  const methodPieces = wrapper.method && fill(wrapper.method, argPieces);
  const methodText = methodPieces?.length === 1 && methodPieces[0]!.kind === 'text' ? methodPieces[0].text.toUpperCase() : null;
  const method = methodPieces ? (methodText && /^(GET|POST|PUT|PATCH|DELETE)$/.test(methodText) ? (methodText as HttpMethod) : undefined) : wrapper.implied;
  const paramAt = (pieces: TPiece[] | null): number | null => (pieces?.length === 1 ? paramOf(pieces[0]!) : null);
  const methodParam = paramAt(wrapper.method);
  const bodyParam = paramAt(wrapper.body);
  const setMethod = (to: HttpMethod): EditsOrReason => {
    const w = methodParam ? args[methodParam - 1] : undefined;
    const p = w?.parts.length === 1 ? w.parts[0] : undefined;
    if (!w || p?.kind !== 'lit' || !p.editable) return `the method is set inside the wrapper ${wrapper.where}`;
    return [{ start: p.start, end: p.start + p.text.length, text: p.text === p.text.toLowerCase() ? to.toLowerCase() : to }];
  };
  const setJsonBody = (body: Readonly<Record<string, string>>): EditsOrReason => {
    if (!wrapper.body) return `the wrapper ${wrapper.where} sends no body; give it one`;
    if (!bodyParam || args.length !== bodyParam - 1 || !wrapper.json) return `the body goes through the wrapper ${wrapper.where}`;
    return [{ start: cmd.end, end: cmd.end, text: ` '${JSON.stringify(body)}'` }];
  };
  const outcome = planRequest(c, { client: 'shell-function', url: fill(wrapper.url, argPieces), anchor: cmd.words[at]!.start, method, setMethod, setJsonBody });
  coverReads(outcome, reads, covered);
  const bodyWord = bodyParam ? args[bodyParam - 1] : undefined;
  if (outcome.op && bodyWord) curlBody(c, cmds, scope, [bodyWord], outcome, false);
  return outcome;
}

/** v1 URLs in words no curl used: assignments, other commands' arguments, messages. */
function literalPass(c: Collector, cmds: readonly Command[], scope: ShellScope, covered: Set<number>): void {
  const seen = new Set<number>();
  const visit = (parts: readonly Part[], at: number, anchor: number, own: readonly [number, number], handedOver = false): void => {
    const lits = parts.filter((p): p is Part & { kind: 'lit' } => p.kind === 'lit');
    // A word made only of variables is planned where the variables are assigned.
    if (!lits.some((p) => p.text.length) || lits.every((p) => c.consumed.has(p.literal))) return;
    const reads = new Set<number>();
    scope.recorder = reads;
    const pieces = scope.pieces(parts, at);
    scope.recorder = null;
    if (!c.bases.legacy.some((b) => flatText(pieces).includes(b))) return;
    planValue(c, pieces, { anchor, own });
    // A URL this run plans as a whole (`wget --post-data=… "$API/endpoints"`) is a use that moves with its base.
    for (const r of reads) covered.add(r);
    // A bare base handed to another program (`tool --api https://…/v1`): it appends paths the tool cannot see.
    if (handedOver && !isCompleteUrl(pieces, c.bases)) {
      for (const p of lits) if (c.bases.legacy.some((b) => p.text.includes(b))) c.hold(p.literal, c.lines.pos(p.start).line);
    }
  };
  for (const cmd of cmds) {
    for (const w of cmd.words) {
      if (seen.has(w.start)) continue;
      seen.add(w.start);
      const as = assignmentOf(w);
      if (as) {
        visitDefaults(as.value);
        visit(as.value, w.end, as.value[0]?.kind === 'lit' ? (as.value[0] as { literal: number }).literal : w.start, [w.start, w.end]);
      } else {
        visitDefaults(w.parts);
        const prog = programIndex(cmd);
        const printer = prog >= 0 && PRINTERS.has(literalOf(cmd.words[prog]!) ?? '');
        visit(w.parts, w.start, w.start, [w.start, w.end], !printer);
      }
    }
  }
  function visitDefaults(parts: readonly Part[]): void {
    for (const p of parts) {
      // A default no other assignment overrides (`API="${API:-https://…}"` sets it from itself).
      if (p.kind === 'var' && p.def && !(scope.defs.get(p.name) ?? []).some((d) => !(d.from <= p.start && p.start < d.at))) {
        const lits = p.def.filter((d): d is Part & { kind: 'lit' } => d.kind === 'lit');
        if (!lits.length || lits.every((d) => c.consumed.has(d.literal))) continue;
        if (!lits.some((d) => c.bases.legacy.some((b) => d.text.includes(b)))) continue;
        const pieces = scope.variable(p, p.start, 0);
        planValue(c, pieces, { anchor: lits[0]!.literal });
      }
    }
  }
}

/** A URL token as found in running text, without trailing punctuation or an unbalanced closing brace. */
export function trimUrlToken(token: string): string {
  let url = token;
  for (;;) {
    const before = url;
    url = url.replace(/[.,;:!?]+$/, '');
    if (url.endsWith('}') && (url.match(/\}/g) ?? []).length > (url.match(/\{/g) ?? []).length) url = url.slice(0, -1);
    if (url === before) return url;
  }
}

/** Every v1 URL token in text[from, to), planned as a literal on its own. */
export function urlTokens(c: Collector, text: string, from: number, to: number): void {
  for (const legacy of c.bases.legacy) {
    for (let i = text.indexOf(legacy, from); i >= 0 && i < to; i = text.indexOf(legacy, i + legacy.length)) {
      const m = /^[^\s<>()[\]"'`*|\\]*/.exec(text.slice(i, Math.min(to, i + 2000)))!;
      const url = trimUrlToken(m[0]);
      planValue(c, [{ kind: 'text', text: url, origin: { start: i, editable: true, literal: i, local: false } }]);
    }
  }
}

/** Commands that only print: a base they print is not a request sent to it. */
const PRINTERS = new Set(['echo', 'printf', 'log', 'info', 'warn', 'debug', 'notice']);

/**
 * Bases move with their paths (as in the JS engine): a v1 value assigned to a variable stays v1 when
 * some `$VAR` read of it is not part of a request this run migrates (`tool --api "$API"`, a function of
 * another script). Reads inside another assignment count through that variable's own reads; reads by
 * commands that only print do not count.
 */
function holdUncoveredBases(c: Collector, cmds: readonly Command[], scope: ShellScope, covered: ReadonlySet<number>, seeds: ReadonlyMap<string, TPiece[]> | undefined): void {
  const refs: Array<{ name: string; start: number; printed: boolean }> = [];
  const walk = (parts: readonly Part[], printed: boolean): void => {
    for (const p of parts) {
      if (p.kind !== 'var') continue;
      refs.push({ name: p.name, start: p.start, printed });
      if (p.def) walk(p.def, printed);
    }
  };
  for (const cmd of cmds) {
    const at = programIndex(cmd);
    const printed = at >= 0 && PRINTERS.has(literalOf(cmd.words[at]!) ?? '');
    for (const w of cmd.words) walk(w.parts, printed);
  }
  const defRanges: Array<{ name: string; from: number; to: number }> = [];
  for (const [name, defs] of scope.defs) for (const d of defs) defRanges.push({ name, from: d.from, to: d.at });
  const uncovered = (name: string, seen: Set<string>): number | null => {
    if (seen.has(name)) return null;
    seen.add(name);
    for (const r of refs) {
      if (r.name !== name || r.printed || covered.has(r.start)) continue;
      const outer = defRanges.find((d) => d.from <= r.start && r.start < d.to);
      if (outer?.name === name) continue; // `API="${API:-…}"`: the variable's own default
      if (outer) {
        const u = uncovered(outer.name, seen);
        if (u === null) continue;
        return u;
      }
      return r.start;
    }
    return null;
  };
  const literalsIn = (parts: readonly Part[], out: number[]): number[] => {
    for (const p of parts) {
      if (p.kind === 'lit' && c.bases.legacy.some((b) => p.text.includes(b))) out.push(p.literal);
      if (p.kind === 'var' && p.def) literalsIn(p.def, out);
    }
    return out;
  };
  for (const [name, defs] of scope.defs) {
    const lits = defs.flatMap((d) => literalsIn(d.parts, []));
    if (!lits.length) continue;
    const use = uncovered(name, new Set());
    if (use !== null) for (const l of lits) c.hold(l, c.lines.pos(use).line);
  }
  for (const [name, pieces] of seeds ?? []) {
    const lits = pieces.filter((p) => p.kind === 'text' && c.bases.legacy.some((b) => p.text.includes(b))).map((p) => p.origin.literal);
    if (!lits.length || scope.defs.has(name)) continue;
    const use = uncovered(name, new Set());
    if (use !== null) for (const l of lits) c.hold(l, c.lines.pos(use).line);
  }
}

export type { Edit };
