import type { FileResult, RunSummary } from './types.js';

/** The counts of a run's listed results (what the reporters' summary line and the exit code read). */
export function summarize(results: readonly FileResult[], scanned: number): RunSummary {
  const all = results.flatMap((r) => r.findings);
  const suppressed = results.flatMap((r) => r.suppressed);
  return {
    files: scanned,
    changed: results.filter((r) => r.changed).length,
    errors: all.filter((f) => f.severity === 'error').length,
    warnings: all.filter((f) => f.severity === 'warning').length,
    infos: all.filter((f) => f.severity === 'info').length,
    ignored: suppressed.filter((f) => f.marker === 'ignore').length,
    kept: suppressed.filter((f) => f.marker === 'keep-v1').length,
    baselined: results.reduce((n, r) => n + r.baselined.length, 0),
  };
}
