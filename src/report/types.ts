import type { RunResult } from '../run/runner.js';

export type Mode = 'write' | 'dry-run' | 'lint';

/** Everything a reporter needs: the run's results and what the command did with them. */
export interface ReportInput extends RunResult {
  mode: Mode;
  /** Only errors, no summary (text reporter). */
  quiet: boolean;
  color: boolean;
}

export type Reporter = (input: ReportInput) => string;
