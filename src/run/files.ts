import fs from 'node:fs';
import path from 'node:path';

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

let counter = 0;

/** A write the tool refuses: the reason is reported with the file, which stays as it was. */
function refuse(code: string, message: string): never {
  throw Object.assign(new Error(message), { code });
}

/**
 * Write via a temporary file in the same folder and rename over the original, keeping its mode and
 * (where the process may) its owner. Never through a symlink (its target may lie outside the tree the
 * user asked to change), never over a read-only file; a file with hard links is written in place after
 * the staged copy succeeded, so every link sees the new text. The temporary name is short, so a file
 * whose name is near the length limit can still be written. A file the run creates (a generated adapter
 * file) gets the default mode.
 */
export function writeAtomic(file: string, data: Buffer): void {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) refuse('ESYMLINK', 'a symbolic link: not written through (change its target by hand, or run on the target)');
  if (stat && (stat.mode & 0o222) === 0) refuse('EREADONLY', 'read-only: not written (make it writable to let v2-migrate change it)');
  const tmp = path.join(path.dirname(file), `.v2m-${process.pid}-${counter++}.tmp`);
  const mode = stat ? stat.mode & 0o7777 : 0o666 & ~process.umask();
  try {
    fs.writeFileSync(tmp, data, { mode });
    if (stat && stat.nlink > 1) {
      fs.writeFileSync(file, data);
      fs.rmSync(tmp, { force: true });
      return;
    }
    if (stat && typeof process.getuid === 'function' && (stat.uid !== process.getuid() || stat.gid !== process.getgid?.())) {
      try {
        fs.chownSync(tmp, stat.uid, stat.gid);
      } catch {
        // Only a privileged process may give a file away; otherwise the owner is the writer, as with any editor.
      }
    }
    fs.renameSync(tmp, file);
  } catch (error) {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // Nothing more to clean up: report the write error itself.
    }
    throw error;
  }
}
