import { fileIn } from '../util/folders.js';
import { grepFiles } from './git-grep.js';

/**
 * What a run asks of `git grep` before its byte screen reads a file: which tracked files hold one of
 * the screen's needles (the screen need not read the others), unless a file that holds one `spoils` it.
 */
export interface PrescreenOptions {
  /** The byte screen's needles. */
  needles: readonly string[];
  /**
   * Where one folder's tracked files wait for git's answer, instead of the candidate callback: each is
   * handed to `hold` as the listing finds it, and `answer` is told once, when git has answered, which of
   * them hold a needle (absolute; the others hold none), or null when every one must be read (git could
   * not answer, or a file spoiled the prescreen). Files found after that are candidates.
   */
  holder: () => HeldFiles;
  /** Whether a file that holds a needle makes the run read every file after all (then every file goes to the byte screen, as without git grep). */
  spoils: (file: string) => boolean;
}

/** Files held for one git grep's answer. */
export interface HeldFiles {
  hold(file: string): void;
  /** git's answer for the held files: those in `matched` (every one when null) are read, the others hold none of the needles. */
  answer(matched: ReadonlySet<string> | null): void;
}

/**
 * `git grep` beside the listing of one folder: the tracked files the listing finds are held until git
 * has answered. Once a file that spoils the prescreen turns up, or when git cannot answer, every held
 * file is to be read, and every file found after that is a candidate.
 */
export class GitPrescreen {
  /** The files git found a needle in (absolute). */
  private readonly matched = new Set<string>();
  private answered = false;
  private readonly searched: Promise<boolean>;
  private readonly held: HeldFiles;

  constructor(
    dir: string,
    options: PrescreenOptions,
    private readonly onCandidate: (file: string) => void,
  ) {
    this.held = options.holder();
    this.searched = grepFiles(dir, options.needles, (rel) => {
      const file = fileIn(dir, rel);
      this.matched.add(file);
      if (!this.answered && options.spoils(file)) this.answer(null);
    });
  }

  /** A tracked regular file of the listing (absolute). */
  add(file: string): void {
    if (this.answered) this.onCandidate(file);
    else this.held.hold(file);
  }

  /** Once the listing is complete: git's answer for every file held, handed on. */
  async settle(): Promise<void> {
    const ok = await this.searched;
    if (!this.answered) this.answer(ok ? this.matched : null);
  }

  private answer(matched: ReadonlySet<string> | null): void {
    this.answered = true;
    this.held.answer(matched);
  }
}
