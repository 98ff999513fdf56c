import { isUtf16 } from './files.js';
import { READ_BUFFER_BYTES, readInto } from './read.js';

/** States of a file's slot in a screen's shared array: free, being screened, then its answer. */
export const FREE = 0;
export const CLAIMED = 1;
export const NOTHING = 2;
export const UNREADABLE = 3;
export const LOOK = 4;

/** One read buffer per thread (this module is loaded once in each), reused by every screening. */
let screenBuffer: Buffer | null = null;

/**
 * Screen the files of `slots` (indexes into `codes`) that no other thread has claimed: each slot goes
 * FREE → CLAIMED → its answer, so two threads working through the same files never screen one twice.
 * Shared by the main thread and the screen worker.
 */
export function screenSlots(files: readonly string[], slots: Iterable<number>, needles: readonly Buffer[], codes: Uint8Array): void {
  const buffer = (screenBuffer ??= Buffer.allocUnsafe(READ_BUFFER_BYTES));
  for (const slot of slots) {
    if (Atomics.compareExchange(codes, slot, FREE, CLAIMED) !== FREE) continue;
    Atomics.store(codes, slot, screenFile(files[slot]!, needles, buffer));
  }
}

/**
 * NOTHING when a file holds none of the needles and is not UTF-16 (whose bytes the needles cannot
 * match), LOOK otherwise, UNREADABLE when it cannot be read.
 */
function screenFile(file: string, needles: readonly Buffer[], buffer: Buffer): number {
  let bytes: Buffer;
  try {
    bytes = readInto(file, buffer);
  } catch {
    return UNREADABLE;
  }
  return isUtf16(bytes) || needles.some((needle) => bytes.includes(needle)) ? LOOK : NOTHING;
}
