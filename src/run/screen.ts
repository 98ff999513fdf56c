import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { backfill, CLAIMED, FREE, HELD, LOOK, NOTHING, screenSlots, specifierSink, type SpecifierSink } from './screen-core.js';
import { encodeNeedles } from '../scan/prefilter.js';
import type { HeldFiles } from '../scan/prescreen.js';

/** Handed to `fn` for a file that holds none of the needles: nothing in it can matter. */
export const NO_MATCH: Buffer = Buffer.alloc(0);

/** Below this many files a second thread costs more than it saves (tests lower it to exercise it). */
const WORKER_MIN_FILES = Number(process.env.V2_MIGRATE_SCREEN_THRESHOLD ?? 4000);
const WORKER_URL = new URL('./screen-worker.js', import.meta.url);
const BATCH = 256;
/** Slots of a screen fed during discovery (files beyond are screened when asked for). */
const EARLY_CAPACITY = 1 << 22;

/**
 * A byte screen for a few ASCII needles with a worker thread: files are added (during discovery, as
 * the walk finds them, or all at once) and posted to the worker in batches; `settle` screens on this
 * thread whatever the worker has not reached, working from the other end. Opening and reading every
 * file of a large tree is most of a lint that finds nothing, and this way it overlaps the walk and
 * uses both cores. Each file's answer is the same whoever screens it.
 */
export class Screen {
  private readonly files: string[] = [];
  private readonly index = new Map<string, number>();
  private readonly codes: Uint8Array;
  private worker: Worker | null = null;
  private posted = 0;
  /** Files added to be read (not known clean): a worker starts once there are enough. */
  private toRead = 0;
  /** Batches posted to the worker, and those it has answered (with their specifiers). */
  private batches = 0;
  private answered = 0;
  /** Import specifiers of JS/TS files screened once some file matched, by slot (see SpecifierSink). */
  private readonly specifiers = new Map<number, string[]>();
  private readonly sink: SpecifierSink;

  /** `helped`: a worker takes batches once there are enough files to pay for it. `triggers`: see SpecifierSink (none: no specifiers). */
  constructor(
    readonly needles: readonly string[],
    private readonly capacity: number,
    private readonly helped: boolean,
    private readonly triggers: readonly string[] = [],
  ) {
    this.codes = new Uint8Array(new SharedArrayBuffer(Math.max(capacity, 1)));
    this.sink = specifierSink(triggers, new SharedArrayBuffer(4), (slot, s) => void this.specifiers.set(slot, s));
  }

  /** A screen to feed during discovery, or null with one job or when the worker is not built (tests from source). */
  static early(needles: readonly string[], jobs: number, triggers: readonly string[]): Screen | null {
    return jobs > 1 && workerBuilt() ? new Screen(needles, EARLY_CAPACITY, true, triggers) : null;
  }

  add(file: string): void {
    if (this.files.length >= this.capacity || this.index.has(file)) return;
    this.index.set(file, this.files.length);
    this.files.push(file);
    this.toRead++;
    this.maybePost();
  }

  /** Posts the files not yet posted once there are enough to read to pay for the worker. */
  private maybePost(): void {
    if (this.helped && this.files.length - this.posted >= BATCH && this.toRead >= WORKER_MIN_FILES) this.post();
  }

  /**
   * Tracked files one git grep is asked about (one per listed folder): each gets its slot as the
   * listing finds it, while git searches, and its answer from `answer` (most of a tree's files: their
   * slots are not made once git is done, the longest wait).
   */
  holder(): HeldFiles {
    let held: number[] = [];
    return {
      hold: (file) => {
        if (this.files.length >= this.capacity || this.index.has(file)) return;
        const slot = this.files.length;
        this.index.set(file, slot);
        this.files.push(file);
        Atomics.store(this.codes, slot, HELD);
        held.push(slot);
      },
      answer: (matched) => {
        const read = (slot: number): void => {
          Atomics.store(this.codes, slot, FREE);
          this.toRead++;
        };
        if (matched === null) held.forEach(read);
        else
          for (const file of matched) {
            const slot = this.index.get(file);
            if (slot !== undefined && this.codes[slot] === HELD) read(slot);
          }
        for (const slot of held) {
          if (this.codes[slot] !== HELD) continue;
          Atomics.store(this.codes, slot, NOTHING);
          // Its imports are read only if some file matches after all (see backfill).
          this.sink.missed.push(slot);
        }
        held = [];
        this.maybePost();
      },
    };
  }

  /** Whether an answer for `needles` can be read off this screen (a LOOK for an extra needle only costs a look). */
  covers(needles: readonly string[]): boolean {
    return needles.every((n) => this.needles.includes(n));
  }

  private post(): void {
    if (!this.worker) {
      this.worker = new Worker(WORKER_URL, { workerData: { needles: this.needles, triggers: this.triggers, codes: this.codes.buffer, matched: this.sink.matched.buffer } });
      this.worker.unref();
      this.worker.on('message', (answer: Array<[number, string[]]>) => {
        for (const [slot, s] of answer) this.specifiers.set(slot, s);
        this.answered++;
      });
    }
    this.worker.postMessage(this.files.slice(this.posted));
    this.posted = this.files.length;
    this.batches++;
  }

  private settled = false;

  /** Files still to come (a prescreen still running): settle waits for them. */
  private coming: Promise<void> = Promise.resolve();

  waitFor(coming: Promise<void>): void {
    this.coming = coming;
  }

  /** Every added file screened: the rest on this thread, from the last one back, then the worker's last ones awaited. */
  async settle(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    await this.coming;
    const encoded = encodeNeedles(this.needles);
    // The slots still free, from the last one back (most of a tree's are answered by git grep already).
    const slots = (): number[] => {
      const free: number[] = [];
      for (let i = this.files.length - 1; i >= 0; i--) if (this.codes[i] === FREE) free.push(i);
      return free;
    };
    screenSlots(this.files, slots(), encoded, this.codes, this.sink);
    if (!this.worker) return backfill(this.files, this.sink);
    for (let i = 0; i < this.files.length; i++) {
      // A slot the worker claimed is answered within one file's read; a dead worker's is taken back.
      for (let waited = 0; Atomics.load(this.codes, i) === CLAIMED && waited < 2000; waited++) await new Promise((r) => setTimeout(r, 1));
      if (Atomics.load(this.codes, i) === CLAIMED) Atomics.store(this.codes, i, FREE);
    }
    screenSlots(this.files, slots(), encoded, this.codes, this.sink);
    backfill(this.files, this.sink);
    // Its last answers, when some file matched (a file whose specifiers never come is read again by the import graph).
    if (Atomics.load(this.sink.matched, 0)) for (let waited = 0; this.answered < this.batches && waited < 2000; waited++) await new Promise((r) => setTimeout(r, 1));
    void this.worker.terminate();
  }

  /** The import specifiers of an added JS/TS file, when the screen collected them (after `settle`). */
  specifiersOf(file: string): string[] | undefined {
    const i = this.index.get(file);
    return i === undefined ? undefined : this.specifiers.get(i);
  }

  /**
   * Whether every one of `files` was added and holds none of this screen's needles (after `settle`),
   * and so none of `needles` either: each of those holds one of this screen's (a host holds its URL).
   */
  clearsAll(files: readonly string[], needles: readonly string[]): boolean {
    if (!needles.every((n) => this.needles.some((own) => n.includes(own)))) return false;
    return files.every((file) => this.code(file) === NOTHING);
  }

  /** The answer for an added file (after `settle`), FREE for one never added. */
  code(file: string): number {
    const i = this.index.get(file);
    return i === undefined ? FREE : this.codes[i]!;
  }
}

/** The import specifiers a screen collected for a file (undefined: not collected, read the file). */
export type SpecifiersOf = (file: string) => string[] | undefined;

const workerBuilt = (): boolean => fs.existsSync(fileURLToPath(WORKER_URL));

/**
 * Test many files for a few ASCII needles, then hand each to `fn` in order: `null` when it cannot be
 * read, NO_MATCH when it holds none of the needles (and is not UTF-16), its bytes otherwise (valid
 * during the call only). `early`, a screen fed during discovery, answers for the files it has when
 * its needles cover these; with `jobs` > 1 and many files, a worker screens alongside this thread.
 * Returns the import specifiers the screens collected once a JS/TS file held one of `triggers` (see SpecifierSink).
 */
export async function screenEach(files: readonly string[], needles: readonly string[], fn: (file: string, bytes: Buffer | null) => void, jobs = 1, early: Screen | null = null, triggers: readonly string[] = []): Promise<SpecifiersOf> {
  const known = early?.covers(needles) ? early : null;
  await known?.settle();
  const codes = files.map((file) => known?.code(file) ?? FREE);
  const rest = new Screen(needles, codes.filter((code) => code === FREE).length, jobs > 1 && workerBuilt(), triggers);
  files.forEach((file, i) => codes[i] === FREE && rest.add(file));
  await rest.settle();
  for (const [i, file] of files.entries()) {
    const code = codes[i] || rest.code(file);
    if (code === NOTHING) fn(file, NO_MATCH);
    else if (code !== LOOK) fn(file, null);
    else {
      let bytes: Buffer | null;
      try {
        bytes = fs.readFileSync(file);
      } catch {
        bytes = null;
      }
      fn(file, bytes);
    }
  }
  return (file) => known?.specifiersOf(file) ?? rest.specifiersOf(file);
}
