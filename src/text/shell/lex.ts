/**
 * Shell syntax: a lexer for words (quotes, `$VAR`, `${VAR:-default}`, `${ARR[@]}`, `$(…)`, backslash
 * continuations, heredocs, comments) and simple commands and pipelines, with array literals and
 * function definitions.
 */
export type Part =
  | { kind: 'lit'; text: string; start: number; editable: boolean; literal: number }
  | { kind: 'var'; name: string; op: string; def: Part[] | null; start: number; end: number }
  | { kind: 'sub'; start: number; end: number; innerStart: number; innerEnd: number };

export interface Word {
  parts: Part[];
  start: number;
  end: number;
  /** `NAME=(a b c)` / `NAME+=(…)`: the words of the array literal that follows the `=`. */
  array?: Word[];
}

/** A shell function: `name() { … }` or `function name { … }`; its body is text[bodyStart, bodyEnd). */
export interface ShellFunction {
  name: string;
  start: number;
  bodyStart: number;
  bodyEnd: number;
}

export interface Command {
  words: Word[];
  start: number;
  end: number;
  /** Index of the pipeline the command belongs to, and its position in it. */
  pipeline: number;
  stage: number;
  /** Offset range of the `$(…)` the command runs in, if any. */
  inSub: [number, number] | null;
}

export type Tok = { kind: 'word'; word: Word } | { kind: 'op'; op: string; start: number; end: number };

const OP_CHARS = new Set(['|', '&', ';', '(', ')', '<', '>', '\n']);
const isSpace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r';
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*/;

/** Lex text[from, to) into words and operators. */
export function lex(text: string, from: number, to: number, bodies: Array<[number, number]> = []): Tok[] {
  const toks: Tok[] = [];
  let i = from;
  const heredocs: Array<{ delim: string; strip: boolean }> = [];
  while (i < to) {
    const ch = text[i]!;
    if (isSpace(ch)) {
      i++;
      continue;
    }
    if (ch === '\\' && (text[i + 1] === '\n' || (text[i + 1] === '\r' && text[i + 2] === '\n'))) {
      i += text[i + 1] === '\r' ? 3 : 2;
      continue;
    }
    if (ch === '#') {
      while (i < to && text[i] !== '\n') i++;
      continue;
    }
    if (ch === '\n') {
      toks.push({ kind: 'op', op: '\n', start: i, end: i + 1 });
      i++;
      // Heredoc bodies follow the line that opened them.
      for (const h of heredocs.splice(0)) {
        const bodyStart = i;
        let bodyEnd = to;
        while (i < to) {
          const lineStart = i;
          let e = text.indexOf('\n', i);
          if (e < 0 || e > to) e = to;
          const line = text.slice(i, e).replace(/\r$/, '');
          i = Math.min(e + 1, to);
          if ((h.strip ? line.replace(/^\t+/, '') : line) === h.delim) {
            bodyEnd = lineStart;
            break;
          }
        }
        bodies.push([bodyStart, bodyEnd]);
      }
      continue;
    }
    if (OP_CHARS.has(ch)) {
      if (text.startsWith('<<', i) && !text.startsWith('<<<', i)) {
        let j = i + 2;
        const strip = text[j] === '-';
        if (strip) j++;
        while (isSpace(text[j] ?? '')) j++;
        const m = /^(['"]?)([A-Za-z0-9_.-]+)\1/.exec(text.slice(j, to));
        if (m) {
          heredocs.push({ delim: m[2]!, strip });
          toks.push({ kind: 'op', op: '<<', start: i, end: j + m[0].length });
          i = j + m[0].length;
          continue;
        }
      }
      const two = text.slice(i, i + 2);
      const op = ['||', '&&', ';;', '|&', '>>', '&>', '<<<'].includes(text.slice(i, i + 3)) ? text.slice(i, i + 3) : ['||', '&&', ';;', '|&', '>>', '&>', '>&', '<&'].includes(two) ? two : ch;
      toks.push({ kind: 'op', op, start: i, end: i + op.length });
      i += op.length;
      continue;
    }
    const { word, end } = lexWord(text, i, to, false);
    toks.push({ kind: 'word', word });
    i = end;
  }
  return toks;
}

/** Lex one word from `i`; `inBrace` stops at an unquoted `}` (a `${…}` default). */
function lexWord(text: string, start: number, to: number, inBrace: boolean): { word: Word; end: number } {
  const parts: Part[] = [];
  let i = start;
  let run = i;
  // Unquoted runs of one word are one literal: a URL split by `$VAR` is still written in one place.
  const flush = (end: number): void => {
    if (end > run) parts.push({ kind: 'lit', text: text.slice(run, end), start: run, editable: true, literal: start });
  };
  while (i < to) {
    const ch = text[i]!;
    if (!inBrace && (isSpace(ch) || OP_CHARS.has(ch))) break;
    if (inBrace && ch === '}') break;
    if (ch === '\\') {
      flush(i);
      if (text[i + 1] === '\n') {
        i += 2;
      } else {
        parts.push({ kind: 'lit', text: text[i + 1] ?? '', start: i, editable: false, literal: i });
        i += 2;
      }
      run = i;
      continue;
    }
    if (ch === "'") {
      flush(i);
      const close = text.indexOf("'", i + 1);
      const end = close < 0 || close > to ? to : close;
      parts.push({ kind: 'lit', text: text.slice(i + 1, end), start: i + 1, editable: true, literal: i });
      i = Math.min(end + 1, to);
      run = i;
      continue;
    }
    if (ch === '$' && text[i + 1] === "'") {
      flush(i);
      let j = i + 2;
      while (j < to && text[j] !== "'") j += text[j] === '\\' ? 2 : 1;
      parts.push({ kind: 'lit', text: text.slice(i + 2, j), start: i + 2, editable: false, literal: i });
      i = Math.min(j + 1, to);
      run = i;
      continue;
    }
    if (ch === '"') {
      flush(i);
      i = lexDouble(text, i, to, parts);
      run = i;
      continue;
    }
    if (ch === '$' || ch === '`') {
      flush(i);
      const r = lexDollar(text, i, to, parts);
      if (r === i) {
        i++;
        continue;
      }
      i = r;
      run = i;
      continue;
    }
    i++;
  }
  flush(i);
  return { word: { parts, start, end: i }, end: i };
}

function lexDouble(text: string, open: number, to: number, parts: Part[]): number {
  let i = open + 1;
  let run = i;
  const flush = (end: number): void => {
    if (end > run) parts.push({ kind: 'lit', text: text.slice(run, end), start: run, editable: true, literal: open });
  };
  while (i < to) {
    const ch = text[i]!;
    if (ch === '"') {
      flush(i);
      return i + 1;
    }
    if (ch === '\\' && '$`"\\\n'.includes(text[i + 1] ?? '')) {
      flush(i);
      if (text[i + 1] !== '\n') parts.push({ kind: 'lit', text: text[i + 1]!, start: i, editable: false, literal: open });
      i += 2;
      run = i;
      continue;
    }
    if (ch === '$' || ch === '`') {
      flush(i);
      const r = lexDollar(text, i, to, parts);
      if (r === i) {
        i++;
        run = i - 1;
        continue;
      }
      i = r;
      run = i;
      continue;
    }
    i++;
  }
  flush(i);
  return i;
}

/** `$NAME`, `${…}`, `$(…)`, `$((…))`, `` `…` ``: pushes a part and returns the offset after it (or `i` if none). */
function lexDollar(text: string, i: number, to: number, parts: Part[]): number {
  if (text[i] === '`') {
    let j = i + 1;
    while (j < to && text[j] !== '`') j += text[j] === '\\' ? 2 : 1;
    parts.push({ kind: 'sub', start: i, end: Math.min(j + 1, to), innerStart: i + 1, innerEnd: Math.min(j, to) });
    return Math.min(j + 1, to);
  }
  const next = text[i + 1];
  if (next === '(') {
    const close = matchParen(text, i + 1, to);
    parts.push({ kind: 'sub', start: i, end: close + 1, innerStart: i + 2, innerEnd: close });
    return Math.min(close + 1, to);
  }
  if (next === '{' && text[i + 2] === '{') {
    // GitHub Actions expressions inside `run:` scripts: `${{ env.API }}` reads the workflow's env.
    const gm = /^\$\{\{\s*(?:(env|vars|secrets|inputs|github|steps|matrix|needs)\.)?([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/.exec(text.slice(i, Math.min(to, i + 200)));
    if (!gm) return i;
    parts.push({ kind: 'var', name: gm[1] === 'env' || !gm[1] ? gm[2]! : `${gm[1]}.${gm[2]}`, op: '', def: null, start: i, end: i + gm[0].length });
    return i + gm[0].length;
  }
  if (next === '{') {
    const m = /^(#?)([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(text.slice(i + 2, to));
    if (!m) return i;
    const name = m[2]!;
    let j = i + 2 + m[0].length;
    // `${NAME[@]}` (every element of an array) and `${NAME[i]}`.
    const sub = /^\[([^\]]*)\]/.exec(text.slice(j, Math.min(to, j + 100)));
    if (sub) j += sub[0].length;
    const opm = /^(:-|:=|:\?|:\+|-|=|\?|\+|%%|%|##|#|\/\/|\/|\^\^|\^|,,|,|:)?/.exec(text.slice(j, to))!;
    const op = m[1] ? '#' : sub ? (sub[1] === '@' || sub[1] === '*' ? '[@]' : '[]') + opm[0] : opm[0];
    j += opm[0].length;
    let def: Part[] | null = null;
    if (!sub && (op === ':-' || op === '-' || op === ':=' || op === '=')) {
      const { word, end } = lexWord(text, j, to, true);
      def = word.parts;
      j = end;
    } else {
      // Skip to the matching brace.
      let depth = 0;
      while (j < to) {
        if (text[j] === '{') depth++;
        else if (text[j] === '}') {
          if (depth === 0) break;
          depth--;
        }
        j++;
      }
    }
    const end = text[j] === '}' ? j + 1 : j;
    parts.push({ kind: 'var', name, op, def, start: i, end });
    return end;
  }
  const m = NAME_RE.exec(text.slice(i + 1, Math.min(to, i + 200))) ?? /^[0-9@*#?$!-]/.exec(text.slice(i + 1, i + 2));
  if (!m) return i;
  parts.push({ kind: 'var', name: m[0], op: '', def: null, start: i, end: i + 1 + m[0].length });
  return i + 1 + m[0].length;
}

function matchParen(text: string, open: number, to: number): number {
  let depth = 0;
  let i = open;
  while (i < to) {
    const ch = text[i]!;
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (ch === "'") {
      const c = text.indexOf("'", i + 1);
      i = c < 0 ? to : c + 1;
      continue;
    }
    if (ch === '"') {
      i++;
      while (i < to && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')') {
      depth--;
      if (depth === 0) return i;
    }
    i++;
  }
  return to;
}

/**
 * Simple commands (words between operators), including those inside `$(…)`. Array literals
 * (`NAME=(…)`) are attached to their assignment word; `{` and `}` that group commands are not words of
 * a command; function definitions are pushed to `functions`.
 */
export function commands(text: string, from: number, to: number, inSub: [number, number] | null = null, counter = { pipeline: 0 }, bodies: Array<[number, number]> = [], functions: ShellFunction[] = []): Command[] {
  const toks = lex(text, from, to, bodies);
  const out: Command[] = [];
  let words: Word[] = [];
  let stage = 0;
  let pipeline = counter.pipeline++;
  let redirectNext = false;
  /** Open `{` groups: the function each belongs to (null: a plain group). */
  const braces: Array<{ name: string; start: number; bodyStart: number } | null> = [];
  let header: { name: string; start: number } | null = null;
  const end = (): void => {
    if (words.length) out.push({ words, start: words[0]!.start, end: words[words.length - 1]!.end, pipeline, stage, inSub });
    words = [];
  };
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!;
    if (t.kind === 'op') {
      // `<(…)` / `>(…)`: a process substitution, not a file name; its commands follow.
      if (t.op === '(') redirectNext = false;
      if (['<', '>', '>>', '&>', '>&', '<&', '<<<'].includes(t.op)) {
        redirectNext = t.op !== '<<<';
        if (t.op === '<<<') redirectNext = false;
        continue;
      }
      if (t.op === '<<') continue;
      // `name() {`: a function header (the `()` follows the name word directly or after spaces).
      if (t.op === '(' && words.length === 1 && toks[k + 1]?.kind === 'op' && (toks[k + 1] as { op: string }).op === ')') {
        const name = literalOf(words[0]!);
        if (name && FUNCTION_NAME.test(name)) {
          header = { name, start: words[0]!.start };
          words = [];
          k++;
          continue;
        }
      }
      if (t.op === '\n' && header && !words.length) continue;
      end();
      if (t.op === '|' || t.op === '|&') stage++;
      else {
        stage = 0;
        pipeline = counter.pipeline++;
      }
      continue;
    }
    if (redirectNext) {
      redirectNext = false;
      continue;
    }
    const lit = literalOf(t.word);
    if (!words.length && lit === 'function' && toks[k + 1]?.kind === 'word') {
      const name = literalOf((toks[k + 1] as { word: Word }).word);
      if (name && FUNCTION_NAME.test(name)) {
        header = { name, start: t.word.start };
        k++;
        if (toks[k + 1]?.kind === 'op' && (toks[k + 1] as { op: string }).op === '(' && toks[k + 2]?.kind === 'op' && (toks[k + 2] as { op: string }).op === ')') k += 2;
        continue;
      }
    }
    if (!words.length && lit === '{') {
      braces.push(header ? { ...header, bodyStart: t.word.end } : null);
      header = null;
      continue;
    }
    header = null;
    // `if curl …; then curl …; fi`, `! curl …`: the reserved word is not the command.
    if (!words.length && lit !== null && LEADING_RESERVED.has(lit)) continue;
    if (!words.length && lit === '}' && braces.length) {
      const open = braces.pop();
      if (open) functions.push({ name: open.name, start: open.start, bodyStart: open.bodyStart, bodyEnd: t.word.start });
      continue;
    }
    // `NAME=(…)`: the array literal's words belong to the assignment.
    const next = toks[k + 1];
    if (next?.kind === 'op' && next.op === '(' && next.start === t.word.end && /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(lit ?? '')) {
      const array: Word[] = [];
      let j = k + 2;
      for (; j < toks.length; j++) {
        const a = toks[j]!;
        if (a.kind === 'op') {
          if (a.op === ')') break;
          continue;
        }
        array.push(a.word);
      }
      words.push({ ...t.word, array });
      k = j;
      continue;
    }
    words.push(t.word);
    for (const p of t.word.parts) {
      if (p.kind === 'sub') out.push(...commands(text, p.innerStart, p.innerEnd, [p.start, p.end], counter, bodies, functions));
      if (p.kind === 'var' && p.def) for (const d of p.def) if (d.kind === 'sub') out.push(...commands(text, d.innerStart, d.innerEnd, [d.start, d.end], counter, bodies, functions));
    }
  }
  end();
  return out;
}

const FUNCTION_NAME = /^[A-Za-z_][\w:.@-]*$/;
/** Reserved words a command can follow on the same line. */
const LEADING_RESERVED = new Set(['if', 'then', 'elif', 'else', 'do', 'while', 'until', '!']);

/** The literal text of a word when it has no expansions (quotes removed). */
export function literalOf(word: Word): string | null {
  if (word.parts.some((p) => p.kind !== 'lit')) return null;
  return word.parts.map((p) => (p as { text: string }).text).join('');
}

/** The innermost function whose body holds `offset`. */
export function functionAt(functions: readonly ShellFunction[], offset: number): ShellFunction | null {
  let best: ShellFunction | null = null;
  for (const f of functions) if (f.bodyStart <= offset && offset < f.bodyEnd && (!best || f.bodyStart > best.bodyStart)) best = f;
  return best;
}
