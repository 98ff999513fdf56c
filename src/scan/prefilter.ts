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

/** Every needle a run's byte screen is asked for, .env-based ones aside: the bases' hosts, calls of declared wrappers (`name(`), mentions of RunPod. */
export const screenNeedlesFor = (bases: Bases, wrapperCalls: readonly string[]): string[] => [...prefilterNeedles(bases), ...wrapperCalls, ...MENTION_NEEDLES];

/** The same test on raw bytes (ASCII needles): no string is made for the many files that cannot matter. */
export function bytesContainAny(needles: readonly string[]): (bytes: Buffer) => boolean {
  const encoded = encodeNeedles(needles);
  return (bytes) => encoded.some((n) => bytes.includes(n));
}

/**
 * The needles to search bytes for, as bytes, without any that holds another (`rest.runpod.io` holds
 * `unpod`): that one is found wherever it is, so the answer is the same with one pass less over
 * every file that holds neither.
 */
export function encodeNeedles(needles: readonly string[]): Buffer[] {
  const unique = [...new Set(needles)];
  return unique.filter((n) => !unique.some((m) => m !== n && n.includes(m))).map((n) => Buffer.from(n, 'latin1'));
}
