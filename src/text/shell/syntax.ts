/**
 * Shell syntax, read from tree-sitter-bash: simple commands (their words, pipeline and stage, the
 * `$(…)` they run in), function definitions and heredoc bodies. A word is a list of parts — literal
 * runs (with where their quotes start, so an edit knows what it may touch), `$VAR` / `${VAR…}`
 * expansions (with the default of `${VAR:-…}`), and substitutions (`$(…)`, `` `…` ``, `<(…)`) — which
 * is what the scanners resolve URLs from.
 *
 * Each text is parsed once (the last few are kept): the scanner, the project layer (text/links-shell.ts)
 * and the well-formedness check of the input (text/well-formed.ts) share the parse.
 */
import { parseWith, syntaxErrors, type SyntaxNode } from '../grammars.js';
import { ParseCache } from '../parse-cache.js';

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

/** One shell text, read. */
export interface ShellSyntax {
  cmds: Command[];
  functions: ShellFunction[];
  /** Heredoc bodies (`<<EOF` … `EOF`): text the command reads, not shell. */
  heredocs: Array<[number, number]>;
  /** ERROR and MISSING nodes of the parse (a rewrite may not add any). */
  errors: number;
}

/** The shell syntax of a text: parsed once, then reused (the bash grammar must be loaded). */
export function shellSyntax(text: string): ShellSyntax {
  return parses.get(text, () => {
    const gha = githubExpressions(text);
    return parseWith('bash', gha.size ? maskExpressions(text, gha) : text, (tree) => ({ ...new Reader(text, gha).read(tree.rootNode), errors: syntaxErrors(tree) }));
  });
}

const parses = new ParseCache<ShellSyntax>();

/** Syntax errors of a text: its kept reading's (the original a scan read), else a parse that only counts them (a rewrite). */
export function shellErrors(text: string): number {
  const kept = parses.peek(text);
  if (kept) return kept.errors;
  const gha = githubExpressions(text);
  return parseWith('bash', gha.size ? maskExpressions(text, gha) : text, syntaxErrors);
}

/** The literal text of a word when it has no expansions (quotes removed). */
export function literalOf(word: Word): string | null {
  let out = '';
  for (const p of word.parts) {
    if (p.kind !== 'lit') return null;
    out += p.text;
  }
  return out;
}

/** The innermost function whose body holds `offset`. */
export function functionAt(functions: readonly ShellFunction[], offset: number): ShellFunction | null {
  let best: ShellFunction | null = null;
  for (const f of functions) if (f.bodyStart <= offset && offset < f.bodyEnd && (!best || f.bodyStart > best.bodyStart)) best = f;
  return best;
}

/**
 * GitHub Actions expressions in `run:` scripts (`${{ env.API }}`): the workflow fills them in before
 * the shell runs, so they read as variables (`env.X` and bare names as `X`, other contexts as
 * `ctx.X`). Bash cannot parse them: each is blanked to a plain `${___}` of the same length first.
 */
const GITHUB_EXPRESSION = /\$\{\{\s*(?:(env|vars|secrets|inputs|github|steps|matrix|needs)\.)?([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;

function githubExpressions(text: string): Map<number, string> {
  const out = new Map<number, string>();
  if (!text.includes('${{')) return out;
  for (const m of text.matchAll(GITHUB_EXPRESSION)) {
    const [, context, name] = m;
    if (name !== undefined) out.set(m.index, context === 'env' || !context ? name : `${context}.${name}`);
  }
  return out;
}

function maskExpressions(text: string, gha: ReadonlyMap<number, string>): string {
  let out = '';
  let at = 0;
  for (const start of gha.keys()) {
    const end = text.indexOf('}}', start) + 2;
    out += text.slice(at, start) + '${' + '_'.repeat(end - start - 3) + '}';
    at = end;
  }
  return out + text.slice(at);
}

/** Word-level nodes: what a command's arguments are made of. */
const UNITS = new Set(['word', 'string', 'raw_string', 'ansi_c_string', 'translated_string', 'simple_expansion', 'expansion', 'concatenation', 'command_substitution', 'process_substitution', 'arithmetic_expansion', 'number', 'brace_expression']);
/** Nodes that are (or hold) statements. */
const STATEMENTS = new Set([
  'command', 'pipeline', 'list', 'redirected_statement', 'variable_assignment', 'variable_assignments', 'declaration_command', 'unset_command',
  'function_definition', 'compound_statement', 'subshell', 'if_statement', 'elif_clause', 'else_clause', 'while_statement', 'for_statement',
  'c_style_for_statement', 'do_group', 'case_statement', 'case_item', 'negated_command', 'test_command', 'ERROR',
]);
/** `${NAME<op>…}`: the operator after the name. */
const EXPANSION_OP = /^(:-|:=|:\?|:\+|-|=|\?|\+|%%|%|##|#|\/\/|\/|\^\^|\^|,,|,|:)?/;
/** Operators whose operand is a value the variable may take. */
const DEFAULT_OPS = new Set([':-', '-', ':=', '=']);
const FUNCTION_NAME = /^[A-Za-z_][\w:.@-]*$/;

class Reader {
  private readonly cmds: Command[] = [];
  private readonly functions: ShellFunction[] = [];
  private readonly heredocs: Array<[number, number]> = [];
  private pipelines = 0;

  constructor(
    private readonly text: string,
    private readonly gha: ReadonlyMap<number, string>,
  ) {}

  read(root: SyntaxNode): Omit<ShellSyntax, 'errors'> {
    this.statement(root, null);
    return { cmds: this.cmds, functions: this.functions, heredocs: this.heredocs };
  }

  /** A statement node (or any node holding statements) and everything in it. */
  private statement(node: SyntaxNode, inSub: [number, number] | null, pipeline = this.pipelines++, stage = 0): void {
    switch (node.type) {
      case 'command':
        return this.command(node, inSub, pipeline, stage);
      case 'variable_assignment':
        return this.push([this.assignment(node, inSub)], inSub, pipeline, stage);
      case 'variable_assignments':
        return this.push(node.namedChildren.filter((c) => c.type === 'variable_assignment').map((c) => this.assignment(c, inSub)), inSub, pipeline, stage);
      case 'declaration_command':
      case 'unset_command':
        return this.declaration(node, inSub, pipeline, stage);
      case 'pipeline':
        return this.pipeline(node, inSub);
      case 'redirected_statement':
        return this.redirected(node, inSub, pipeline, stage);
      case 'function_definition':
        return this.functionDefinition(node, inSub);
      case 'heredoc_body':
      case 'comment':
        return;
      default:
        return this.other(node, inSub);
    }
  }

  /** Structure (`if`, `for`, `case`, `[[ … ]]`, groups): its words are a command of their own, its statements are read. */
  private other(node: SyntaxNode, inSub: [number, number] | null): void {
    let words: Word[] = [];
    const flush = (): void => {
      if (words.length) this.push(words, inSub, this.pipelines++, 0);
      words = [];
    };
    const collect = (n: SyntaxNode): void => {
      for (const child of n.namedChildren) {
        if (UNITS.has(child.type)) words.push(this.word(child, inSub));
        else if (STATEMENTS.has(child.type)) {
          flush();
          this.statement(child, inSub);
        } else if (child.type === 'heredoc_body') this.heredocs.push([child.startIndex, child.endIndex]);
        else if (child.type === 'file_redirect') this.substitutionsIn(child);
        else if (child.type !== 'comment') collect(child);
      }
    };
    collect(node);
    flush();
  }

  private command(node: SyntaxNode, inSub: [number, number] | null, pipeline: number, stage: number, extra: Word[] = []): void {
    const words: Word[] = [];
    for (const child of node.namedChildren) {
      if (child.type === 'variable_assignment') words.push(this.assignment(child, inSub));
      else if (child.type === 'command_name') {
        const name = child.namedChildren[0];
        if (name) words.push(this.word(name, inSub));
      } else if (child.type === 'herestring_redirect') words.push(...this.redirectWords(child, inSub));
      else if (UNITS.has(child.type)) words.push(this.word(child, inSub));
      else if (child.type === 'file_redirect') this.substitutionsIn(child);
      else if (child.type !== 'comment') this.statement(child, inSub);
    }
    this.push([...words, ...extra], inSub, pipeline, stage);
  }

  /** `export A=1 B=…`, `local -a ARGS=(…)`, `unset X`: the keyword is the command's first word. */
  private declaration(node: SyntaxNode, inSub: [number, number] | null, pipeline: number, stage: number): void {
    const keyword = node.child(0);
    const words: Word[] = keyword ? [this.literalWord(keyword.startIndex, keyword.endIndex)] : [];
    for (const child of node.namedChildren) {
      if (child.type === 'variable_assignment') words.push(this.assignment(child, inSub));
      else if (UNITS.has(child.type) || child.type === 'variable_name') words.push(this.word(child, inSub));
    }
    this.push(words, inSub, pipeline, stage);
  }

  private pipeline(node: SyntaxNode, inSub: [number, number] | null): void {
    const index = this.pipelines++;
    let stage = 0;
    for (const child of node.namedChildren) {
      if (child.type === 'comment') continue;
      this.statement(child, inSub, index, stage++);
    }
  }

  /** A statement with redirections: here-strings are read as words of its command, heredoc bodies are kept aside. */
  private redirected(node: SyntaxNode, inSub: [number, number] | null, pipeline: number, stage: number): void {
    const body = node.childForFieldName('body');
    const extra: Word[] = [];
    let next = stage + 1;
    const later: Array<() => void> = [];
    for (const child of node.namedChildren) {
      if (child.id === body?.id) continue;
      if (child.type === 'herestring_redirect') extra.push(...this.redirectWords(child, inSub));
      else if (child.type === 'file_redirect') this.substitutionsIn(child);
      else if (child.type === 'heredoc_redirect') {
        // `cat <<EOF | curl …`: the grammar hangs the rest of the pipeline on the heredoc.
        for (const part of child.namedChildren) {
          if (part.type === 'heredoc_body') this.heredocs.push([part.startIndex, part.endIndex]);
          else if (part.type === 'pipeline') {
            for (const c of part.namedChildren) {
              const at = next++;
              later.push(() => this.statement(c, inSub, pipeline, at));
            }
          } else if (STATEMENTS.has(part.type)) {
            const at = next++;
            later.push(() => this.statement(part, inSub, pipeline, at));
          }
        }
      }
    }
    if (body?.type === 'command') this.command(body, inSub, pipeline, stage, extra);
    else {
      if (body) this.statement(body, inSub, pipeline, stage);
      if (extra.length) this.push(extra, inSub, this.pipelines++, 0);
    }
    for (const f of later) f();
  }

  /** A file redirection is no word of its command, but `< <(curl …)` runs commands. */
  private substitutionsIn(redirect: SyntaxNode): void {
    for (const child of redirect.namedChildren) this.unit(child, child.startIndex, [], null);
  }

  private redirectWords(node: SyntaxNode, inSub: [number, number] | null): Word[] {
    return node.namedChildren.filter((c) => UNITS.has(c.type)).map((c) => this.word(c, inSub));
  }

  private functionDefinition(node: SyntaxNode, inSub: [number, number] | null): void {
    const name = node.childForFieldName('name');
    const body = node.childForFieldName('body');
    const nameText = name ? this.text.slice(name.startIndex, name.endIndex) : '';
    if (body?.type === 'compound_statement' && FUNCTION_NAME.test(nameText)) {
      const close = body.child(body.childCount - 1);
      this.functions.push({ name: nameText, start: node.startIndex, bodyStart: body.startIndex + 1, bodyEnd: close?.type === '}' ? close.startIndex : body.endIndex });
    }
    if (body) this.statement(body, inSub);
  }

  private push(words: Word[], inSub: [number, number] | null, pipeline: number, stage: number): void {
    const first = words[0];
    const last = words[words.length - 1];
    if (first && last) this.cmds.push({ words, start: first.start, end: last.end, pipeline, stage, inSub });
  }

  /** `NAME=value`, `NAME+=value`, `NAME=(…)`: one word whose first part starts with `NAME=`. */
  private assignment(node: SyntaxNode, inSub: [number, number] | null): Word {
    const value = node.childForFieldName('value');
    const nameEnd = value ? value.startIndex : node.endIndex;
    const head: Part = { kind: 'lit', text: this.text.slice(node.startIndex, nameEnd), start: node.startIndex, editable: true, literal: node.startIndex };
    if (value?.type === 'array') {
      const array = value.namedChildren.filter((c) => UNITS.has(c.type)).map((c) => this.word(c, inSub));
      return { parts: [head], start: node.startIndex, end: nameEnd, array };
    }
    const parts: Part[] = [head];
    if (value) this.unit(value, node.startIndex, parts, inSub);
    return { parts, start: node.startIndex, end: node.endIndex };
  }

  private literalWord(start: number, end: number): Word {
    return { parts: [{ kind: 'lit', text: this.text.slice(start, end), start, editable: true, literal: start }], start, end };
  }

  private word(node: SyntaxNode, inSub: [number, number] | null): Word {
    const parts: Part[] = [];
    this.unit(node, node.startIndex, parts, inSub);
    return { parts, start: node.startIndex, end: node.endIndex };
  }

  /** The parts of one word-level node; unquoted text belongs to the literal that starts at `wordStart`. */
  private unit(node: SyntaxNode, wordStart: number, out: Part[], inSub: [number, number] | null): void {
    const s = node.startIndex;
    const e = node.endIndex;
    switch (node.type) {
      case 'raw_string':
        return void out.push({ kind: 'lit', text: this.text.slice(s + 1, e - 1), start: s + 1, editable: true, literal: s });
      case 'ansi_c_string':
        return void out.push({ kind: 'lit', text: this.text.slice(s + 2, e - 1), start: s + 2, editable: false, literal: s });
      case 'string':
      case 'translated_string': {
        const open = this.text.indexOf('"', s);
        return this.between(node.namedChildren, open + 1, this.text[e - 1] === '"' ? e - 1 : e, (from, to) => this.doubleQuoted(from, to, open, out), out, inSub);
      }
      case 'simple_expansion':
        return void out.push({ kind: 'var', name: this.text.slice(s + 1, e), op: '', def: null, start: s, end: e });
      case 'expansion':
        return void out.push(this.expansion(node, inSub));
      case 'command_substitution':
      case 'process_substitution':
      case 'arithmetic_expansion': {
        const backtick = this.text[s] === '`';
        const innerStart = backtick ? s + 1 : s + 2;
        const innerEnd = e - 1;
        out.push({ kind: 'sub', start: s, end: e, innerStart, innerEnd });
        if (node.type !== 'arithmetic_expansion') for (const child of node.namedChildren) this.statement(child, [s, e]);
        return;
      }
      default:
        return this.between(node.namedChildren, s, e, (from, to) => this.unquoted(from, to, wordStart, out), out, inSub, wordStart);
    }
  }

  /** The text of [from, to) around the word-level nodes in it: gaps through `text`, the nodes as parts. */
  private between(children: readonly SyntaxNode[], from: number, to: number, text: (from: number, to: number) => void, out: Part[], inSub: [number, number] | null, wordStart = from): void {
    let at = from;
    for (const child of children) {
      if (!UNITS.has(child.type) || child.type === 'word' || child.type === 'number') continue;
      if (child.startIndex > at) text(at, child.startIndex);
      this.unit(child, wordStart, out, inSub);
      at = child.endIndex;
    }
    if (to > at) text(at, to);
  }

  /** Unquoted text: backslash escapes are their own (uneditable) characters, a backslash-newline is nothing. */
  private unquoted(from: number, to: number, wordStart: number, out: Part[]): void {
    let run = from;
    const flush = (end: number): void => {
      if (end <= run) return;
      const prev = out[out.length - 1];
      // Unquoted runs of one word are one literal: a URL split by `$VAR` is still written in one place.
      if (prev?.kind === 'lit' && prev.editable && prev.literal === wordStart && prev.start + prev.text.length === run) prev.text += this.text.slice(run, end);
      else out.push({ kind: 'lit', text: this.text.slice(run, end), start: run, editable: true, literal: wordStart });
    };
    for (let i = from; i < to; i++) {
      if (this.text[i] !== '\\') continue;
      flush(i);
      const next = this.text[i + 1] ?? '';
      if (next !== '\n') out.push({ kind: 'lit', text: next, start: i, editable: false, literal: i });
      i++;
      run = i + 1;
    }
    flush(to);
  }

  /** Text inside double quotes: `\$`, `` \` ``, `\"`, `\\` are uneditable characters, a backslash-newline is nothing. */
  private doubleQuoted(from: number, to: number, open: number, out: Part[]): void {
    let run = from;
    const flush = (end: number): void => {
      if (end > run) out.push({ kind: 'lit', text: this.text.slice(run, end), start: run, editable: true, literal: open });
    };
    for (let i = from; i < to; i++) {
      const next = this.text[i + 1] ?? '';
      if (this.text[i] !== '\\' || !next || !'$`"\\\n'.includes(next)) continue;
      flush(i);
      if (next !== '\n') out.push({ kind: 'lit', text: next, start: i, editable: false, literal: open });
      i++;
      run = i + 1;
    }
    flush(to);
  }

  /** `${NAME}`, `${NAME:-default}`, `${#NAME}`, `${NAME[@]}`, `${NAME%/}`, and a blanked GitHub expression. */
  private expansion(node: SyntaxNode, inSub: [number, number] | null): Part {
    const s = node.startIndex;
    const e = node.endIndex;
    const github = this.gha.get(s);
    if (github !== undefined) return { kind: 'var', name: github, op: '', def: null, start: s, end: e };
    const subscript = node.namedChildren.find((c) => c.type === 'subscript');
    const nameNode = subscript?.childForFieldName('name') ?? node.namedChildren.find((c) => c.type === 'variable_name' || c.type === 'special_variable_name');
    const name = nameNode ? this.text.slice(nameNode.startIndex, nameNode.endIndex) : '';
    const afterName = (subscript ?? nameNode)?.endIndex ?? s + 2;
    const close = this.text[e - 1] === '}' ? e - 1 : e;
    const opText = EXPANSION_OP.exec(this.text.slice(afterName, close))?.[0] ?? '';
    let op = opText;
    if (this.text[s + 2] === '#' && nameNode && nameNode.startIndex > s + 2) op = '#';
    else if (subscript) {
      const index = subscript.childForFieldName('index');
      const all = index && /^[@*]$/.test(this.text.slice(index.startIndex, index.endIndex));
      op = (all ? '[@]' : '[]') + opText;
    }
    let def: Part[] | null = null;
    if (!subscript && DEFAULT_OPS.has(op)) {
      const parts: Part[] = [];
      const from = afterName + opText.length;
      this.between(node.namedChildren.filter((c) => c.startIndex >= from), from, close, (a, b) => this.unquoted(a, b, from, parts), parts, inSub, from);
      def = parts;
    }
    return { kind: 'var', name, op, def, start: s, end: e };
  }
}
