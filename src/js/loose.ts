import type { NodePath } from './path.js';

/*
 * Untyped node and path aliases, kept only for src/rules (which is not typed yet): scope.ts
 * re-exports them under the names the rules import. The engine itself uses ast.ts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type N = any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type P = NodePath<any>;
