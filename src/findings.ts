import type { RuleId, Severity } from './rules/registry.js';

// A finding's severity is a rule's (the registry holds both); it is named here too, with the finding.
export type { Severity };

/** One thing the tool reports about a file: what changed or must change, and why. */
export interface Finding {
  ruleId: RuleId;
  severity: Severity;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  message: string;
  /** True when the codemod rewrites this itself (a run without --dry-run applies it). */
  fixable: boolean;
  /**
   * The edits that carry out a fixable finding, in the file's text as the tool reads it (BOM excluded):
   * `text` replaces the UTF-16 code units `[range[0], range[1])`, ESLint's ranges. Findings whose edits
   * depend on each other (an action's path and its body, a base and the paths built on it) share one
   * combined fix, made whole or not at all. Absent when the finding is not fixable, or when its change
   * goes with changes to other files.
   */
  fix?: FixEdit[];
}

/** One replacement in a file's text (see `Finding.fix`). */
export interface FixEdit {
  range: [number, number];
  text: string;
}

export function compareFindings(a: Finding, b: Finding): number {
  return a.line - b.line || a.column - b.column || a.ruleId.localeCompare(b.ruleId) || a.message.localeCompare(b.message);
}

/** The finding for a file the tool itself failed on: the file is left unchanged. */
export function internalFailure(error: unknown): Finding {
  const why = error instanceof Error ? error.message : String(error);
  return { ruleId: 'internal-error', severity: 'error', line: 1, column: 1, message: `v2-migrate failed on this file (${why}); it was left unchanged. Please report this.`, fixable: false };
}
