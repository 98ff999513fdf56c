import type { CallLike, N, P } from './ast.js';

/**
 * Call frames for following values into wrappers: which arguments a function (keyed by its node)
 * was called with. One flat map per analysed call chain; a function appears at most once (no
 * recursion), which is what makes a flat map sufficient.
 */
export interface Frame {
  /** The call (or `new`) expression that invoked the function. */
  call: P<CallLike>;
  args: P[];
}
export type Ctx = ReadonlyMap<N, Frame>;

export const EMPTY_CTX: Ctx = new Map();

export function withFrame(ctx: Ctx, fnNode: N, frame: Frame): Ctx {
  const next = new Map(ctx);
  next.set(fnNode, frame);
  return next;
}
