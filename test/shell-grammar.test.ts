/**
 * tree-sitter-bash as the oracle for the hand-written shell lexer (src/text/shell/lex.ts): in every
 * shell fixture, the lexer finds a `curl` command exactly where the grammar finds one (inside `if`,
 * `while`, `case` and function bodies, `$(…)`, `<(…)`, after `!` or `sudo`), so no request is missed
 * because the lexer misread the structure around it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadGrammars, parseWith, type SyntaxNode } from '../src/text/grammars.js';
import { commands, literalOf } from '../src/text/shell/lex.js';
import { COMMAND_PREFIXES, programIndex } from '../src/text/shell/scope.js';
import { listFiles } from './helpers.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const SHELL_FILES = listFiles(FIXTURES).filter((f) => /\.(sh|bash)$/.test(f));

beforeAll(() => loadGrammars(['bash']));

function lexerCurls(text: string): number[] {
  return commands(text, 0, text.length).flatMap((cmd) => {
    const at = programIndex(cmd);
    return at >= 0 && literalOf(cmd.words[at]!) === 'curl' ? [cmd.words[at]!.start] : [];
  });
}

function grammarCurls(text: string): number[] {
  const out: number[] = [];
  const visit = (node: SyntaxNode): void => {
    if (node.type === 'command') {
      const words = node.namedChildren.filter((c) => c.type !== 'variable_assignment' && c.type !== 'file_redirect');
      let i = 0;
      const textOf = (n: SyntaxNode): string => text.slice(n.startIndex, n.endIndex);
      while (i < words.length && COMMAND_PREFIXES.has(textOf(words[i]!))) {
        i++;
        while (i < words.length && textOf(words[i]!).startsWith('-')) i++;
      }
      if (words[i] && textOf(words[i]!) === 'curl') out.push(words[i]!.startIndex);
    }
    for (const child of node.namedChildren) visit(child);
  };
  parseWith('bash', text, (tree) => visit(tree.rootNode));
  return out;
}

describe('shell lexer against tree-sitter-bash', () => {
  it('has shell fixtures to compare', () => expect(SHELL_FILES.length).toBeGreaterThan(5));
  for (const file of SHELL_FILES) {
    it(path.relative(FIXTURES, file), () => {
      const text = readFileSync(file, 'utf8');
      expect(lexerCurls(text).sort((a, b) => a - b)).toEqual(grammarCurls(text).sort((a, b) => a - b));
    });
  }
});
