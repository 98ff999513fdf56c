import type { Reporter } from './types.js';

/** One JSON document: `{ version: 1, files: [...], summary }` (the format CI scripts read). */
export const jsonReporter: Reporter = ({ results, summary }) =>
  JSON.stringify(
    {
      version: 1,
      files: results.map((r) => ({
        path: r.path,
        changed: r.changed,
        findings: r.findings.map((f) => ({ ruleId: f.ruleId, severity: f.severity, line: f.line, column: f.column, message: f.message, fixable: f.fixable })),
      })),
      summary,
    },
    null,
    2,
  ) + '\n';
