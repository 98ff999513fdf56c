import type { Finding, FixEdit } from '../findings.js';

/** What the rules ask the analysis thread about one file. */
export interface Question {
  /** The folder whose project analysis answers (ESLint's cwd, or settings["v2-migrate"].root). */
  root: string;
  /** Absolute path. */
  file: string;
  /** The text ESLint lints (BOM excluded, as the engine reads files). */
  text: string;
}

export type Reply =
  | {
      /**
       * The findings `v2-migrate lint` reports for the file (markers applied), each fixable one with its
       * fix (`Finding.fix`) as one edit; none has a fix when the file's change goes with changes to
       * other files.
       */
      findings: Array<Pick<Finding, 'ruleId' | 'line' | 'column' | 'message' | 'fixable'> & { fix?: FixEdit }>;
    }
  | { error: string };
