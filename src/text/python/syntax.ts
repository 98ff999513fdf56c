/**
 * Python syntax, read from tree-sitter-python: the tokens of the file in order (names, numbers,
 * operators with their brackets matched, string literals with their f-string replacement fields and
 * escape sequences, logical line ends) and what the grammar says they are: `def` / `class` blocks
 * with their parameters, assignments (`x = …`, `self.x = …`, `with … as x`), and calls with their
 * callee and arguments. The analysis above (python/model.ts, eval.ts, scan.ts) works on token ranges
 * the grammar delimits.
 *
 * Each text is parsed once (the last few are kept): the scanner, the project layer (text/links-python.ts)
 * and the well-formedness check of the input (text/well-formed.ts) share the parse.
 */
import { parseWith, syntaxErrors, type SyntaxNode } from '../grammars.js';
import { ParseCache } from '../parse-cache.js';

export type TokType = 'name' | 'number' | 'string' | 'op' | 'newline';

export interface StringInfo {
  /** Lower-cased prefix letters (`f`, `rb`, …). */
  prefix: string;
  quote: string;
  /** Offsets of the content between the quotes. */
  bodyStart: number;
  bodyEnd: number;
  raw: boolean;
  f: boolean;
  bytes: boolean;
  /** f-strings: replacement fields (whole `{…}` range, expression range and the expression's tokens). */
  fields: Array<{ start: number; end: number; exprStart: number; exprEnd: number; toks: Tok[] }>;
  /** Escape sequences (`\n`, `\x41`) in the content. */
  escapes: Array<[number, number]>;
}

export interface Tok {
  type: TokType;
  value: string;
  start: number;
  end: number;
  /** For brackets: index of the matching bracket token (-1 when unmatched). */
  match?: number;
  str?: StringInfo;
}

/** Token tests the Python planners share: an operator, and a name (any name, or the one given). */
export const isOp = (t: Tok | undefined, v: string): boolean => !!t && t.type === 'op' && t.value === v;
export const isName = (t: Tok | undefined, v?: string): boolean => !!t && t.type === 'name' && (v === undefined || t.value === v);

export interface Param {
  name: string;
  index: number;
  /** Token range of the default value. */
  def?: [number, number];
  star?: '*' | '**';
  /** The annotation, when it names a class (`settings: Settings`). */
  annotation?: string;
}

export interface Arg {
  kind: 'pos' | 'kw' | 'star' | 'dstar';
  name?: string;
  /** Token range of the value. */
  a: number;
  b: number;
}

/** A `def` or `class` (offsets of the whole definition, token of its keyword). */
export interface Definition {
  kind: 'def' | 'class';
  name: string;
  start: number;
  end: number;
  headerTok: number;
  params: Param[];
}

/** `name = value` (each target of `a = b = value`), `self.x: T = value`, `with value as name`. */
export interface Assignment {
  name: string;
  /** Offset of the target, and the token range of the value. */
  at: number;
  a: number;
  b: number;
}

export interface CallSyntax {
  /** Token index of the first callee token, of the `(` and of its `)`. */
  calleeTok: number;
  open: number;
  close: number;
  /** Dotted callee (`requests.post`, `self.session.get`); a call result in the chain reads `…()`. */
  callee: string;
  /** Last name of the callee and its token. */
  member: string;
  memberTok: number;
  /** Everything before the member (`requests`, `self.session`), or '' for a plain function call. */
  receiver: string;
  args: Arg[];
}

/** `import a.b as c` (name null) or `from .m import x as y`. */
export interface ImportSyntax {
  local: string;
  module: string;
  name: string | null;
}

export interface PythonSyntax {
  toks: Tok[];
  definitions: Definition[];
  assignments: Assignment[];
  calls: CallSyntax[];
  imports: ImportSyntax[];
  /** ERROR and MISSING nodes of the parse (a rewrite may not add any). */
  errors: number;
}

/** The Python syntax of a text: parsed once, then reused (the python grammar must be loaded). */
export function pythonSyntax(text: string): PythonSyntax {
  return parses.get(text, () => parseWith('python', text, (tree) => ({ ...new Reader(text).read(tree.rootNode), errors: syntaxErrors(tree) })));
}

const parses = new ParseCache<PythonSyntax>();

/** Syntax errors of a text: its kept reading's (the original a scan read), else a parse that only counts them (a rewrite). */
export function pythonErrors(text: string): number {
  return parses.peek(text)?.errors ?? parseWith('python', text, syntaxErrors);
}

const OPEN: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };
const CLOSE = new Set([')', ']', '}']);
const LINE_BREAK = /[\r\n]/;

/** Tokens of one sequence (the file, or an f-string field): brackets matched, logical line ends marked. */
class TokenSequence {
  readonly toks: Tok[] = [];
  private readonly stack: number[] = [];
  private lastEnd: number;
  /** A line break was passed since the last token (outside comments and continuations). */
  private broke = -1;

  constructor(
    private readonly text: string,
    from: number,
    private readonly newlines: boolean,
  ) {
    this.lastEnd = from;
  }

  /** Text the tokens do not cover (a comment, a backslash continuation) up to `end`. */
  skip(start: number, end: number): void {
    this.gap(start);
    this.lastEnd = Math.max(this.lastEnd, end);
  }

  push(tok: Tok): void {
    this.gap(tok.start);
    if (this.broke >= 0 && this.newlines && !this.stack.length && this.endsLine()) {
      this.toks.push({ type: 'newline', value: '\n', start: this.broke, end: this.broke + 1 });
    }
    this.broke = -1;
    if (tok.type === 'op' && OPEN[tok.value]) {
      tok.match = -1;
      this.stack.push(this.toks.length);
    } else if (tok.type === 'op' && CLOSE.has(tok.value)) {
      tok.match = -1;
      // Pop to the matching opener (stray closers are left unmatched).
      for (let k = this.stack.length - 1; k >= 0; k--) {
        const at = this.stack[k];
        const opener = at === undefined ? undefined : this.toks[at];
        if (at === undefined || !opener || OPEN[opener.value] !== tok.value) continue;
        opener.match = this.toks.length;
        tok.match = at;
        this.stack.length = k;
        break;
      }
    }
    this.toks.push(tok);
    this.lastEnd = tok.end;
  }

  finish(end: number): Tok[] {
    if (this.newlines && this.endsLine()) this.toks.push({ type: 'newline', value: '', start: end, end });
    return this.toks;
  }

  /** There is a line to end: some token since the last line end. */
  private endsLine(): boolean {
    const last = this.toks[this.toks.length - 1];
    return !!last && last.type !== 'newline';
  }

  private gap(until: number): void {
    if (until <= this.lastEnd || this.broke >= 0) return;
    const between = this.text.slice(this.lastEnd, until);
    const at = between.search(LINE_BREAK);
    if (at >= 0) this.broke = this.lastEnd + at;
  }
}

const isNameText = (s: string): boolean => /^[A-Za-z_]/.test(s) || s.charCodeAt(0) > 127;
const isNumberText = (s: string): boolean => /^[0-9]/.test(s) || /^\.[0-9]/.test(s);
/** Nodes whose text is no token: comments and backslash line continuations. */
const SKIPPED = new Set(['comment', 'line_continuation']);
/** Nodes the structure is read from (python/syntax.ts Reader.structure). */
const STRUCTURAL = new Set(['function_definition', 'class_definition', 'assignment', 'with_item', 'call', 'import_statement', 'import_from_statement']);

class Reader {
  private readonly definitions: Definition[] = [];
  private readonly assignments: Assignment[] = [];
  private readonly calls: CallSyntax[] = [];
  private readonly imports: ImportSyntax[] = [];
  /** Token index by start offset, and one past it by end offset (file tokens only). */
  private readonly byStart = new Map<number, number>();
  private readonly byEnd = new Map<number, number>();

  constructor(private readonly text: string) {}

  read(root: SyntaxNode): Omit<PythonSyntax, 'errors'> {
    // One walk: the tokens, and the nodes the structure is read from (not those inside f-string
    // fields: their tokens are the string's).
    const structural: SyntaxNode[] = [];
    const toks = this.tokens(root, true, structural);
    toks.forEach((t, i) => {
      if (t.type === 'newline') return;
      this.byStart.set(t.start, i);
      this.byEnd.set(t.end, i + 1);
    });
    for (const node of structural) this.structure(node);
    return { toks, definitions: this.definitions, assignments: this.assignments, calls: this.calls, imports: this.imports };
  }

  /** The tokens of a subtree, in order (a string literal is one token); `structural` collects the nodes `structure` reads. */
  private tokens(node: SyntaxNode, newlines: boolean, structural: SyntaxNode[] | null = null): Tok[] {
    const seq = new TokenSequence(this.text, node.startIndex, newlines);
    const cursor = node.walk();
    let descend = true;
    for (;;) {
      if (descend) {
        // Offsets are read only where needed: each read crosses into the WebAssembly runtime.
        const type = cursor.nodeType;
        if (type === 'string') seq.push(this.stringToken(cursor.currentNode));
        else if (SKIPPED.has(type)) seq.skip(cursor.startIndex, cursor.endIndex);
        else {
          if (structural && STRUCTURAL.has(type)) structural.push(cursor.currentNode);
          if (cursor.gotoFirstChild()) continue;
          const s = cursor.startIndex;
          const e = cursor.endIndex;
          if (e > s) {
            const value = this.text.slice(s, e);
            seq.push({ type: isNameText(value) ? 'name' : isNumberText(value) ? 'number' : 'op', value, start: s, end: e });
          }
        }
      }
      if (cursor.gotoNextSibling()) {
        descend = true;
        continue;
      }
      if (!cursor.gotoParent() || cursor.nodeId === node.id) break;
      descend = false;
    }
    cursor.delete();
    return seq.finish(node.endIndex);
  }

  private stringToken(node: SyntaxNode): Tok {
    const start = node.startIndex;
    const end = node.endIndex;
    const opening = node.child(0);
    const closing = node.child(node.childCount - 1);
    const head = opening?.type === 'string_start' ? this.text.slice(opening.startIndex, opening.endIndex) : '"';
    const prefix = (/^[A-Za-z]*/.exec(head)?.[0] ?? '').toLowerCase();
    const info: StringInfo = {
      prefix,
      quote: head.slice(prefix.length),
      bodyStart: opening?.type === 'string_start' ? opening.endIndex : start,
      bodyEnd: closing?.type === 'string_end' && closing.endIndex > closing.startIndex ? closing.startIndex : end,
      raw: prefix.includes('r'),
      f: prefix.includes('f') || prefix.includes('t'),
      bytes: prefix.includes('b'),
      fields: [],
      escapes: [],
    };
    for (const child of node.namedChildren) {
      if (child.type === 'string_content') {
        for (const esc of child.namedChildren) if (esc.type === 'escape_sequence') info.escapes.push([esc.startIndex, esc.endIndex]);
      } else if (child.type === 'interpolation') {
        const expression = child.childForFieldName('expression');
        const exprStart = expression?.startIndex ?? child.startIndex + 1;
        info.fields.push({ start: child.startIndex, end: child.endIndex, exprStart, exprEnd: expression?.endIndex ?? exprStart, toks: expression ? this.tokens(expression, false) : [] });
      }
    }
    return { type: 'string', value: this.text.slice(start, end), start, end, str: info };
  }

  /** A definition, an assignment, a `with` item, a call or an import. */
  private structure(node: SyntaxNode): void {
    switch (node.type) {
      case 'function_definition':
      case 'class_definition':
        return this.definition(node);
      case 'assignment':
        return this.assignment(node);
      case 'with_item':
        return this.withItem(node);
      case 'call':
        return this.call(node);
      default:
        return this.importStatement(node);
    }
  }

  private range(node: SyntaxNode): [number, number] | null {
    const a = this.byStart.get(node.startIndex);
    const b = this.byEnd.get(node.endIndex);
    return a === undefined || b === undefined || b <= a ? null : [a, b];
  }

  private textOf(node: SyntaxNode): string {
    return this.text.slice(node.startIndex, node.endIndex);
  }

  private definition(node: SyntaxNode): void {
    const name = node.childForFieldName('name');
    const keyword = node.children.find((c) => c.type === 'def' || c.type === 'class');
    const headerTok = keyword ? this.byStart.get(keyword.startIndex) : undefined;
    if (!name || headerTok === undefined) return;
    const kind = node.type === 'class_definition' ? 'class' : 'def';
    const parameters = kind === 'def' ? node.childForFieldName('parameters') : null;
    this.definitions.push({ kind, name: this.textOf(name), start: node.startIndex, end: node.endIndex, headerTok, params: parameters ? this.params(parameters) : [] });
  }

  private params(node: SyntaxNode): Param[] {
    const params: Param[] = [];
    for (const p of node.namedChildren) {
      const star = p.type === 'list_splat_pattern' || p.children.some((c) => c.type === 'list_splat_pattern') ? '*' : p.type === 'dictionary_splat_pattern' || p.children.some((c) => c.type === 'dictionary_splat_pattern') ? '**' : undefined;
      const nameNode = p.type === 'identifier' ? p : (p.childForFieldName('name') ?? p.descendantsOfType('identifier')[0]);
      if (!nameNode || nameNode.type !== 'identifier') continue;
      const value = p.childForFieldName('value');
      const def = value ? this.range(value) : null;
      const type = p.childForFieldName('type');
      const annotation = type && /^[A-Za-z_][\w.]*$/.test(this.textOf(type)) ? this.textOf(type) : undefined;
      params.push({ name: this.textOf(nameNode), index: params.length, ...(def ? { def } : {}), ...(star ? { star } : {}), ...(annotation ? { annotation } : {}) });
    }
    return params;
  }

  /** `a = b = value`: every target gets the value; `x: T = value` too; `x: T` alone assigns nothing. */
  private assignment(node: SyntaxNode): void {
    if (node.parent?.type === 'assignment') return; // a link of a chain, read from its head
    const targets: SyntaxNode[] = [];
    let value: SyntaxNode | null = node;
    while (value?.type === 'assignment') {
      const left = value.childForFieldName('left');
      if (left) targets.push(left);
      value = value.childForFieldName('right');
    }
    const range = value ? this.range(value) : null;
    if (!range) return;
    for (const target of targets) {
      const name = this.targetName(target);
      if (name) this.assignments.push({ name, at: target.startIndex, a: range[0], b: range[1] });
    }
  }

  /** `x`, or `obj.x` (an attribute of a name): what an assignment's target names. */
  private targetName(node: SyntaxNode): string | null {
    if (node.type === 'identifier') return this.textOf(node);
    if (node.type !== 'attribute') return null;
    const object = node.childForFieldName('object');
    const attribute = node.childForFieldName('attribute');
    return object?.type === 'identifier' && attribute ? `${this.textOf(object)}.${this.textOf(attribute)}` : null;
  }

  private withItem(node: SyntaxNode): void {
    const pattern = node.namedChildren.find((c) => c.type === 'as_pattern');
    const value = pattern?.namedChildren[0];
    const alias = pattern?.namedChildren.find((c) => c.type === 'as_pattern_target')?.namedChildren[0];
    const range = value ? this.range(value) : null;
    if (!range || alias?.type !== 'identifier') return;
    this.assignments.push({ name: this.textOf(alias), at: alias.startIndex, a: range[0], b: range[1] });
  }

  private call(node: SyntaxNode): void {
    const fn = node.childForFieldName('function');
    const args = node.childForFieldName('arguments');
    const chain = fn ? this.calleeChain(fn) : null;
    const open = args ? this.byStart.get(args.startIndex) : undefined;
    const after = args ? this.byEnd.get(args.endIndex) : undefined;
    if (!chain || !args || open === undefined || after === undefined || this.text[args.startIndex] !== '(') return;
    const calleeTok = this.byStart.get(chain.first.startIndex);
    const memberTok = this.byStart.get(chain.member.startIndex);
    if (calleeTok === undefined || memberTok === undefined) return;
    const parts = chain.parts;
    this.calls.push({ calleeTok, open, close: after - 1, callee: parts.join('.'), member: this.textOf(chain.member), memberTok, receiver: parts.slice(0, -1).join('.'), args: this.args(args) });
  }

  /**
   * A callee as a dotted chain: names back to the first thing that is not a name (`x[0].get` is `get`
   * on something unnamed); a call result in it reads `name()` (`requests.Session().get`).
   */
  private calleeChain(node: SyntaxNode): { parts: string[]; first: SyntaxNode; member: SyntaxNode } | null {
    if (node.type === 'identifier') return { parts: [this.textOf(node)], first: node, member: node };
    if (node.type !== 'attribute') return null;
    const object = node.childForFieldName('object');
    const attribute = node.childForFieldName('attribute');
    if (!object || !attribute) return null;
    const member = this.textOf(attribute);
    if (object.type === 'identifier' || object.type === 'attribute') {
      const inner = this.calleeChain(object);
      if (inner) return { parts: [...inner.parts, member], first: inner.first, member: attribute };
    }
    if (object.type === 'call') {
      const innerFn = object.childForFieldName('function');
      const inner = innerFn ? this.dottedTail(innerFn) : null;
      if (inner) return { parts: [`${inner.names.join('.')}()`, member], first: inner.first, member: attribute };
    }
    return { parts: [member], first: attribute, member: attribute };
  }

  /** The plain dotted names at the end of an expression (`a.b` of `x[0].a.b`). */
  private dottedTail(node: SyntaxNode): { names: string[]; first: SyntaxNode } | null {
    if (node.type === 'identifier') return { names: [this.textOf(node)], first: node };
    const attribute = node.type === 'attribute' ? node.childForFieldName('attribute') : null;
    const object = node.childForFieldName('object');
    if (!attribute || !object) return null;
    const inner = this.dottedTail(object);
    return inner ? { names: [...inner.names, this.textOf(attribute)], first: inner.first } : { names: [this.textOf(attribute)], first: attribute };
  }

  private args(node: SyntaxNode): Arg[] {
    const out: Arg[] = [];
    for (const child of node.namedChildren) {
      if (child.type === 'comment') continue;
      if (child.type === 'keyword_argument') {
        const name = child.childForFieldName('name');
        const value = child.childForFieldName('value');
        const range = value ? this.range(value) : null;
        if (name && range) out.push({ kind: 'kw', name: this.textOf(name), a: range[0], b: range[1] });
        continue;
      }
      const range = this.range(child);
      if (!range) continue;
      if (child.type === 'list_splat' || child.type === 'dictionary_splat') out.push({ kind: child.type === 'list_splat' ? 'star' : 'dstar', a: range[0] + 1, b: range[1] });
      else out.push({ kind: 'pos', a: range[0], b: range[1] });
    }
    return out;
  }

  /** `import a.b as c, d` and `from .m import (x as y, z)`; star imports are not followed. */
  private importStatement(node: SyntaxNode): void {
    const moduleNode = node.type === 'import_from_statement' ? node.childForFieldName('module_name') : null;
    const module = moduleNode ? this.textOf(moduleNode).replace(/\s+/g, '') : null;
    for (const item of node.namedChildren) {
      if (item.id === moduleNode?.id) continue;
      const dotted = item.type === 'aliased_import' ? item.childForFieldName('name') : item.type === 'dotted_name' ? item : null;
      if (!dotted) continue;
      const alias = item.type === 'aliased_import' ? item.childForFieldName('alias') : null;
      const name = this.textOf(dotted).replace(/\s+/g, '');
      if (module === null) this.imports.push({ local: alias ? this.textOf(alias) : name, module: name, name: null });
      else if (/^\w+$/.test(name)) this.imports.push({ local: alias ? this.textOf(alias) : name, module, name });
    }
  }
}
