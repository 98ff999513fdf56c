import type { Bases } from '../url/shape.js';

/**
 * Cheap text test derived from the configured bases: a file that mentions none of their hosts cannot
 * contain anything to migrate or report, so it is never parsed.
 */
export function makePrefilter(bases: Bases): (text: string) => boolean {
  const needles = [...new Set([...bases.legacy, bases.target].map((u) => new URL(u).host))];
  return (text) => needles.some((n) => text.includes(n));
}
