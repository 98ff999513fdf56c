import fs from 'node:fs';

/** Files up to this size are read into a caller's reused buffer. */
export const READ_BUFFER_BYTES = 1 << 20;

/**
 * A file's bytes, with one read into `buffer` (a short read is the end of a regular file); a file
 * that fills the buffer is read again whole. The bytes are only valid until the buffer is reused.
 * Throws when the file cannot be read.
 */
export function readInto(file: string, buffer: Buffer): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const n = fs.readSync(fd, buffer, 0, buffer.length, 0);
    return n < buffer.length ? buffer.subarray(0, n) : fs.readFileSync(file);
  } finally {
    fs.closeSync(fd);
  }
}

let shared: Buffer | null = null;

/**
 * Read many files, handing each to `fn` as bytes; `null` for a file that cannot be read. One reused
 * buffer serves every file, so a scan over a large tree allocates nothing per file: the bytes are
 * only valid during the call (copy them, or decode them to a string, to keep them).
 */
export function readEach(files: readonly string[], fn: (file: string, bytes: Buffer | null) => void): void {
  shared ??= Buffer.allocUnsafe(READ_BUFFER_BYTES);
  for (const file of files) {
    let bytes: Buffer | null;
    try {
      bytes = readInto(file, shared);
    } catch {
      bytes = null;
    }
    fn(file, bytes);
  }
}
