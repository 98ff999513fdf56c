import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ComponentOutcome, ComponentTask } from './component.js';

/** Bumped when what a cache file holds changes shape (v2: a group's outcome, not only its results). */
const FORMAT = 2;

/**
 * Results of analysed components on disk, keyed by tool version, settings and the exact content of
 * every file in the component: a repeated run over an unchanged tree reads results instead of parsing.
 */
export class ResultCache {
  constructor(
    readonly dir: string,
    private readonly salt: string,
  ) {}

  key(task: ComponentTask): string {
    const h = createHash('sha256').update(`${this.salt}\0${FORMAT}\0`).update(JSON.stringify(task.options));
    for (const input of task.inputs) h.update(input.shared ? '\0shared\0' : '\0').update(input.file).update('\0').update(input.source);
    return h.digest('hex');
  }

  get(task: ComponentTask): ComponentOutcome | null {
    try {
      return JSON.parse(fs.readFileSync(path.join(this.dir, `${this.key(task)}.json`), 'utf8')) as ComponentOutcome;
    } catch {
      return null;
    }
  }

  set(task: ComponentTask, result: ComponentOutcome): void {
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      const file = path.join(this.dir, `${this.key(task)}.json`);
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(result));
      fs.renameSync(tmp, file);
    } catch {
      // A cache that cannot be written only costs speed.
    }
  }
}

/** Default cache folder: node_modules/.cache/v2-migrate when node_modules exists, else .v2-migrate-cache. */
export function defaultCacheDir(cwd: string): string {
  return fs.existsSync(path.join(cwd, 'node_modules')) ? path.join(cwd, 'node_modules', '.cache', 'v2-migrate') : path.join(cwd, '.v2-migrate-cache');
}
