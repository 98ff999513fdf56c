import { fileIn } from '../util/folders.js';
import { grepFiles } from './git-grep.js';

/**
 * What a run asks of `git grep` before its byte screen reads a file: which tracked files hold none of
 * the screen's needles (then the screen need not read them), unless a file that holds one `spoils` it.
 */
export interface PrescreenOptions {
  /** The byte screen's needles. */
  needles: readonly string[];
  /** Told of a file git found none of the needles in, instead of the candidate callback. */
  onClean: (file: string) => void;
  /** Whether a file that holds a needle makes the run read every file after all (then every file goes to the byte screen, as without git grep). */
  spoils: (file: string) => boolean;
}

/**
 * `git grep` beside the listing of one folder: the tracked files the listing finds are held until git
 * has answered, then handed on as candidates (they hold a needle) or as clean ones. Once a file that
 * spoils the prescreen turns up, or when git cannot answer, every file is a candidate, at once.
 */
export class GitPrescreen {
  /** The files git found a needle in (absolute). */
  private readonly matched = new Set<string>();
  /** The files held until git has answered (absolute). */
  private readonly held: string[] = [];
  private spoiled = false;
  private readonly answered: Promise<boolean>;

  constructor(
    dir: string,
    private readonly options: PrescreenOptions,
    private readonly onCandidate: (file: string) => void,
  ) {
    this.answered = grepFiles(dir, options.needles, (rel) => {
      const file = fileIn(dir, rel);
      this.matched.add(file);
      if (!this.spoiled && options.spoils(file)) this.spoil();
    });
  }

  /** A tracked regular file of the listing (absolute). */
  add(file: string): void {
    if (this.spoiled) return this.onCandidate(file);
    this.held.push(file);
  }

  /** Once the listing is complete: every file held, handed on. */
  async settle(): Promise<void> {
    if (!(await this.answered)) this.spoil();
    for (const file of this.held.splice(0)) {
      if (this.matched.has(file)) this.onCandidate(file);
      else this.options.onClean(file);
    }
  }

  private spoil(): void {
    this.spoiled = true;
    for (const file of this.held.splice(0)) this.onCandidate(file);
  }
}
