/**
 * Where a TODO comment line can go in a script or a module: the start of a line that is code, not the
 * inside of a string or a heredoc (a JSON body written over several lines) nor the continuation of a
 * command (`\` at the end of the line before). Read with the file's grammar (one parse, only for files
 * that get TODOs).
 */
import { parseWith, type Grammar, type SyntaxNode } from './grammars.js';
import { Lines } from '../util/lines.js';

/** What a TODO comment cannot be put inside: it would become part of the value. */
const VALUES: Readonly<Record<Grammar, ReadonlySet<string>>> = {
  bash: new Set(['string', 'raw_string', 'ansi_c_string', 'translated_string', 'heredoc_body', 'heredoc_redirect']),
  python: new Set(['string', 'concatenated_string']),
  hcl: new Set(['template_literal', 'heredoc_template']),
  toml: new Set(['string']),
};

/** The syntax a file's TODO comments are written with, and where they can go. */
export interface TodoSyntax {
  /** The line comment opener (`#`). */
  comment: string;
  /** For each offset (the first character of a line holding a finding), the start of the line its TODO goes above. */
  place: (text: string, starts: readonly number[]) => Map<number, number>;
}

export function todoSyntax(comment: string, grammar: Grammar | null): TodoSyntax {
  return { comment, place: (text, starts) => placeTodos(grammar, text, starts) };
}

/**
 * An .http file: a TODO goes above the request line (`POST {{base}}/pods`), never among its headers or
 * inside its body, where a `#` line would be sent.
 */
export const HTTP_TODOS: TodoSyntax = {
  comment: '#',
  place: (text, starts) => {
    const lines = new Lines(text);
    const out = new Map<number, number>();
    const at = (re: RegExp, offset: number): boolean => {
      re.lastIndex = offset;
      return re.test(text);
    };
    for (const s of starts) {
      let line = lines.pos(s).line;
      for (let l = line; l >= 1 && !at(/[ \t]*###/y, lines.lineStart(l)); l--) {
        if (!at(/[ \t]*(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)[ \t]/y, lines.lineStart(l))) continue;
        line = l;
        break;
      }
      out.set(s, lines.lineStart(line));
    }
    return out;
  },
};

function placeTodos(grammar: Grammar | null, text: string, starts: readonly number[]): Map<number, number> {
  const lines = new Lines(text);
  const out = new Map<number, number>();
  const continued = (offset: number): number => {
    let line = lines.pos(offset).line;
    while (line > 1 && /\\\r?\n$/.test(text.slice(lines.lineStart(line - 1), lines.lineStart(line)))) line--;
    return lines.lineStart(line);
  };
  if (!grammar) {
    for (const s of starts) out.set(s, continued(s));
    return out;
  }
  const values = VALUES[grammar];
  parseWith(grammar, text, (tree) => {
    for (const s of starts) {
      let at = continued(s);
      // Inside a value that began on an earlier line: above the line it begins on.
      for (let value = valueAround(tree.rootNode, firstCode(text, at), values); value; value = valueAround(tree.rootNode, firstCode(text, at), values)) {
        at = continued(value.startIndex);
      }
      out.set(s, at);
    }
  });
  return out;
}

function firstCode(text: string, lineStart: number): number {
  const blanks = /[ \t]*/y;
  blanks.lastIndex = lineStart;
  return lineStart + (blanks.exec(text)?.[0].length ?? 0);
}

/** The outermost value node that holds `offset` and starts before it, if any. */
function valueAround(root: SyntaxNode, offset: number, values: ReadonlySet<string>): SyntaxNode | null {
  let found: SyntaxNode | null = null;
  for (let n: SyntaxNode | null = root.descendantForIndex(offset); n; n = n.parent) {
    if (values.has(n.type) && n.startIndex < offset) found = n;
  }
  return found;
}
