import { createHash } from 'node:crypto';
import path from 'node:path';
import { onDisk, type HasEntry } from '../util/folders.js';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export function parseShard(value: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) throw new Error(`--shard must be i/n with 1 ≤ i ≤ n (got "${value}")`);
  return { index, count };
}

/** The folder of the nearest package.json above a file (its package), or the file's own folder. */
export function packageOf(file: string, stopAt: string, cache = new Map<string, string>(), has: HasEntry = onDisk): string {
  const start = path.dirname(file);
  const seen: string[] = [];
  let dir = start;
  for (;;) {
    const hit = cache.get(dir);
    if (hit) return remember(hit);
    seen.push(dir);
    if (has(dir, 'package.json')) return remember(dir);
    const parent = path.dirname(dir);
    if (dir === stopAt || parent === dir) return remember(start);
    dir = parent;
  }
  function remember(pkg: string): string {
    for (const d of seen) cache.set(d, pkg);
    return pkg;
  }
}

/**
 * Deterministic, package-aware split: every file of a package goes to the same shard (so a wrapper
 * and its call sites are analysed together), packages spread by a hash of their path relative to
 * `root`. n runners with shards 1/n … n/n cover every file exactly once.
 */
export function inShard(pkgDir: string, root: string, shard: Shard): boolean {
  const key = path.relative(root, pkgDir).split(path.sep).join('/');
  const h = createHash('sha1').update(key).digest().readUInt32BE(0);
  return h % shard.count === shard.index - 1;
}
