import fs from 'node:fs';

/** States of a file's slot in a screen's shared array: free, being screened, then its answer. */
export const FREE = 0;
export const CLAIMED = 1;
export const NOTHING = 2;
export const UNREADABLE = 3;
export const LOOK = 4;

const BUFFER_BYTES = 1 << 20;

/**
 * Screen the files of `slots` (indexes into `codes`) that no other thread has claimed: each slot goes
 * FREE → CLAIMED → its answer, so two threads working through the same files never screen one twice.
 * Shared by the main thread and the screen worker.
 */
export function screenSlots(files: readonly string[], slots: Iterable<number>, needles: readonly Buffer[], codes: Uint8Array, buffer = Buffer.allocUnsafe(BUFFER_BYTES)): void {
  for (const slot of slots) {
    if (Atomics.compareExchange(codes, slot, FREE, CLAIMED) !== FREE) continue;
    Atomics.store(codes, slot, screenFile(files[slot]!, needles, buffer));
  }
}

/**
 * NOTHING when a file holds none of the needles and is not UTF-16 (whose bytes the needles cannot
 * match), LOOK otherwise, UNREADABLE when it cannot be read. Files up to 1 MB are read into one reused
 * buffer with one read (a short read is the end of a regular file).
 */
function screenFile(file: string, needles: readonly Buffer[], buffer: Buffer): number {
  let fd: number | null = null;
  try {
    fd = fs.openSync(file, 'r');
    const n = fs.readSync(fd, buffer, 0, BUFFER_BYTES, 0);
    const bytes = n < BUFFER_BYTES ? buffer.subarray(0, n) : fs.readFileSync(file);
    if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return LOOK;
    return needles.some((needle) => bytes.includes(needle)) ? LOOK : NOTHING;
  } catch {
    return UNREADABLE;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}
