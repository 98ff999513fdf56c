import { isUtf16 } from './files.js';
import { specifiersInBytes } from './imports.js';
import { READ_BUFFER_BYTES, readInto } from './read.js';
import { isJsFile } from '../scan/kinds.js';

/** States of a file's slot in a screen's shared array: free, being screened, then its answer. */
export const FREE = 0;
export const CLAIMED = 1;
export const NOTHING = 2;
export const UNREADABLE = 3;
export const LOOK = 4;
/** Waiting for git grep's answer (Screen.hold): no thread claims it. */
export const HELD = 5;

/** One read buffer per thread (this module is loaded once in each), reused by every screening. */
let screenBuffer: Buffer | null = null;

/**
 * Where a screen puts the import specifiers of the JS/TS files it reads once some JS/TS file held a
 * trigger (a run with files to migrate builds its import graph from them instead of reading every
 * file again; a run with none, even where a README mentions RunPod, never pays for them). `matched`
 * is shared by the threads screening.
 */
export interface SpecifierSink {
  /** Needles of which a JS/TS file holding one makes the run build its import graph (a RunPod host, a declared wrapper's call). */
  triggers: readonly Buffer[];
  /** Set once a JS/TS file held a trigger. */
  matched: Int32Array;
  put(slot: number, specifiers: string[]): void;
  /** Files this thread screened before any file matched (`backfill` reads the JS/TS ones again once one has). */
  missed: number[];
}

/** A sink for `triggers`, sharing `matched` with the other thread screening. */
export function specifierSink(triggers: readonly string[], matched: SharedArrayBuffer, put: SpecifierSink['put']): SpecifierSink {
  return { triggers: triggers.map((t) => Buffer.from(t, 'latin1')), matched: new Int32Array(matched), put, missed: [] };
}

/** Once some file matched, the specifiers of the files a thread screened before, read again. */
export function backfill(files: readonly string[], sink: SpecifierSink): void {
  if (!Atomics.load(sink.matched, 0) || !sink.missed.length) return;
  const buffer = (screenBuffer ??= Buffer.allocUnsafe(READ_BUFFER_BYTES));
  for (const slot of sink.missed.splice(0)) {
    if (!isJsFile(files[slot]!)) continue;
    try {
      sink.put(slot, specifiersInBytes(readInto(files[slot]!, buffer)));
    } catch {
      // Unreadable now: the import graph tries it again.
    }
  }
}

/**
 * Screen the files of `slots` (indexes into `codes`) that no other thread has claimed: each slot goes
 * FREE → CLAIMED → its answer, so two threads working through the same files never screen one twice.
 * Shared by the main thread and the screen worker.
 */
export function screenSlots(files: readonly string[], slots: Iterable<number>, needles: readonly Buffer[], codes: Uint8Array, sink: SpecifierSink): void {
  const buffer = (screenBuffer ??= Buffer.allocUnsafe(READ_BUFFER_BYTES));
  for (const slot of slots) {
    if (Atomics.compareExchange(codes, slot, FREE, CLAIMED) !== FREE) continue;
    const file = files[slot]!;
    let bytes: Buffer;
    try {
      bytes = readInto(file, buffer);
    } catch {
      Atomics.store(codes, slot, UNREADABLE);
      continue;
    }
    // NOTHING when a file holds none of the needles and is not UTF-16 (whose bytes the needles cannot match).
    const code = isUtf16(bytes) || needles.some((needle) => bytes.includes(needle)) ? LOOK : NOTHING;
    if (code === LOOK && !Atomics.load(sink.matched, 0) && sink.triggers.some((t) => bytes.includes(t)) && isJsFile(file)) Atomics.store(sink.matched, 0, 1);
    if (!Atomics.load(sink.matched, 0)) sink.missed.push(slot);
    else if (isJsFile(file)) sink.put(slot, specifiersInBytes(bytes));
    Atomics.store(codes, slot, code);
  }
}
