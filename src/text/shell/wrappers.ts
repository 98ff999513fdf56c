/**
 * Shell functions that send a request whose URL their callers complete (`api GET "/pods/$id"`,
 * `rp::http POST "/pods/$id/stop"`): read once as a model with the positional parameters left open,
 * then filled in at every call. A wrapper may call another wrapper (`rp::http` over `_http_request`),
 * and curl arguments may come from arrays (`curl "${args[@]}"`).
 */
import type { HttpMethod } from '../../map/operations.js';
import { holePiece, type TPiece } from '../plan.js';
import { parseCurl, sendsJson } from './curl.js';
import { functionAt, literalOf, type Command, type ShellFunction, type Word } from './syntax.js';
import { programIndex, type ShellScope } from './scope.js';

export interface ShellWrapper {
  name: string;
  /** The URL; a hole labelled `$N` is the call's Nth argument. */
  url: TPiece[];
  /** The `-X` value (with `$N` holes too), or null when curl implies the method. */
  method: TPiece[] | null;
  implied: HttpMethod;
  /** What the request sends as its body (with `$N` holes), or null for none. */
  body: TPiece[] | null;
  /** The request says `Content-Type: application/json`. */
  json: boolean;
  /** For messages: `api (line 12)`, `rp::http (lib/http.sh)`. */
  where: string;
}

const PARAM = /^\$\{?([1-9])(?![0-9])/;

/** The positional parameter a piece stands for, if it is one. */
export function paramOf(p: TPiece): number | null {
  if (p.kind !== 'hole') return null;
  const m = PARAM.exec(p.label);
  return m ? Number(m[1]) : null;
}

/** Pieces with each `$N` hole replaced by the Nth argument's pieces (a missing argument is empty). */
export function fill(pieces: readonly TPiece[], args: readonly (readonly TPiece[])[]): TPiece[] {
  return pieces.flatMap((p) => {
    const n = paramOf(p);
    return n === null ? [p] : [...(args[n - 1] ?? [])];
  });
}

/** The pieces of a call's arguments; `"$@"` passes the caller's own parameters on. */
export function argumentPieces(scope: ShellScope, args: readonly Word[]): TPiece[][] {
  const out: TPiece[][] = [];
  for (const w of args) {
    const only = w.parts.length === 1 ? w.parts[0]! : null;
    if (only?.kind === 'var' && (only.name === '@' || only.name === '*') && scope.positionalHoles) {
      for (let n = 1; out.length < 9; n++) out.push([holePiece(`$${n}`, only.start)]);
      break;
    }
    out.push(scope.pieces(w.parts, w.start));
  }
  return out;
}

/** The model of one command inside a function: a curl, or a call of a known wrapper. */
function requestOf(cmd: Command, scope: ShellScope, known: ReadonlyMap<string, ShellWrapper>, where: string): ShellWrapper | null {
  const at = programIndex(cmd);
  if (at < 0) return null;
  const name = literalOf(cmd.words[at]!);
  if (!name) return null;
  const words = scope.expandArrays(cmd.words, cmd.start);
  if (name === 'curl') {
    const curl = parseCurl({ ...cmd, words }, at);
    if (!curl.url) return null;
    return {
      name: '',
      url: scope.pieces(curl.url.parts, curl.url.start),
      method: curl.methodWord ? scope.pieces(curl.methodWord.parts, curl.methodWord.start) : null,
      implied: curl.method ?? 'GET',
      body: curl.data[0] ? scope.pieces(curl.data[0].parts, curl.data[0].start) : null,
      json: sendsJson(curl),
      where,
    };
  }
  const inner = known.get(name);
  if (!inner) return null;
  const args = argumentPieces(scope, words.slice(at + 1));
  return { ...inner, url: fill(inner.url, args), method: inner.method && fill(inner.method, args), body: inner.body && fill(inner.body, args), where };
}

/**
 * The functions of a file that are wrappers: exactly one request in their own body (not in a nested
 * function) whose URL reads a positional parameter. `known`: wrappers of other files. Variable reads
 * that went into a model are added to `reads` (the wrapper's callers decide whether they move).
 */
export function findWrappers(cmds: readonly Command[], functions: readonly ShellFunction[], scope: ShellScope, known: ReadonlyMap<string, ShellWrapper>, whereOf: (fn: ShellFunction) => string, reads: Set<number>): Map<string, ShellWrapper> {
  const found = new Map<string, ShellWrapper>();
  const all = new Map(known);
  const byFunction = new Map<ShellFunction, Command[]>();
  for (const cmd of cmds) {
    const fn = functionAt(functions, cmd.start);
    if (fn) byFunction.set(fn, [...(byFunction.get(fn) ?? []), cmd]);
  }
  scope.positionalHoles = true;
  try {
    // A wrapper over a wrapper defined further down is found on a later pass.
    for (let pass = 0, grew = true; grew && pass < 4; pass++) {
      grew = false;
      for (const fn of functions) {
        if (found.has(fn.name)) continue;
        const seen = new Set<number>();
        scope.recorder = seen;
        const models = (byFunction.get(fn) ?? []).flatMap((cmd) => {
          const model = requestOf(cmd, scope, all, whereOf(fn));
          return model && model.url.some((p) => paramOf(p) !== null) ? [model] : [];
        });
        scope.recorder = null;
        if (models.length !== 1) continue;
        const model = { ...models[0]!, name: fn.name };
        found.set(fn.name, model);
        all.set(fn.name, model);
        for (const r of seen) reads.add(r);
        grew = true;
      }
    }
  } finally {
    scope.positionalHoles = false;
    scope.recorder = null;
  }
  return found;
}
