import type { N, P } from './ast.js';
import { lineStart } from './edits.js';
import { pathsMatching } from './walk.js';

const isStatement = (n: N): boolean => /Statement|Declaration$/.test(n.type);

/**
 * The innermost statement around [start, end) that begins its line (only indentation before it), or
 * null: a comment line can go right above it without landing inside an expression, a string or JSX text.
 */
export function statementStartingLine(root: P, source: string, start: number, end: number): N | null {
  const around = pathsMatching(root, (n) => isStatement(n) && n.start! <= start && n.end! >= end);
  // Source order puts outer statements first: the innermost that begins its line is the last such one.
  for (let i = around.length - 1; i >= 0; i--) {
    const n = around[i]!.node;
    if (/^[ \t]*$/.test(source.slice(lineStart(source, n.start!), n.start!))) return n;
  }
  return null;
}
