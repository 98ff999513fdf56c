const BOM = '\uFEFF';
const utf8 = new TextDecoder('utf-8', { fatal: true });

export type Decoded = { kind: 'text'; text: string; bom: boolean } | { kind: 'binary' } | { kind: 'not-utf8' };

/** Decode a file's bytes; binary and non-UTF-8 files are never turned into text we might write back. */
export function decode(bytes: Uint8Array): Decoded {
  if (isUtf16(bytes)) return { kind: 'not-utf8' };
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

/** A UTF-16 byte-order mark (PowerShell's `>` writes such files). */
export function isUtf16(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/** Text for the prefilter and the inventory: never fails, whatever the bytes (UTF-16 decoded as such). */
export function lenientText(bytes: Buffer): string {
  if (!isUtf16(bytes)) return bytes.toString('latin1');
  return new TextDecoder(bytes[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(bytes);
}

export function encode(text: string, bom: boolean): Buffer {
  return Buffer.from(bom ? BOM + text : text, 'utf8');
}
