import type { Finding } from '../findings.js';
import { maskSecrets } from './secrets.js';
import type { Reporter } from './types.js';

const plain = (f: Finding) => ({ ruleId: f.ruleId, severity: f.severity, line: f.line, column: f.column, message: maskSecrets(f.message), fixable: f.fixable });

/**
 * One JSON document: `{ version: 1, files: [...], changedFiles: [...], summary }` (the format CI
 * scripts read). Files are listed when they have findings (in the gate or marker-suppressed) or
 * change; `suppressed` holds the marker-suppressed ones with `marker: "ignore" | "keep-v1"`.
 * `changedFiles` are the paths a write changed (a dry run or lint: would change). A --shard run adds
 * `shard: { index, count }`, which merge-reports checks.
 */
export const jsonReporter: Reporter = ({ results, summary, shard }) =>
  JSON.stringify(
    {
      version: 1,
      files: results
        .filter((r) => r.changed || r.findings.length || r.suppressed.length)
        .map((r) => ({
          path: r.path,
          changed: r.changed,
          findings: r.findings.map(plain),
          suppressed: r.suppressed.map((f) => ({ ...plain(f), marker: f.marker })),
        })),
      changedFiles: results.filter((r) => r.changed).map((r) => r.path),
      summary,
      ...(shard ? { shard } : {}),
    },
    null,
    2,
  ) + '\n';
