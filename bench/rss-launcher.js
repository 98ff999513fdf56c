#!/usr/bin/env node
// Peak-RSS launcher for bench/run.js when GNU time is not available: runs the built CLI in this
// process exactly as bin/v2-migrate.js does, and at exit writes process.resourceUsage().maxRSS
// (kilobytes; the whole process, worker threads included) to the file named by BENCH_RSS_FILE.
import fs from 'node:fs';
import { main } from '../dist/src/cli.js';

process.on('exit', () => {
  if (process.env.BENCH_RSS_FILE) fs.writeFileSync(process.env.BENCH_RSS_FILE, `${process.resourceUsage().maxRSS}\n`);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`v2-migrate: internal error: ${error?.stack ?? error}\n`);
    process.exitCode = 2;
  },
);
