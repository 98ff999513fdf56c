import fs from 'node:fs';
import path from 'node:path';

const BOM = '\uFEFF';
const utf8 = new TextDecoder('utf-8', { fatal: true });

export type Decoded = { kind: 'text'; text: string; bom: boolean } | { kind: 'binary' } | { kind: 'not-utf8' };

/** Decode a file's bytes; binary and non-UTF-8 files are never turned into text we might write back. */
export function decode(bytes: Uint8Array): Decoded {
  if (bytes.subarray(0, 8000).includes(0)) return { kind: 'binary' };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { kind: 'not-utf8' };
  }
  // TextDecoder drops a leading BOM; remember it so it is written back.
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return { kind: 'text', text: text.startsWith(BOM) ? text.slice(1) : text, bom };
}

export function encode(text: string, bom: boolean): Buffer {
  return Buffer.from(bom ? BOM + text : text, 'utf8');
}

/** Write via a temporary file in the same folder and rename over the original (same mode). */
export function writeAtomic(file: string, data: Buffer): void {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.v2-migrate-${process.pid}.tmp`);
  const mode = fs.statSync(file).mode;
  try {
    fs.writeFileSync(tmp, data, { mode });
    fs.renameSync(tmp, file);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
}
