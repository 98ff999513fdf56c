import type { RunResult } from '../run/types.js';

export type Mode = 'write' | 'dry-run' | 'lint';

/** Everything a reporter needs: the run's results and what the command did with them. */
export interface ReportInput extends RunResult {
  mode: Mode;
  /** Only errors, no summary (text reporter). */
  quiet: boolean;
  color: boolean;
  /** The run's exit code and what it means (text report, when not 0); absent for merged reports. */
  exit?: { code: number; because: string | null };
  /** What a partial run was asked about ("in examples/", "changed since main"), for its summary. */
  askedAbout?: string;
}

export type Reporter = (input: ReportInput) => string;
