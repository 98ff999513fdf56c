import { spawnSync } from 'node:child_process';
import path from 'node:path';

function git(cwd: string, args: string[]): { ok: boolean; out: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  return { ok: r.status === 0, out: r.stdout ?? '' };
}

/**
 * Files among `files` with uncommitted changes (modified, staged or untracked) in their git work
 * tree. Files outside any work tree are never dirty.
 */
export function dirtyFiles(files: readonly string[]): string[] {
  const byRoot = new Map<string, string[]>();
  const rootOf = new Map<string, string | null>();
  for (const file of files) {
    const dir = path.dirname(file);
    if (!rootOf.has(dir)) {
      const r = git(dir, ['rev-parse', '--show-toplevel']);
      rootOf.set(dir, r.ok ? r.out.trim() : null);
    }
    const root = rootOf.get(dir);
    if (root) byRoot.set(root, [...(byRoot.get(root) ?? []), file]);
  }
  const dirty: string[] = [];
  for (const [root, group] of byRoot) {
    const r = git(root, ['status', '--porcelain', '-z', '--untracked-files=all', '--', ...group]);
    if (!r.ok) continue;
    const listed = new Set(
      r.out
        .split('\0')
        .filter((e) => e.length > 3)
        .map((e) => path.resolve(root, e.slice(3))),
    );
    dirty.push(...group.filter((f) => listed.has(path.resolve(f))));
  }
  return dirty;
}
