import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { lazy } from '../util/lazy.js';
import { git } from './git-command.js';
import { writeRefusal, type WritePlace } from './write-guard.js';

/** A staged file as the journal records it: enough to finish or undo its rename after a crash. */
export interface Entry {
  group: string;
  file: string;
  tmp: string;
  /** The old content, kept until the group is done: a hard link to it, or a copy for an in-place write; null for a file the run creates. */
  backup: string | null;
  /** The file has hard links: its new text is written into it, so every link sees it. */
  inPlace: boolean;
  before: string | null;
  after: string;
}

export interface Journal {
  version: 1;
  state: 'staging' | 'committing';
  entries: Entry[];
}

export const JOURNAL_NAME = '.v2-migrate-journal.json';

const journalSchema = lazy(
  (): z.ZodType<Journal> =>
    z.strictObject({
      version: z.literal(1),
      state: z.enum(['staging', 'committing']),
      entries: z.array(
        z.strictObject({
          group: z.string(),
          file: z.string(),
          tmp: z.string(),
          backup: z.string().nullable(),
          inPlace: z.boolean(),
          before: z.string().nullable(),
          after: z.string(),
        }),
      ),
    }),
);

let counter = 0;
/** A staged file's name: beside its file, short (a file near the name length limit still works). */
export const tempName = (file: string, kind: 'tmp' | 'old'): string => path.join(path.dirname(file), `.v2m-${process.pid}-${counter++}.${kind}`);
const TEMP_NAME = /^\.v2m-(?<pid>\d+)-\d+\.(?<kind>tmp|old)$/;

export function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Write the journal whole or not at all (a partial file renamed over it), readable by its owner only.
 * The partial file is created afresh (`wx`): an existing one, or a symbolic link by its name, fails the write.
 */
export function saveJournal(journalFile: string, journal: Journal): void {
  const partial = `${journalFile}.partial`;
  fs.writeFileSync(partial, JSON.stringify(journal), { mode: 0o600, flag: 'wx' });
  fsyncFile(partial);
  fs.renameSync(partial, journalFile);
}

/** What the root holds of an interrupted run: nothing, a journal to act on, or files the tool will not trust (`reason` names the file). */
export type JournalFound = { kind: 'none' } | { kind: 'journal'; journal: Journal } | { kind: 'untrusted'; reason: string };

/**
 * The journal an interrupted run left at `journalFile`, if it is one to act on. A repository is
 * untrusted input: a journal (or a partial one) that is tracked by git, a symbolic link or not a
 * regular file, that does not parse as a journal, or whose entries name anything but files inside
 * the work tree and the staged files the tool names beside them (`.v2m-<pid>-<n>.tmp|old`, one run's
 * pid), or a staged or created file that git tracks, is `untrusted`: nothing it names is touched.
 * A partial journal (killed while writing it: nothing staged yet) is removed.
 */
export function findJournal(journalFile: string, place: WritePlace): JournalFound {
  const partial = `${journalFile}.partial`;
  const present = [journalFile, partial].filter(exists);
  if (!present.length) return { kind: 'none' };
  for (const file of present) {
    const why = notLeftByARun(file, place);
    if (why) return untrusted(file, why);
  }
  const tracked = trackedFiles(place.root);
  if (tracked === null) return untrusted(present[0], 'cannot be checked: git cannot list the files it tracks here');
  for (const file of present) if (tracked.has(path.resolve(file))) return untrusted(file, 'is tracked by git (an interrupted run leaves a journal git does not track)');
  if (present.includes(partial)) fs.rmSync(partial, { force: true });
  if (!present.includes(journalFile)) return { kind: 'none' };
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(journalFile, 'utf8'));
  } catch {
    // The parser's message quotes the text: never echoed.
    return untrusted(journalFile, 'is not JSON');
  }
  const parsed = journalSchema().safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return untrusted(journalFile, `is not a v2-migrate journal (${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'unknown shape'})`);
  }
  const journal = parsed.data;
  const pids = new Set<string>();
  for (const [i, e] of journal.entries.entries()) {
    const why = entryProblem(e, place, pids, tracked);
    if (why) return untrusted(journalFile, `(entry ${i + 1}) ${why}`);
  }
  return { kind: 'journal', journal };
}

const exists = (file: string): boolean => fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;

/** Whether an interrupted run may have left something at `journalFile` (the journal, or a partial one). */
export const journalLeft = (journalFile: string): boolean => exists(journalFile) || exists(`${journalFile}.partial`);

const untrusted = (file: string, why: string): JournalFound => ({ kind: 'untrusted', reason: `${file} ${why}` });

/** Why `file` (the journal or its partial file) is not one a run of the tool wrote, or null. */
function notLeftByARun(file: string, place: WritePlace): string | null {
  const why = writeRefusal(file, place);
  if (why) return why;
  return fs.lstatSync(file).isFile() ? null : 'is not a regular file';
}

/**
 * Why an entry is not one the tool wrote, or null: its file must be an absolute path inside the work
 * tree, its staged files the tool's names beside it, with one run's pid (collected in `pids`).
 */
function entryProblem(e: Entry, place: WritePlace, pids: Set<string>, tracked: ReadonlySet<string>): string | null {
  const shown = JSON.stringify(e.file);
  if (path.resolve(e.file) !== e.file) return `names ${shown}, not an absolute path`;
  const refused = writeRefusal(e.file, place);
  if (refused) return `names ${shown}, which ${refused}`;
  const staged: Array<[string | null, 'tmp' | 'old']> = [
    [e.tmp, 'tmp'],
    [e.backup, 'old'],
  ];
  for (const [name, kind] of staged) {
    if (name === null) continue;
    const parts = path.dirname(name) === path.dirname(e.file) ? TEMP_NAME.exec(path.basename(name))?.groups : undefined;
    if (!parts?.pid || parts.kind !== kind) return `lists ${JSON.stringify(name)} as a staged file of ${shown}: not a name v2-migrate gives one`;
    pids.add(parts.pid);
    if (pids.size > 1) return 'lists staged files of more than one run';
    if (tracked.has(name)) return `lists ${JSON.stringify(name)}, which git tracks, as a staged file`;
  }
  // A file the run created has no backup: one git tracks was not created by it.
  if (e.backup === null && tracked.has(e.file)) return `lists ${shown}, which git tracks, as a file the run created`;
  return null;
}

/** The files git tracks in the work tree at `root` (absolute); empty outside git, null when git cannot tell. */
function trackedFiles(root: string): ReadonlySet<string> | null {
  if (!fs.existsSync(path.join(root, '.git'))) return new Set();
  const r = git(['ls-files', '-z'], root);
  if (r.status !== 0) return null;
  return new Set(r.stdout.split('\0').filter(Boolean).map((f) => path.resolve(root, f)));
}
