/**
 * The re-parse before a rewritten non-JS file is written: each language's grammar reads the text
 * before and after, and the rewrite may not make it worse (a file that was already broken may stay
 * so). One case per language; languages without one are not checked.
 */
import { isMap, isPair, isScalar, isSeq, Lexer, parseAllDocuments, visit } from 'yaml';
import type { Finding } from '../findings.js';
import { RULES } from '../rules/registry.js';
import type { Language } from './language.js';
import { jsonSyntax } from './json.js';
import { fencesOf } from './fences.js';
import { dockerfileInstructions } from './dockerfile-ast.js';
import { shellErrors } from './shell/syntax.js';
import { pythonErrors } from './python/syntax.js';
import { tomlErrors } from './toml.js';
import { hclErrors } from './hcl.js';

interface Rewrite {
  findings: Finding[];
  output: string | null;
}

/**
 * A scan's result, or, when its rewrite would leave the file worse formed than it was, the same
 * findings with nothing fixable and an internal-error (as the JS engine does with output that does not parse).
 */
export function refuseBrokenRewrite<R extends Rewrite>(language: Language, before: string, result: R): R | Rewrite {
  if (result.output === null || stillWellFormed(language, before, result.output)) return result;
  const findings = result.findings.map((f) => (f.fixable ? { ...f, fixable: false } : f));
  findings.push({ ruleId: 'internal-error', severity: RULES['internal-error'].severity, line: 1, column: 1, message: 'v2-migrate could not rewrite this file safely: the rewritten text would not keep its structure. It was left unchanged; please report this.', fixable: false });
  return { findings, output: null };
}

export function stillWellFormed(language: Language, before: string, after: string): boolean {
  switch (language) {
    case 'json':
      return jsonSyntax(after).errors <= jsonSyntax(before).errors;
    case 'yaml': {
      const [b, a] = [yamlOutline(before), yamlOutline(after)];
      return a.errors <= b.errors && a.shape === b.shape;
    }
    case 'markdown':
      return fenceOutline(after) === fenceOutline(before);
    case 'python':
      return pythonErrors(after) <= pythonErrors(before);
    case 'shell':
      return shellErrors(after) <= shellErrors(before);
    case 'hcl':
      return hclErrors(after) <= hclErrors(before);
    case 'toml':
      return tomlErrors(after) <= tomlErrors(before);
    case 'dockerfile':
      return keepsInstructions(before, after);
    default:
      return true;
  }
}

/** The errors, and the kinds of every node and comment in order: an edit to a scalar may not split, end or comment it out. */
function yamlOutline(text: string): { errors: number; shape: string } {
  let errors = 0;
  const shape: string[] = [];
  for (const token of new Lexer().lex(text)) if (token.startsWith('#')) shape.push('#');
  for (const doc of parseAllDocuments(text)) {
    errors += doc.errors.length;
    shape.push('---');
    visit(doc, (_key, node) => void shape.push(isScalar(node) ? 's' : isMap(node) ? 'm' : isSeq(node) ? 'q' : isPair(node) ? 'p' : 'a'));
  }
  return { errors, shape: shape.join('') };
}

/** The fences in order with their info strings: a rewrite inside a fence may not open, close or relabel one. */
function fenceOutline(text: string): string {
  return JSON.stringify(fencesOf(text).map((f) => f.info));
}

/** A Dockerfile keeps its list of instructions. */
function keepsInstructions(before: string, after: string): boolean {
  const keywords = (text: string): string => dockerfileInstructions(text).map((i) => i.keyword).join(' ');
  return keywords(after) === keywords(before);
}
