import fs from 'node:fs';

const CHUNK = 1 << 20;
let shared: Buffer | null = null;

/**
 * Read many files, handing each to `fn` as bytes; `null` for a file that cannot be read. Files up to
 * 1 MB are read into one reused buffer, so a scan over a large tree allocates nothing per file: the
 * bytes are only valid during the call (copy them, or decode them to a string, to keep them).
 */
export function readEach(files: readonly string[], fn: (file: string, bytes: Buffer | null) => void): void {
  shared ??= Buffer.allocUnsafe(CHUNK);
  for (const file of files) {
    let bytes: Buffer | null = null;
    let fd: number | null = null;
    try {
      fd = fs.openSync(file, 'r');
      // One read into the shared buffer: a regular file gives all it has up to the buffer's size (a
      // short read is its end); a file that fills the buffer is read again whole.
      const n = fs.readSync(fd, shared, 0, CHUNK, 0);
      bytes = n < CHUNK ? shared.subarray(0, n) : fs.readFileSync(file);
    } catch {
      bytes = null;
    } finally {
      if (fd !== null) fs.closeSync(fd);
    }
    fn(file, bytes);
  }
}
