import path from 'node:path';
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
  private readonly matched = new Set<string>();
  /** The files held (relative, and absolute). */
  private readonly heldRel: string[] = [];
  private readonly held: string[] = [];
  private spoiled = false;
  private readonly answered: Promise<boolean>;

  constructor(
    dir: string,
    private readonly options: PrescreenOptions,
    private readonly onCandidate: (file: string) => void,
  ) {
    this.answered = grepFiles(dir, options.needles, (rel) => {
      this.matched.add(rel);
      if (!this.spoiled && options.spoils(path.join(dir, rel))) this.spoil();
    });
  }

  /** A tracked regular file of the listing (relative, with '/', and its absolute path). */
  add(rel: string, file: string): void {
    if (this.spoiled) return this.onCandidate(file);
    this.heldRel.push(rel);
    this.held.push(file);
  }

  /** Once the listing is complete: every file held, handed on. */
  async settle(): Promise<void> {
    if (!(await this.answered)) this.spoil();
    const rels = this.heldRel.splice(0);
    this.held.splice(0).forEach((file, i) => (this.matched.has(rels[i] ?? '') ? this.onCandidate(file) : this.options.onClean(file)));
  }

  private spoil(): void {
    this.spoiled = true;
    this.heldRel.length = 0;
    for (const file of this.held.splice(0)) this.onCandidate(file);
  }
}
