/** Shell variables: assignments, defaults and arrays, resolved to URL pieces. */
import { holePiece, type TPiece, type TextOrigin } from '../plan.js';
import { pushTo } from '../../util/multimap.js';
import { functionAt, literalOf, type Command, type Part, type ShellFunction, type Word } from './syntax.js';

interface Definition {
  /** End of the assignment word (uses after it see this value) and its start. */
  at: number;
  from: number;
  parts: Part[];
}

/** Programs that run the command after them (`sudo curl …`). */
export const COMMAND_PREFIXES = new Set(['sudo', 'time', 'command', 'exec', 'nohup', 'env', 'xargs', 'watch']);
export const DECLARERS = new Set(['export', 'local', 'readonly', 'declare', 'typeset']);

export function assignmentOf(word: Word): { name: string; value: Part[] } | null {
  const first = word.parts[0];
  if (first?.kind !== 'lit' || first.literal !== first.start) return null;
  const m = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(first.text);
  if (!m) return null;
  const rest = first.text.slice(m[0].length);
  const literal = first.start + m[0].length;
  const value: Part[] = rest ? [{ ...first, text: rest, start: literal, literal }] : [];
  const others = word.parts.slice(1).map((p) => (p.kind === 'lit' && p.literal === first.literal ? { ...p, literal } : p));
  return { name: m[1]!, value: [...value, ...others] };
}

/** The command's program word index, after prefix assignments and wrappers (`sudo`, `env X=1`). */
export function programIndex(cmd: Command): number {
  let i = 0;
  while (i < cmd.words.length) {
    const w = cmd.words[i]!;
    if (assignmentOf(w)) {
      i++;
      continue;
    }
    const lit = literalOf(w);
    if (lit && COMMAND_PREFIXES.has(lit)) {
      i++;
      while (i < cmd.words.length && literalOf(cmd.words[i]!)?.startsWith('-')) i++;
      continue;
    }
    return i;
  }
  return -1;
}

/** The word that names the program a command runs, if any (see programIndex). */
export const programWord = (cmd: Command): Word | undefined => cmd.words[programIndex(cmd)];

export class ShellScope {
  readonly defs = new Map<string, Definition[]>();
  /** Arrays: each assignment (`A=(…)` resets, `A+=(…)` appends) where it ends, and its words. */
  readonly arrays = new Map<string, Array<{ at: number; words: Word[]; append: boolean }>>();
  /**
   * Positional parameters (`$1`, `${2:-x}`) read as holes labelled `$N` whatever their default: set
   * while reading a function body as a wrapper whose callers fill them in.
   */
  positionalHoles = false;
  constructor(seeds?: ReadonlyMap<string, TPiece[]>) {
    this.seeds = seeds ?? new Map();
  }
  private readonly seeds: ReadonlyMap<string, TPiece[]>;

  define(name: string, at: number, parts: Part[], from = at): void {
    pushTo(this.defs, name, { at, from, parts });
  }

  /** Every assignment of the commands: `X=…`, `export X=… Y=…`, `local -a A=(…)`, prefixes of a command. */
  defineAll(cmds: readonly Command[]): void {
    for (const cmd of cmds) {
      let i = 0;
      const first = literalOf(cmd.words[0]!);
      if (first && DECLARERS.has(first)) i = 1;
      for (; i < cmd.words.length; i++) {
        const w = cmd.words[i]!;
        const lit = literalOf(w);
        if (lit?.startsWith('-') && i > 0) continue;
        const as = assignmentOf(w);
        if (!as) break;
        if (w.array) pushTo(this.arrays, as.name, { at: w.end, words: w.array, append: /^\w+\+=/.test(lit ?? '') });
        else this.define(as.name, w.end, as.value, w.start);
      }
    }
  }

  /** The words of a command with each `"${A[@]}"` replaced by the words `A` holds at `at`. */
  expandArrays(words: readonly Word[], at: number): Word[] {
    const out: Word[] = [];
    for (const w of words) {
      const only = w.parts.length === 1 ? w.parts[0]! : null;
      const defs = only?.kind === 'var' && only.op === '[@]' ? (this.arrays.get(only.name) ?? []).filter((d) => d.at <= at) : [];
      if (!defs.length) {
        out.push(w);
        continue;
      }
      const reset = defs.map((d) => d.append).lastIndexOf(false);
      for (const d of defs.slice(Math.max(reset, 0))) out.push(...d.words);
    }
    return out;
  }

  /** Variable references read while building a request's URL (offsets of the `$` parts), when recording. */
  recorder: Set<number> | null = null;

  /** Pieces of a word, variables expanded where the file (or a default) says what they hold. */
  pieces(parts: readonly Part[], at: number, depth = 0): TPiece[] {
    const out: TPiece[] = [];
    for (const p of parts) {
      if (p.kind === 'lit') out.push({ kind: 'text', text: p.text, origin: { start: p.start, editable: p.editable, literal: p.literal, local: false } });
      else if (p.kind === 'sub') out.push(holePiece('$(…)', p.start));
      else out.push(...this.variable(p, at, depth));
    }
    return out;
  }

  /** The file's functions: a read inside one sees that function's own assignments first (`local`). */
  functions: readonly ShellFunction[] = [];

  variable(p: Part & { kind: 'var' }, at: number, depth: number): TPiece[] {
    this.recorder?.add(p.start);
    const label = p.op ? `\${${p.name}${p.op}…}` : `$${p.name}`;
    if (depth > 8) return [holePiece(label, p.start)];
    if (this.positionalHoles && /^[1-9]$/.test(p.name)) return [holePiece(`$${p.name}`, p.start)];
    const defs = this.defs.get(p.name) ?? [];
    const all = defs.filter((d) => d.at <= p.start);
    const fn = functionAt(this.functions, p.start);
    const own = fn ? all.filter((d) => functionAt(this.functions, d.from) === fn) : [];
    const before = own.length ? own : all;
    const usable = p.op === '' || !!p.def;
    // Several different values set in the same place (`case` branches: `pod) path=/pods ;; volume) path=…`):
    // the value is one of them, not the last.
    if (usable && own.length > 1 && alternatives(own, p.name)) {
      const hole = holePiece(label, p.start);
      return [hole.kind === 'hole' ? { ...hole, either: own.map((d) => this.pieces(d.parts, d.at, depth + 1)) } : hole];
    }
    if (usable && before.length) return this.pieces(before[before.length - 1]!.parts, before[before.length - 1]!.at, depth + 1);
    if (p.op === '' && defs.length) return this.pieces(defs[defs.length - 1]!.parts, defs[defs.length - 1]!.at, depth + 1);
    const seed = this.seeds.get(p.name);
    if (seed && (p.op === '' || p.def)) return seed;
    if (p.def && (p.op === ':-' || p.op === '-' || p.op === ':=' || p.op === '=')) {
      return this.pieces(p.def, at, depth + 1).map((x) => (x.kind === 'text' ? { ...x, origin: { ...x.origin, envVar: x.origin.envVar ?? p.name } as TextOrigin } : x));
    }
    return [holePiece(label, p.start)];
  }
}

/** Plain literal values that differ, none built from the variable itself. */
function alternatives(defs: readonly Definition[], name: string): boolean {
  const texts = defs.map((d) => (d.parts.every((x) => x.kind === 'lit') ? d.parts.map((x) => (x as { text: string }).text).join('') : null));
  return texts.every((t) => t !== null) && new Set(texts).size > 1 && !defs.some((d) => d.parts.some((x) => x.kind === 'var' && x.name === name));
}
