#!/usr/bin/env node
// Thin launcher: the CLI is TypeScript built to dist/ by `npm run build` (run by `npm ci`).
// What a run of this folder asks git first starts now, while the CLI's modules load (src/run/early-run.ts).
import { startRunEarly } from '../dist/lib/early-run.js';

startRunEarly(process.cwd());
const { main } = await import('../dist/lib/cli.js');

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Once the output is out, exit now: a natural exit first waits for the JIT's background work and
    // frees the whole heap (~20-30 ms after a dry run). Not while stdout or stderr still hold data
    // (pipes are asynchronous on Windows); every file write of the tool is synchronous.
    if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit();
  },
  (error) => {
    process.stderr.write(`v2-migrate: internal error: ${error?.stack ?? error}\n`);
    process.exitCode = 2;
  },
);
