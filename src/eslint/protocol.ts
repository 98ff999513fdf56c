import type { Finding } from '../findings.js';

/** What the rules ask the analysis thread about one file. */
export interface Question {
  /** The folder whose project analysis answers (ESLint's cwd, or settings["v2-migrate"].root). */
  root: string;
  /** Absolute path. */
  file: string;
  /** The text ESLint lints (BOM excluded, as the engine reads files). */
  text: string;
}

/** One edit of the file's text, in ESLint's terms: the range replaced and the new text. */
export interface Fix {
  range: [number, number];
  text: string;
}

export type Reply =
  | {
      /** The findings `v2-migrate lint` reports for the file (markers applied). */
      findings: Array<Pick<Finding, 'ruleId' | 'line' | 'column' | 'message' | 'fixable'>>;
      /** The file's whole migration as one edit; null when nothing changes or the change spans files. */
      fix: Fix | null;
    }
  | { error: string };
