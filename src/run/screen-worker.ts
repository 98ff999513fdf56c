// worker_threads entry: screens files alongside the main thread (see screen.ts). Loads nothing else.
import { parentPort, workerData } from 'node:worker_threads';
import { screenClaims } from './screen-core.js';

const { files, needles, codes, next } = workerData as { files: string[]; needles: string[]; codes: SharedArrayBuffer; next: SharedArrayBuffer };
screenClaims(files, needles.map((n) => Buffer.from(n, 'latin1')), new Uint8Array(codes), new Int32Array(next));
parentPort!.postMessage('done');
