import type * as t from '@babel/types';
import type { NodePath } from './path.js';

/**
 * The engine's node and path types: Babel's (type-only, from @babel/types), so a test of
 * `node.type` narrows the node and a misspelt type name is a compile error.
 */
export type N = t.Node;
/** A path whose node is a T (any node unless said). */
export type P<T extends t.Node = t.Node> = NodePath<T>;
/** What a request is made by: a call (optional ones too) or `new`. */
export type CallLike = t.CallExpression | t.OptionalCallExpression | t.NewExpression;
/**
 * A value in a .env file, standing in for a string literal (project.ts): URL pieces can come from
 * it, so code that handles literal nodes tests for it first. Paths to it have no parent.
 */
export interface EnvValueNode {
  type: 'EnvValue';
  name: string;
  start: number;
  end: number;
  value: string;
  loc: { start: { line: number; column: number }; filename: string };
}
export type { t };
