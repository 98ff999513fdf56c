import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The work tree root above `dir` (a folder holding `.git`), or null outside git. */
function workTreeRoot(dir: string, cache: Map<string, string | null>): string | null {
  const seen: string[] = [];
  let cur = dir;
  for (;;) {
    if (cache.has(cur)) return remember(cache.get(cur)!);
    seen.push(cur);
    if (fs.existsSync(path.join(cur, '.git'))) return remember(cur);
    const parent = path.dirname(cur);
    if (parent === cur) return remember(null);
    cur = parent;
  }
  function remember(root: string | null): string | null {
    for (const d of seen) cache.set(d, root);
    return root;
  }
}

/**
 * Files among `files` with uncommitted changes (modified, staged or untracked) in their git work
 * tree. One `git status` per work tree (never a path list that could overflow the command line).
 * Files outside any work tree are never dirty. Throws when git cannot answer for a work tree, so a
 * write is refused rather than risked.
 */
export function dirtyFiles(files: readonly string[]): string[] {
  const roots = new Map<string, string | null>();
  const byRoot = new Map<string, string[]>();
  for (const file of files) {
    const root = workTreeRoot(path.dirname(file), roots);
    if (!root) continue;
    const list = byRoot.get(root);
    if (list) list.push(file);
    else byRoot.set(root, [file]);
  }
  const dirty: string[] = [];
  for (const [root, group] of byRoot) {
    const r = spawnSync('git', ['status', '--porcelain', '-z', '--untracked-files=all'], { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`cannot tell whether files in ${root} have uncommitted changes (git status failed: ${(r.stderr || r.error?.message || '').trim()})`);
    // Paths are relative to the repository's top level, which may be above `root` for a submodule-free work tree.
    const top = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: root, encoding: 'utf8' }).stdout.trim() || root;
    const listed = new Set<string>();
    const entries = r.stdout.split('\0');
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      if (e.length < 4) continue;
      listed.add(path.resolve(top, e.slice(3)));
      if (e[0] === 'R' || e[0] === 'C') i++; // renames carry the old path as the next entry
    }
    dirty.push(...group.filter((f) => listed.has(path.resolve(f)) || listed.has(realpath(f))));
  }
  return dirty;
}

function realpath(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}
