// worker_threads entry: screens the batches of files the main thread posts (see screen.ts),
// slot by slot in the shared array. Loads only Node built-ins and small helpers.
import { parentPort, workerData } from 'node:worker_threads';
import { backfill, screenSlots, specifierSink } from './screen-core.js';
import { encodeNeedles } from '../scan/prefilter.js';

const { needles, triggers, codes, matched } = workerData as { needles: string[]; triggers: string[]; codes: SharedArrayBuffer; matched: SharedArrayBuffer };
const encoded = encodeNeedles(needles);
const slots = new Uint8Array(codes);
const files: string[] = [];
// Each batch is answered with the specifiers collected while screening it (see SpecifierSink).
let specifiers: Array<[number, string[]]> = [];
const sink = specifierSink(triggers, matched, (slot, s) => void specifiers.push([slot, s]));
parentPort!.on('message', (batch: string[]) => {
  const start = files.length;
  files.push(...batch);
  screenSlots(files, Array.from(batch, (_, i) => start + i), encoded, slots, sink);
  backfill(files, sink);
  parentPort!.postMessage(specifiers);
  specifiers = [];
});
