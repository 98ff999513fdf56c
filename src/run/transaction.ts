import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { faultHook, type FaultHook } from './faults.js';
import { findJournal, fsyncFile, saveJournal, tempName, type Entry, type Journal } from './journal.js';
import { errnoCode, guardWrite, writeRefusal, WriteRefused, type WritePlace } from './write-guard.js';

/** One new file content; files with the same `group` are written together or not at all. */
export interface PendingWrite {
  file: string;
  data: Buffer;
  group: string;
}

/** A file of a group that was not written, and why (for a group mate: the file that held it). */
export interface WriteFailure {
  file: string;
  reason: string;
  /** Set for a file that could be written but is held with its group: the file that failed. */
  movesWith?: string;
}

export interface WriteOutcome {
  written: string[];
  failed: WriteFailure[];
}

const hash = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** A write the tool refuses: the reason is reported with the file, which stays as it was. */
function refuse(code: string, message: string): never {
  throw Object.assign(new Error(message), { code });
}

const reasonOf = (error: unknown): string => {
  const code = errnoCode(error);
  if (error instanceof Error && (code === 'ESYMLINK' || code === 'EREADONLY' || error instanceof WriteRefused)) return error.message;
  return code ?? (error instanceof Error ? error.message : String(error));
};

/**
 * Stage one file: its new content in a temporary file beside it, with its mode and (where the process
 * may) its owner, and its old content kept for a roll-back. Never through a symlink, never over a
 * read-only file. The temporary names are short, so a file near the name length limit still works.
 */
function stage(entry: Entry, data: Buffer): void {
  const stat = fs.lstatSync(entry.file, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) refuse('ESYMLINK', 'a symbolic link: not written through (change its target by hand, or run on the target)');
  if (stat && (stat.mode & 0o222) === 0) refuse('EREADONLY', 'read-only: not written (make it writable to let v2-migrate change it)');
  const mode = stat ? stat.mode & 0o7777 : 0o666 & ~process.umask();
  fs.writeFileSync(entry.tmp, data, { mode, flag: 'wx' });
  fsyncFile(entry.tmp);
  if (!stat) return;
  if (typeof process.getuid === 'function' && (stat.uid !== process.getuid() || stat.gid !== process.getgid?.())) {
    try {
      fs.chownSync(entry.tmp, stat.uid, stat.gid);
    } catch {
      // Only a privileged process may give a file away; otherwise the owner is the writer, as with any editor.
    }
  }
  if (entry.inPlace) return void fs.copyFileSync(entry.file, entry.backup!, fs.constants.COPYFILE_EXCL);
  try {
    fs.linkSync(entry.file, entry.backup!);
  } catch {
    fs.copyFileSync(entry.file, entry.backup!, fs.constants.COPYFILE_EXCL);
  }
}

/** Put one entry's new content in place. */
function commit(entry: Entry): void {
  if (!entry.inPlace) return fs.renameSync(entry.tmp, entry.file);
  fs.writeFileSync(entry.file, fs.readFileSync(entry.tmp));
  fs.rmSync(entry.tmp, { force: true });
}

const remove = (file: string | null): void => {
  if (!file) return;
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // A temporary file left behind is only litter: the files themselves are settled.
  }
};

/** The hash of a file's content, null when it cannot be read. */
function hashOf(file: string): string | null {
  try {
    return hash(fs.readFileSync(file));
  } catch {
    return null;
  }
}

/** Give an entry its old content back (a file the run created is removed), and drop its temporary files. */
function restore(entry: Entry): void {
  if (entry.backup === null) fs.rmSync(entry.file, { force: true });
  else if (entry.inPlace) fs.writeFileSync(entry.file, fs.readFileSync(entry.backup));
  else fs.renameSync(entry.backup, entry.file);
  remove(entry.tmp);
  remove(entry.backup);
}

const finish = (entry: Entry): void => {
  remove(entry.tmp);
  remove(entry.backup);
};

/**
 * Write every group's files together: all are staged first; a group with a file that cannot be
 * staged (read-only, a symlink, a full disk, a folder it may not write) or that the guard refuses
 * (outside `place`, inside .git) writes none of its files.
 * Then a journal lists the staged files and they are renamed into place; a rename that fails rolls
 * its group back. The journal is removed at the end: if it survives (the process was killed), the
 * next run finds it and completes or rolls back each group (see `recoverInterrupted`).
 */
export function writeTogether(all: readonly PendingWrite[], journalFile: string, place: WritePlace, fault: FaultHook = faultHook()): WriteOutcome {
  const failed: WriteFailure[] = [];
  /** Fail a group: the culprit with its reason, its mates as held by it (every file with `reason` when no one file is to blame). */
  const failGroup = (group: string, culprit: string | null, reason: string, entries: readonly Entry[]): void => {
    for (const w of all) if (w.group === group) failed.push(culprit === null || w.file === culprit ? { file: w.file, reason } : { file: w.file, reason: 'not written: it moves with a file that could not be written', movesWith: culprit });
    for (const e of entries) if (e.group === group) remove(e.tmp), remove(e.backup);
  };
  // Staged files and backups go beside their file, under names created exclusively: guarding the file guards them.
  const refused = new Set<string>();
  for (const w of all) {
    const why = refused.has(w.group) ? null : writeRefusal(w.file, place);
    if (why) refused.add(w.group), failGroup(w.group, w.file, `not written: it ${why}`, []);
  }
  const writes = all.filter((w) => !refused.has(w.group));
  const entries: Entry[] = writes.map((w) => {
    const stat = fs.lstatSync(w.file, { throwIfNoEntry: false });
    const inPlace = !!stat && !stat.isSymbolicLink() && stat.nlink > 1;
    const before = stat ? hashOf(w.file) : null;
    return { group: w.group, file: w.file, tmp: tempName(w.file, 'tmp'), backup: stat ? tempName(w.file, 'old') : null, inPlace, before, after: hash(w.data) };
  });
  if (!entries.length) return { written: [], failed };
  try {
    guardWrite(journalFile, place);
    saveJournal(journalFile, { version: 1, state: 'staging', entries });
  } catch (error) {
    for (const group of new Set(writes.map((w) => w.group))) failGroup(group, null, `not written: the journal ${journalFile} could not be written (${reasonOf(error)})`, []);
    return { written: [], failed };
  }
  const bad = new Set<string>();
  writes.forEach((w, i) => {
    if (bad.has(w.group)) return;
    try {
      stage(entries[i]!, w.data);
    } catch (error) {
      bad.add(w.group);
      failGroup(w.group, w.file, reasonOf(error), entries);
    }
  });
  const staged = entries.filter((e) => !bad.has(e.group));
  try {
    saveJournal(journalFile, { version: 1, state: 'committing', entries: staged });
  } catch (error) {
    for (const group of new Set(staged.map((e) => e.group))) failGroup(group, null, `not written: the journal ${journalFile} could not be written (${reasonOf(error)})`, staged);
    remove(journalFile);
    return { written: [], failed };
  }
  fault('staged');
  const written: string[] = [];
  let renames = 0;
  for (const group of new Set(staged.map((e) => e.group))) {
    const members = staged.filter((e) => e.group === group);
    const done: Entry[] = [];
    try {
      for (const e of members) {
        fault('rename', ++renames);
        commit(e);
        done.push(e);
      }
    } catch (error) {
      // An in-place write that failed may have left part of its text: it is restored with the others.
      const failing = members[done.length]!;
      for (const e of failing.inPlace ? [failing, ...done.reverse()] : done.reverse()) restore(e);
      failGroup(group, members[done.length]!.file, reasonOf(error), members);
      continue;
    }
    for (const e of members) finish(e);
    written.push(...members.map((e) => e.file));
  }
  fault('committed');
  remove(journalFile);
  return { written, failed };
}

/** What the recovery of an interrupted write did, for one line of output. */
export interface Recovery {
  completed: string[];
  rolledBack: string[];
  /** Files changed by someone since the interruption: left as they are. */
  leftAlone: string[];
}

/** What a run found of an interrupted one: nothing, what it recovered, or a journal it would not act on (`reason` names the file). */
export type RecoveryOutcome = { kind: 'none' } | { kind: 'recovered'; recovery: Recovery } | { kind: 'untrusted'; reason: string };

/**
 * Finish what an interrupted run left. A group every file of which was renamed into place (its
 * temporary file is gone) is completed; any other group is rolled back: renamed files get their old
 * content back, a half-done in-place write too, and the temporary files the journal lists are
 * removed. A renamed file that someone changed since is left as it is. Only a journal `findJournal`
 * trusts is acted on (inside `place`, untracked, naming only what such a run writes).
 */
export function recoverInterrupted(journalFile: string, place: WritePlace): RecoveryOutcome {
  const found = findJournal(journalFile, place);
  if (found.kind !== 'journal') return found;
  const recovery = recoverFrom(found.journal);
  fs.rmSync(journalFile, { force: true });
  return { kind: 'recovered', recovery };
}

function recoverFrom(journal: Journal): Recovery {
  const out: Recovery = { completed: [], rolledBack: [], leftAlone: [] };
  // Only a committing journal has renamed anything; every file it lists had its temporary file then.
  const renamed = (e: Entry): boolean => journal.state === 'committing' && !fs.existsSync(e.tmp);
  for (const group of new Set(journal.entries.map((e) => e.group))) {
    const members = journal.entries.filter((e) => e.group === group);
    if (members.every(renamed)) {
      members.forEach(finish);
      out.completed.push(...members.map((e) => e.file));
      continue;
    }
    for (const e of members) {
      const wasRenamed = renamed(e);
      // An in-place write cut short (its temporary file is removed after it) may have left any text: the old one is put back.
      const ours = wasRenamed ? hashOf(e.file) === e.after : e.inPlace && hashOf(e.file) !== e.before;
      if (wasRenamed && !ours) {
        finish(e);
        out.leftAlone.push(e.file);
        continue;
      }
      if (ours) restore(e);
      else finish(e);
      out.rolledBack.push(e.file);
    }
  }
  return out;
}
