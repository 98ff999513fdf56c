import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ComponentResult, ComponentTask } from './component.js';

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
    const h = createHash('sha256').update(this.salt).update('\0').update(JSON.stringify(task.options));
    for (const input of task.inputs) h.update('\0').update(input.file).update('\0').update(input.source);
    return h.digest('hex');
  }

  get(task: ComponentTask): ComponentResult | null {
    try {
      return JSON.parse(fs.readFileSync(path.join(this.dir, `${this.key(task)}.json`), 'utf8')) as ComponentResult;
    } catch {
      return null;
    }
  }

  set(task: ComponentTask, result: ComponentResult): void {
    try {
      // Results hold file contents (.env values among them): readable by the owner only.
      fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const file = path.join(this.dir, `${this.key(task)}.json`);
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(result), { mode: 0o600 });
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
