import type { Parsed } from './parsed.js';
import type { N, P, t } from './ast.js';
import { pathsMatching } from './walk.js';

/** The paths the engine starts from in one parsed file, found in a single walk. */
export interface NodeIndex {
  /** Calls, optional calls included. */
  calls: Array<P<t.CallExpression | t.OptionalCallExpression>>;
  news: Array<P<t.NewExpression>>;
  strings: Array<P<t.StringLiteral>>;
  templates: Array<P<t.TemplateLiteral>>;
  /** `a + b` expressions (string concatenation candidates). */
  concats: Array<P<t.BinaryExpression>>;
  jsxTexts: Array<P<t.JSXText>>;
  /** The path of a string literal or template quasi node of this file. */
  literalPath(node: N): P | null;
}

const INDEXED = new Set<N['type']>(['CallExpression', 'OptionalCallExpression', 'NewExpression', 'StringLiteral', 'TemplateLiteral', 'BinaryExpression', 'JSXText']);
const indexes = new WeakMap<Parsed, NodeIndex>();

export function nodeIndex(parsed: Parsed): NodeIndex {
  let index = indexes.get(parsed);
  if (index) return index;
  const built: NodeIndex = { calls: [], news: [], strings: [], templates: [], concats: [], jsxTexts: [], literalPath: () => null };
  for (const p of pathsMatching(parsed.root, (n) => INDEXED.has(n.type) && (n.type !== 'BinaryExpression' || n.operator === '+'))) {
    // Each path goes to the list of its node's type (the casts say what the test of `type` found).
    const type = p.node.type;
    if (type === 'CallExpression' || type === 'OptionalCallExpression') built.calls.push(p as P<t.CallExpression | t.OptionalCallExpression>);
    else if (type === 'NewExpression') built.news.push(p as P<t.NewExpression>);
    else if (type === 'StringLiteral') built.strings.push(p as P<t.StringLiteral>);
    else if (type === 'TemplateLiteral') built.templates.push(p as P<t.TemplateLiteral>);
    else if (type === 'BinaryExpression') built.concats.push(p as P<t.BinaryExpression>);
    else built.jsxTexts.push(p as P<t.JSXText>);
  }
  let byNode: Map<N, P> | null = null;
  built.literalPath = (node) => {
    if (!byNode) {
      byNode = new Map(built.strings.map((p) => [p.node, p]));
      for (const tl of built.templates) tl.node.quasis.forEach((q, i) => byNode!.set(q, tl.get('quasis', i)));
    }
    return byNode.get(node) ?? null;
  };
  indexes.set(parsed, (index = built));
  return index;
}
