import { plural } from '../report/common.js';
import type { Mode } from '../report/types.js';
import type { RunResult } from '../run/types.js';

/** Exit codes: the contract CI scripts rely on. */
export const EXIT = { clean: 0, findings: 1, usage: 2 } as const;

/** A finished run's exit code, and why when it is not 0 (said at the end of the text report). */
export interface RunExit {
  code: typeof EXIT.clean | typeof EXIT.findings;
  /** What the code means for this run ("changes pending: run without --dry-run to write them"); null for 0. */
  because: string | null;
}

/** Exit code for a finished run (see README "Exit codes"). */
export function runExit(mode: Mode, result: RunResult, maxWarnings: number): RunExit {
  const all = result.results.flatMap((r) => r.findings);
  if (mode === 'lint') {
    const errors = all.filter((f) => f.severity === 'error').length;
    const warnings = all.filter((f) => f.severity === 'warning').length;
    const tooMany = maxWarnings >= 0 && warnings > maxWarnings;
    const failing = [...(errors ? [plural(errors, 'error')] : []), ...(tooMany ? [`${plural(warnings, 'warning')} (more than --max-warnings ${maxWarnings})`] : [])];
    return failing.length ? { code: EXIT.findings, because: `lint fails on ${failing.join(' and ')}` } : { code: EXIT.clean, because: null };
  }
  const manual = all.filter((f) => !f.fixable && f.severity !== 'info').length;
  const pending = mode === 'dry-run' && result.summary.changed > 0;
  const needsPerson = manual ? `${plural(manual, 'problem')} need${manual === 1 ? 's' : ''} a person` : '';
  if (pending) return { code: EXIT.findings, because: `changes pending (run without --dry-run to write them)${needsPerson ? `, and ${needsPerson}` : ''}` };
  return needsPerson ? { code: EXIT.findings, because: needsPerson } : { code: EXIT.clean, because: null };
}
