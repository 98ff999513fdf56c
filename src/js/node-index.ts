import type { Parsed } from './parse.js';
import type { N, P } from './loose.js';
import { pathsMatching } from './walk.js';

/** The paths the engine starts from in one parsed file, found in a single walk. */
export interface NodeIndex {
  /** Calls, optional calls included. */
  calls: P[];
  news: P[];
  strings: P[];
  templates: P[];
  /** `a + b` expressions (string concatenation candidates). */
  concats: P[];
  jsxTexts: P[];
  /** The path of a string literal or template quasi node of this file. */
  literalPath(node: N): P | null;
}

const INDEXED = new Set(['CallExpression', 'OptionalCallExpression', 'NewExpression', 'StringLiteral', 'TemplateLiteral', 'BinaryExpression', 'JSXText']);
const indexes = new WeakMap<Parsed, NodeIndex>();

export function nodeIndex(parsed: Parsed): NodeIndex {
  let index = indexes.get(parsed);
  if (index) return index;
  const built: NodeIndex = { calls: [], news: [], strings: [], templates: [], concats: [], jsxTexts: [], literalPath: () => null };
  for (const p of pathsMatching(parsed.root, (n) => INDEXED.has(n.type) && (n.type !== 'BinaryExpression' || n.operator === '+'))) {
    const type = p.node.type;
    if (type === 'CallExpression' || type === 'OptionalCallExpression') built.calls.push(p);
    else if (type === 'NewExpression') built.news.push(p);
    else if (type === 'StringLiteral') built.strings.push(p);
    else if (type === 'TemplateLiteral') built.templates.push(p);
    else if (type === 'BinaryExpression') built.concats.push(p);
    else built.jsxTexts.push(p);
  }
  let byNode: Map<N, P> | null = null;
  built.literalPath = (node) => {
    if (!byNode) {
      byNode = new Map(built.strings.map((p) => [p.node, p]));
      for (const t of built.templates) t.node.quasis.forEach((q: N, i: number) => byNode!.set(q, t.get('quasis', i)));
    }
    return byNode.get(node) ?? null;
  };
  indexes.set(parsed, (index = built));
  return index;
}
