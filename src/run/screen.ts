import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { LOOK, NOTHING, screenClaims, screenFile } from './screen-core.js';

/** Handed to `fn` for a file that holds none of the needles: nothing in it can matter. */
export const NO_MATCH: Buffer = Buffer.alloc(0);

/** Below this many files a second thread costs more than it saves (tests lower it to exercise it). */
const WORKER_MIN_FILES = Number(process.env.V2_MIGRATE_SCREEN_THRESHOLD ?? 4000);
const WORKER_URL = new URL('./screen-worker.js', import.meta.url);

/**
 * Test many files for a few ASCII needles, then hand each to `fn` in order: `null` when it cannot be
 * read, NO_MATCH when it holds none of the needles (and is not UTF-16), its bytes otherwise (valid
 * during the call only). Opening and reading every file of a large tree is most of a lint that finds
 * nothing, so with `jobs` > 1 a worker thread screens alongside this one, both claiming files from a
 * shared counter; the answers, and so `fn`'s calls, do not depend on who screened what.
 */
export async function screenEach(files: readonly string[], needles: readonly string[], fn: (file: string, bytes: Buffer | null) => void, jobs = 1): Promise<void> {
  const codes = new Uint8Array(new SharedArrayBuffer(Math.max(files.length, 1)));
  const next = new Int32Array(new SharedArrayBuffer(4));
  const worker = jobs > 1 && files.length >= WORKER_MIN_FILES && fs.existsSync(fileURLToPath(WORKER_URL)) ? startWorker(files, needles, codes, next) : null;
  const encoded = needles.map((n) => Buffer.from(n, 'latin1'));
  screenClaims(files, encoded, codes, next);
  if (worker) await worker.finished(() => codes.every((c) => c !== 0));
  // Whatever a failed worker left unscreened is screened here.
  for (let i = 0; i < files.length; i++) if (codes[i] === 0) codes[i] = screenFile(files[i]!, encoded);
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    if (codes[i] === NOTHING) fn(file, NO_MATCH);
    else if (codes[i] !== LOOK) fn(file, null);
    else {
      let bytes: Buffer | null;
      try {
        bytes = fs.readFileSync(file);
      } catch {
        bytes = null;
      }
      fn(file, bytes);
    }
  }
}

/**
 * A screen worker. `finished(done)` resolves at once when `done()` says every file is screened (the
 * worker may not even have started), else when the worker has screened its last claim or failed.
 */
function startWorker(files: readonly string[], needles: readonly string[], codes: Uint8Array, next: Int32Array): { finished: (done: () => boolean) => Promise<void> } {
  const worker = new Worker(WORKER_URL, { workerData: { files, needles, codes: codes.buffer, next: next.buffer } });
  const ended = new Promise<void>((resolve) => {
    worker.once('message', () => resolve());
    worker.once('error', () => resolve());
    worker.once('exit', () => resolve());
  });
  return {
    finished: async (done) => {
      if (!done()) await ended;
      void worker.terminate();
    },
  };
}
