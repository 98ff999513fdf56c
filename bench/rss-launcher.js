#!/usr/bin/env node
// Peak-RSS launcher for bench/run.js when GNU time is not available: runs bin/v2-migrate.js itself in
// this process, and at exit writes process.resourceUsage().maxRSS (kilobytes; the whole process,
// worker threads included) to the file named by BENCH_RSS_FILE.
import fs from 'node:fs';

process.on('exit', () => {
  if (process.env.BENCH_RSS_FILE) fs.writeFileSync(process.env.BENCH_RSS_FILE, `${process.resourceUsage().maxRSS}\n`);
});

await import('../bin/v2-migrate.js');
