/**
 * The re-parse before write for shell, Terraform and Dockerfiles: the rewritten text, read by the
 * same grammar as the original, may not have more syntax errors (tree-sitter ERROR / MISSING nodes),
 * nor, for a Dockerfile, a different list of instructions.
 */
import { parseWith, syntaxErrors, type Grammar } from './grammars.js';
import { dockerfileInstructions } from './dockerfile-ast.js';

export function keepsGrammar(grammar: Grammar, before: string, after: string): boolean {
  return parseWith(grammar, after, syntaxErrors) <= parseWith(grammar, before, syntaxErrors);
}

export function keepsInstructions(before: string, after: string): boolean {
  const keywords = (text: string): string => dockerfileInstructions(text).map((i) => i.keyword).join(' ');
  return keywords(after) === keywords(before);
}
