import fs from 'node:fs';

/** Per-file answers of a byte screen, in a shared array (0: not screened yet). */
export const NOTHING = 1;
export const UNREADABLE = 2;
export const LOOK = 3;

/** Files a thread claims at a time from the shared counter. */
export const CLAIM = 64;
const BUFFER_BYTES = 1 << 20;

/**
 * Screens the files this thread claims until none are left: NOTHING when a file holds none of the
 * needles and is not UTF-16 (whose bytes the needles cannot match), LOOK otherwise, UNREADABLE when
 * it cannot be read. Shared by the main thread and the screen worker. Files up to 1 MB are read
 * into one reused buffer, with one read (a short read is the end of a regular file).
 */
export function screenClaims(files: readonly string[], needles: readonly Buffer[], codes: Uint8Array, next: Int32Array, buffer = Buffer.allocUnsafe(BUFFER_BYTES)): void {
  for (let start = Atomics.add(next, 0, CLAIM); start < files.length; start = Atomics.add(next, 0, CLAIM)) {
    const end = Math.min(start + CLAIM, files.length);
    for (let i = start; i < end; i++) codes[i] = screenFile(files[i]!, needles, buffer);
  }
}

export function screenFile(file: string, needles: readonly Buffer[], buffer = Buffer.allocUnsafe(BUFFER_BYTES)): number {
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
