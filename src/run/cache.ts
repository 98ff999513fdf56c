import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ComponentOutcome, ComponentTask } from './component.js';
import { diffLines } from 'diff';

/** Bumped when what a cache file holds changes shape (v2: a group's outcome, not only its results; v3: outputs as line diffs; v4: findings carry their fixes, results the markers parsed). */
const FORMAT = 4;

/**
 * A migrated text as it is stored: a line diff against the input, where kept and removed runs are
 * lengths and only inserted lines are text. The input is part of the key, so the output is rebuilt
 * exactly; the cache never holds a line of the source that the migration did not write.
 */
type StoredOutput = Array<number | [number] | string>;

function storeOutput(input: string, output: string): StoredOutput {
  return diffLines(input, output).map((c) => (c.added ? c.value : c.removed ? [c.value.length] : c.value.length));
}

function rebuildOutput(input: string, stored: StoredOutput): string {
  let at = 0;
  let out = '';
  for (const part of stored) {
    if (typeof part === 'string') out += part;
    else if (Array.isArray(part)) at += part[0];
    else {
      out += input.slice(at, at + part);
      at += part;
    }
  }
  return out;
}

/** What a cache folder holds: results (`<sha-256 of the key>.json`) and results being written (`….json.<pid>.tmp`). */
export const isCacheFileName = (name: string): boolean => /^[0-9a-f]{64}\.json(\.\d+\.tmp)?$/.test(name);

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
    let stored: ComponentOutcome;
    try {
      stored = JSON.parse(fs.readFileSync(path.join(this.dir, `${this.key(task)}.json`), 'utf8')) as ComponentOutcome;
    } catch {
      return null;
    }
    const sources = new Map(task.inputs.map((i) => [i.file, i.source]));
    const results = stored.results.map(([file, r]): ComponentOutcome['results'][number] => [file, r.output === null ? r : { ...r, output: rebuildOutput(sources.get(file) ?? '', r.output as unknown as StoredOutput) }]);
    return { ...stored, results };
  }

  set(task: ComponentTask, outcome: ComponentOutcome): void {
    try {
      // Findings quote code and diffs hold the written lines: readable by the owner only.
      fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const sources = new Map(task.inputs.map((i) => [i.file, i.source]));
      const results = outcome.results.map(([file, r]) => [file, r.output === null ? r : { ...r, output: storeOutput(sources.get(file) ?? '', r.output) }]);
      const stored = { ...outcome, results };
      const file = path.join(this.dir, `${this.key(task)}.json`);
      const tmp = `${file}.${process.pid}.tmp`;
      // Created afresh: never written through a link by that name.
      fs.writeFileSync(tmp, JSON.stringify(stored), { mode: 0o600, flag: 'wx' });
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
