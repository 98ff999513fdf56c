// worker_threads entry: screens the batches of files the main thread posts (see screen.ts),
// slot by slot in the shared array. Loads only Node built-ins and small helpers.
import { parentPort, workerData } from 'node:worker_threads';
import { screenSlots } from './screen-core.js';
import { encodeNeedles } from '../scan/prefilter.js';

const { needles, codes } = workerData as { needles: string[]; codes: SharedArrayBuffer };
const encoded = encodeNeedles(needles);
const slots = new Uint8Array(codes);
const files: string[] = [];
parentPort!.on('message', (batch: string[]) => {
  const start = files.length;
  files.push(...batch);
  screenSlots(files, Array.from(batch, (_, i) => start + i), encoded, slots);
});
