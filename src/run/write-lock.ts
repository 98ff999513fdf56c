import fs from 'node:fs';
import path from 'node:path';
import { git } from './git-command.js';
import { errnoCode, guardWrite, treePlace, WriteRefused } from './write-guard.js';

/** A lock this process holds: `release` removes it (only while it still names this process). */
export interface HeldLock {
  kind: 'held';
  file: string;
  release(): void;
}

/** The lock is another run's: `pid` (null: the file is not a lock v2-migrate wrote). */
export interface LockedOut {
  kind: 'locked-out';
  file: string;
  pid: number | null;
}

/**
 * Where a work tree's lock goes: in its git folder, as git's own index.lock (never an untracked file
 * in the tree, and never one a repository can commit), else in the root (outside git, or when git
 * cannot say where its folder is).
 */
export function lockFileFor(root: string): string {
  const inRoot = path.join(root, '.v2-migrate.lock');
  if (!fs.existsSync(path.join(root, '.git'))) return inRoot;
  const r = git(['rev-parse', '--absolute-git-dir'], root);
  const gitDir = r.status === 0 ? r.stdout.trim() : '';
  return gitDir ? path.join(gitDir, 'v2-migrate.lock') : inRoot;
}

/**
 * Take the lock a run holds while it writes or recovers files: a file created exclusively that holds
 * this process's pid. A lock whose pid is gone (a run killed) is stale: it is removed and taken. A
 * lock held by a live process, or a file by that name the tool did not write, locks this run out.
 * Hand-written rather than proper-lockfile or lockfile: they tell a stale lock by its age (kept fresh
 * by a timer, which a synchronous write starves), where the owner's pid says it exactly.
 */
export function takeWriteLock(file: string): HeldLock | LockedOut {
  guardWrite(file, treePlace(path.dirname(file)));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      const release = (): void => {
        if (ownerOf(file) === process.pid) fs.rmSync(file, { force: true });
      };
      return { kind: 'held', file, release };
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw new WriteRefused(`${file}: the write lock cannot be created (${errnoCode(error) ?? String(error)})`);
    }
    const pid = ownerOf(file);
    if (pid === null || isAlive(pid)) return { kind: 'locked-out', file, pid };
    // Read again just before: a run that took the stale lock over in between keeps it.
    if (ownerOf(file) === pid) fs.rmSync(file, { force: true });
  }
  return { kind: 'locked-out', file, pid: ownerOf(file) };
}

/** The pid a lock file holds; null when it is not a regular file holding one. */
function ownerOf(file: string): number | null {
  try {
    if (!fs.lstatSync(file).isFile()) return null;
    const pid = /^(\d+)\n$/.exec(fs.readFileSync(file, 'utf8'))?.[1];
    return pid ? Number(pid) : null;
  } catch {
    return null;
  }
}

/** Whether a process with this pid runs (EPERM: it does, as another user). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === 'EPERM';
  }
}
