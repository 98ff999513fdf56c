import type { Bases } from '../url/shape.js';

/**
 * Cheap text test derived from the configured bases: a file that mentions none of their hosts cannot
 * contain anything to migrate or report, so it is never parsed.
 */
export function makePrefilter(bases: Bases): (text: string) => boolean {
  const needles = prefilterNeedles(bases);
  return (text) => needles.some((n) => text.includes(n));
}

export function prefilterNeedles(bases: Bases): string[] {
  return [...new Set([...bases.legacy, bases.target].map((u) => new URL(u).host))];
}

/** Bytes that mark a mention of RunPod at all (for the inventory), in either case. */
export const MENTION_NEEDLES: readonly string[] = ['unpod', 'UNPOD'];

/** The same test on raw bytes (ASCII needles): no string is made for the many files that cannot matter. */
export function bytesContainAny(needles: readonly string[]): (bytes: Buffer) => boolean {
  const encoded = needles.map((n) => Buffer.from(n, 'latin1'));
  return (bytes) => encoded.some((n) => bytes.includes(n));
}
