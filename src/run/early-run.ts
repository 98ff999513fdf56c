import fs from 'node:fs';
import path from 'node:path';
import { LEGACY_BASE_URL, TARGET_BASE_URL } from '../map/hosts.js';
import { grepCommand } from '../scan/git-grep.js';
import { listingCommands } from '../scan/git-files.js';
import { screenNeedlesFor } from '../scan/prefilter.js';
import { NEVER_SCANNED_DIRS } from '../scan/skipped-dirs.js';
import { startEarly } from './git-process.js';

/**
 * Starts what a run of the current folder asks git first, before the CLI's modules load
 * (bin/v2-migrate.js): when the folder is a git work tree's root, its listing and the search of its
 * tracked files for the default needles. Loading the CLI costs ~60 ms of every start, and git spends
 * them on its own cores. A run that asks the same (a run of `.` with the default bases) takes them
 * over (git-process.ts); anything else asks its own, and these are killed once discovery is done.
 */
export function startRunEarly(cwd: string): void {
  if (!fs.existsSync(path.join(cwd, '.git'))) return;
  for (const { args, input } of earlyCommands()) startEarly(args, cwd, input);
}

/** What startRunEarly asks git: the listing's two questions, and the search for a run with the default bases and no declared wrappers. */
export function earlyCommands(): Array<{ args: string[]; input?: Buffer }> {
  const { index, others } = listingCommands(NEVER_SCANNED_DIRS);
  return [{ args: index }, { args: others }, grepCommand(screenNeedlesFor({ legacy: [LEGACY_BASE_URL], target: TARGET_BASE_URL }, []))];
}
