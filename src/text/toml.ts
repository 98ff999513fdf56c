/**
 * TOML, read with tree-sitter-toml: every string (basic, literal, multi-line) holding a v1 URL is
 * planned as a literal; a key that looks like an environment variable (`RUNPOD_API_URL = "…"`) is
 * named in the message. The parse is shared with the well-formedness check of the rewrite.
 */
import { planValue, type Collector } from './plan.js';
import { backslash, looksLikeEnvVar, none, runs } from './strings.js';
import { mentionsGraphql, scanGraphql } from './fields.js';
import { parseWith, syntaxErrors, type SyntaxNode } from './grammars.js';
import { ParseCache } from './parse-cache.js';

/** A string value: where it and its content are, whether escapes count, and the last segment of its key. */
interface TomlString {
  start: number;
  bodyStart: number;
  bodyEnd: number;
  basic: boolean;
  key: string | null;
}

export interface TomlSyntax {
  strings: TomlString[];
  /** ERROR and MISSING nodes of the parse (a rewrite may not add any). */
  errors: number;
}

const parses = new ParseCache<TomlSyntax>();

/** Syntax errors of a text: its kept reading's (the original a scan read), else a parse that only counts them (a rewrite). */
export function tomlErrors(text: string): number {
  return parses.peek(text)?.errors ?? parseWith('toml', text, syntaxErrors);
}

/** The TOML syntax of a text: parsed once, then reused (the toml grammar must be loaded). */
export function tomlSyntax(text: string): TomlSyntax {
  return parses.get(text, () =>
    parseWith('toml', text, (tree) => {
      const strings: TomlString[] = [];
      for (const node of tree.rootNode.descendantsOfType('string')) {
        const quote = node.child(0)?.type ?? '"';
        const closed = text.endsWith(quote, node.endIndex) && node.endIndex - node.startIndex >= 2 * quote.length;
        strings.push({ start: node.startIndex, bodyStart: node.startIndex + quote.length, bodyEnd: closed ? node.endIndex - quote.length : node.endIndex, basic: quote.startsWith('"'), key: keyOf(text, node) });
      }
      return { strings, errors: syntaxErrors(tree) };
    }),
  );
}

/** The last segment of the key a value belongs to (`env` of `tool.janitor.env = …`), through arrays and inline tables. */
function keyOf(text: string, node: SyntaxNode): string | null {
  let pair = node.parent;
  while (pair && pair.type !== 'pair') pair = pair.parent;
  let key = pair?.namedChildren[0] ?? null;
  while (key?.type === 'dotted_key') key = key.namedChildren[key.namedChildCount - 1] ?? null;
  if (!key) return null;
  const raw = text.slice(key.startIndex, key.endIndex);
  return key.type === 'quoted_key' ? raw.slice(1, -1) : raw;
}

export function scanToml(c: Collector, text: string): void {
  for (const s of tomlSyntax(text).strings) {
    if (!c.bases.legacy.some((b) => text.slice(s.bodyStart, s.bodyEnd).includes(b))) continue;
    const envVar = s.key && looksLikeEnvVar(s.key) ? s.key : null;
    const pieces = runs(text, s.bodyStart, s.bodyEnd, s.start, s.basic ? backslash : none).map((p) => (p.kind === 'text' && envVar ? { ...p, origin: { ...p.origin, envVar } } : p));
    planValue(c, pieces, { anchor: s.start });
  }
  if (mentionsGraphql(text)) scanGraphql(c, text, 0, text.length);
}
