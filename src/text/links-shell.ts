/**
 * Shell scripts that run as one program: a library that sets the base (`RP_REST_BASE="${RP_REST_BASE:-…}"`),
 * one that defines the curl wrapper (`rp::http`), commands that call it (`rp::http POST "/pods/$id/stop"`),
 * sourced together by an entry point. A script that reads a variable or calls a function it does not
 * define gets it from the one file of the project that defines it at top level (a definition inside a
 * function, such as a test's mock, is not a library's).
 */
import path from 'node:path';
import type { Bases } from '../url/shape.js';
import { Lines } from '../util/lines.js';
import { pushTo } from '../util/multimap.js';
import { flatText, type TPiece } from './plan.js';
import { readShell, type ShellProgramView, type ShellWrapper } from './shell.js';
import type { ListReader } from './shell/lists.js';
import type { CurlPassThrough } from './shell/passthrough.js';
import { functionAt, literalOf, shellSyntax, type Part } from './shell/syntax.js';
import { programIndex, ShellScope } from './shell/scope.js';
import { foreignPieces, type ForeignIds } from './foreign.js';
import { relativeFrom as relative } from '../util/folders.js';

/** The names a script defines at top level, and those it uses without defining them. */
interface ShellNames {
  vars: Set<string>;
  functions: Set<string>;
  /** Every name it defines, inside functions too (a local mock shadows the library's). */
  defined: Set<string>;
  reads: Set<string>;
  calls: Set<string>;
  /** The literal text each variable is set to (defaults included), for the hosts it names. */
  values: Map<string, string>;
}

/** The literal text of a value: its literal runs and the defaults of its `${VAR:-…}`. */
const literalText = (parts: readonly Part[]): string => parts.map((p) => (p.kind === 'lit' ? p.text : p.kind === 'var' && p.def ? literalText(p.def) : ' ')).join('');

function namesOf(text: string): ShellNames {
  const { cmds, functions } = shellSyntax(text);
  const scope = new ShellScope();
  scope.defineAll(cmds);
  const out: ShellNames = { vars: new Set(), functions: new Set(), defined: new Set(), reads: new Set(), calls: new Set(), values: new Map() };
  for (const fn of functions) {
    out.defined.add(fn.name);
    if (!functionAt(functions, fn.start)) out.functions.add(fn.name);
  }
  for (const [name, defs] of scope.defs) {
    out.defined.add(name);
    if (defs.some((d) => !functionAt(functions, d.from))) out.vars.add(name);
    out.values.set(name, defs.map((d) => literalText(d.parts)).join('\n'));
  }
  const walk = (parts: readonly Part[]): void => {
    for (const p of parts) {
      if (p.kind !== 'var') continue;
      out.reads.add(p.name);
      if (p.def) walk(p.def);
    }
  };
  for (const cmd of cmds) {
    for (const w of cmd.words) {
      walk(w.parts);
      for (const a of w.array ?? []) walk(a.parts);
    }
    const at = programIndex(cmd);
    const name = at >= 0 ? literalOf(cmd.words[at]!) : null;
    if (name) out.calls.add(name);
  }
  return out;
}

export interface ShellSource {
  file: string;
  text: string;
}

/**
 * The scripts that belong to a program with a RunPod file: `others` (scripts without a RunPod host)
 * join when they use a name such a program defines, a function that sends requests or a variable set
 * to a RunPod URL, directly or through another joined script.
 */
export function joinShellScripts(scripts: readonly ShellSource[], others: readonly string[], read: (file: string) => string | null, needles: readonly string[]): ShellSource[] {
  const names = new Map(scripts.map((s) => [s.file, namesOf(s.text)]));
  const texts = new Map(scripts.map((s) => [s.file, s.text]));
  const joined: ShellSource[] = [];
  const pending = new Map<string, string>();
  for (const f of others) {
    const t = read(f);
    if (t !== null) pending.set(f, t);
  }
  for (let round = 0; round < 6 && pending.size; round++) {
    const relevant = new Set(relevantNames(texts, names, needles).keys());
    if (!relevant.size) break;
    let grew = false;
    for (const [file, text] of pending) {
      if (![...relevant].some((n) => text.includes(n))) continue;
      const own = namesOf(text);
      const uses = [...own.reads, ...own.calls].some((n) => relevant.has(n) && !own.defined.has(n));
      if (!uses) continue;
      names.set(file, own);
      texts.set(file, text);
      joined.push({ file, text });
      pending.delete(file);
      grew = true;
    }
    if (!grew) break;
  }
  return joined;
}

/**
 * Top-level names that carry RunPod requests, and the files whose definition does: variables set to a
 * RunPod URL, functions that send requests or pass such a variable or function on.
 */
function relevantNames(texts: ReadonlyMap<string, string>, names: ReadonlyMap<string, ShellNames>, needles: readonly string[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (name: string, file: string): boolean => {
    const files = out.get(name) ?? out.set(name, new Set()).get(name)!;
    if (files.has(file)) return false;
    files.add(file);
    return true;
  };
  for (const [file, n] of names) for (const v of n.vars) if (needles.some((h) => n.values.get(v)?.includes(h))) add(v, file);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [file, n] of names) {
      const text = texts.get(file)!;
      for (const fn of n.functions) {
        if (out.get(fn)?.has(file)) continue;
        const body = functionBody(text, fn);
        if (body !== null && (/\bcurl\b/.test(body) || [...out.keys()].some((r) => body.includes(r))) && add(fn, file)) grew = true;
      }
    }
  }
  return out;
}

function functionBody(text: string, name: string): string | null {
  const fn = shellSyntax(text).functions.find((f) => f.name === name);
  return fn ? text.slice(fn.bodyStart, fn.bodyEnd) : null;
}

/** Per script of the program: the variables and wrappers it gets from the others. */
export function shellViews(scripts: readonly ShellSource[], bases: Bases, ids: ForeignIds, needles: readonly string[]): Map<string, ShellProgramView> {
  const names = new Map(scripts.map((s) => [s.file, namesOf(s.text)]));
  const relevant = relevantNames(new Map(scripts.map((s) => [s.file, s.text])), names, needles);
  const exporters = new Map<string, string[]>();
  for (const [file, n] of names) for (const name of [...n.vars, ...n.functions]) pushTo(exporters, name, file);
  const called = new Set(scripts.flatMap((s) => [...names.get(s.file)!.calls]));
  const lines = new Map<string, Lines>();
  const linesOf = (file: string): Lines => lines.get(file) ?? lines.set(file, new Lines(scripts.find((s) => s.file === file)!.text)).get(file)!;
  /** The one file a script gets `name` from, if any: the only one defining it, or the only one whose definition carries RunPod requests (not a test's stub). */
  const source = (reader: string, name: string): string | null => {
    if (names.get(reader)!.defined.has(name)) return null;
    const from = (exporters.get(name) ?? []).filter((f) => f !== reader);
    const carrying = from.filter((f) => relevant.get(name)?.has(f));
    return from.length === 1 ? from[0]! : carrying.length === 1 ? carrying[0]! : null;
  };
  const linked = scripts.filter((s) => {
    const n = names.get(s.file)!;
    return [...n.reads, ...n.calls].some((name) => source(s.file, name)) || [...n.vars, ...n.functions].some((name) => scripts.some((o) => o.file !== s.file && source(o.file, name) === s.file));
  });
  // Exports are worked out in rounds: a wrapper over a variable or wrapper of another script needs that one first.
  type Exports = { vars: Map<string, TPiece[]>; wrappers: Map<string, ShellWrapper>; readers: Map<string, ListReader>; passThroughs: Map<string, CurlPassThrough> };
  let exports = new Map<string, Exports>();
  const viewOf = (reader: string): ShellProgramView => {
    const vars = new Map<string, TPiece[]>();
    const wrappers = new Map<string, ShellWrapper>();
    const listReaders = new Map<string, ListReader>();
    const passThroughs = new Map<string, CurlPassThrough>();
    const n = names.get(reader)!;
    for (const name of n.reads) {
      const from = source(reader, name);
      const value = from ? exports.get(from)?.vars.get(name) : undefined;
      if (from && value) vars.set(name, foreignPieces(value, from, linesOf(from), ids));
    }
    for (const name of n.calls) {
      const from = source(reader, name);
      const w = from ? exports.get(from)?.wrappers.get(name) : undefined;
      if (from && w) wrappers.set(name, { ...w, url: foreignPieces(w.url, from, linesOf(from), ids), method: w.method && foreignPieces(w.method, from, linesOf(from), ids), body: w.body && foreignPieces(w.body, from, linesOf(from), ids), where: `${name} (${relative(reader, from)})` });
      const r = from ? exports.get(from)?.readers.get(name) : undefined;
      if (from && r) listReaders.set(name, { filters: r.filters, where: `${name} (${relative(reader, from)})` });
      const through = from ? exports.get(from)?.passThroughs.get(name) : undefined;
      if (through) passThroughs.set(name, through);
    }
    return { vars, wrappers, listReaders, passThroughs, called };
  };
  for (let round = 0, changed = true; changed && round < 5; round++) {
    const next = new Map<string, Exports>();
    for (const s of linked) {
      const sf = readShell(s.text, { program: viewOf(s.file) }, (fn) => `${fn.name} (${path.basename(s.file)})`);
      const n = names.get(s.file)!;
      const vars = new Map<string, TPiece[]>();
      for (const name of n.vars) {
        const value = sf.scope.variable({ kind: 'var', name, op: '', def: null, start: s.text.length, end: s.text.length }, s.text.length, 0);
        const flat = flatText(value);
        if ([...bases.legacy, bases.target].some((b) => flat.includes(b))) vars.set(name, value);
      }
      const wrappers = new Map([...sf.wrappers].filter(([name]) => n.functions.has(name)));
      next.set(s.file, { vars, wrappers, readers: sf.listReaders, passThroughs: sf.passThroughs });
    }
    changed = signature(next) !== signature(exports);
    exports = next;
  }
  return new Map(linked.map((s) => [s.file, viewOf(s.file)]));
}

function signature(exports: ReadonlyMap<string, { vars: Map<string, TPiece[]>; wrappers: Map<string, ShellWrapper> }>): string {
  return [...exports].map(([f, e]) => `${f}:${[...e.vars].map(([n, v]) => `${n}=${flatText(v)}`).join(',')}|${[...e.wrappers].map(([n, w]) => `${n}=${flatText(w.url)}`).join(',')}`).join('\n');
}
