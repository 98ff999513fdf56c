/**
 * The re-parse before a rewritten non-JS file is written: each language's grammar reads the text
 * before and after, and the rewrite may not make it worse (a file that was already broken may stay
 * so). One case per language; languages without one are not checked.
 */
import { parseTree, type ParseError } from 'jsonc-parser';
import { parseAllDocuments } from 'yaml';
import type { Language } from './language.js';
import { PARSE_OPTIONS } from './json.js';
import { tokenize } from './python/tokenize.js';
import { fencesOf } from './markdown.js';

export function stillWellFormed(language: Language, before: string, after: string): boolean {
  switch (language) {
    case 'json':
      return jsonErrors(after) <= jsonErrors(before);
    case 'yaml':
      return yamlErrors(after) <= yamlErrors(before);
    case 'markdown':
      return fenceOutline(after) === fenceOutline(before);
    case 'python':
      return pythonProblems(after) <= pythonProblems(before);
    default:
      return true;
  }
}

function jsonErrors(text: string): number {
  const errors: ParseError[] = [];
  parseTree(text, errors, PARSE_OPTIONS);
  return errors.length;
}

function yamlErrors(text: string): number {
  return parseAllDocuments(text).reduce((n, doc) => n + doc.errors.length, 0);
}

/** The fences in order with their info strings: a rewrite inside a fence may not open, close or relabel one. */
function fenceOutline(text: string): string {
  return JSON.stringify(fencesOf(text).map((f) => f.info));
}

/** Unmatched brackets and unterminated strings. */
function pythonProblems(text: string): number {
  return tokenize(text).filter((x) => (x.type === 'op' && x.match !== undefined && x.match < 0) || (x.type === 'string' && x.str!.bodyEnd + x.str!.quote.length !== x.end)).length;
}
