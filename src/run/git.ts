import fs from 'node:fs';
import path from 'node:path';
import { workTreeRoot } from '../util/folders.js';
import { pushTo } from '../util/multimap.js';
import { firstLine, git, gitMissing, GitError } from './git-command.js';

/**
 * Files among `files` with uncommitted changes (modified, staged or untracked) in their git work
 * tree. One `git status` per work tree (never a path list that could overflow the command line).
 * Files outside any work tree are never dirty. Throws a GitError when git cannot answer for a work
 * tree (none on PATH, a repository it refuses), so a write is refused rather than risked.
 */
export function dirtyFiles(files: readonly string[]): string[] {
  const roots = new Map<string, string | null>();
  const byRoot = new Map<string, string[]>();
  for (const file of files) {
    const root = workTreeRoot(path.dirname(file), roots);
    if (root) pushTo(byRoot, root, file);
  }
  const dirty: string[] = [];
  for (const [root, group] of byRoot) {
    const r = git(['status', '--porcelain', '-z', '--untracked-files=all'], root);
    if (gitMissing(r)) throw new GitError('refusing to rewrite files in a git work tree: git is not on PATH, so v2-migrate cannot tell which have uncommitted changes (install git, or pass --allow-dirty)');
    if (r.status !== 0) throw new GitError(`refusing to rewrite files in ${root}: git status failed (${firstLine(r.stderr) || r.error?.message || 'no answer'}), so v2-migrate cannot tell which have uncommitted changes (pass --allow-dirty to rewrite them anyway)`);
    // Paths are relative to the repository's top level, which may be above `root` for a submodule-free work tree.
    const top = git(['rev-parse', '--show-toplevel'], root).stdout.trim() || root;
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
