#!/usr/bin/env node
// Thin launcher: the CLI is TypeScript built to dist/ by `npm run build` (run by `npm ci`).
import { main } from '../dist/cli/cli.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`v2-migrate: internal error: ${error?.stack ?? error}\n`);
    process.exitCode = 2;
  },
);
