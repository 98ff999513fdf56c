import type { Finding } from '../findings.js';
import { repositoryPath, shownFindings, summaryText } from './common.js';
import { maskSecrets } from './secrets.js';
import type { Reporter } from './types.js';

/** Escape a workflow command's message (GitHub's rules: `%`, CR, LF). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escape a workflow command property value: also `:` and `,`. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const COMMAND = { error: 'error', warning: 'warning', info: 'notice' } as const;

/** `::error file=…,line=…,col=…,title=<ruleId>::<message>` for one finding. */
export function annotation(path: string, f: Finding, fixHint: string): string {
  const props = [`file=${escapeProperty(path)}`, `line=${f.line}`, `col=${f.column}`, `title=${escapeProperty(f.ruleId)}`].join(',');
  return `::${COMMAND[f.severity]} ${props}::${escapeData(maskSecrets(f.message) + (f.fixable ? fixHint : ''))}`;
}

/**
 * GitHub Actions workflow commands: one annotation per finding in the gate (error, warning, or
 * notice for info), shown on the changed lines of a pull request (paths relative to the repository);
 * then the summary as a plain line.
 * Marker-suppressed and baselined findings are not annotated.
 */
export const githubReporter: Reporter = (input) => {
  const out: string[] = [];
  const hint = ' (fixable: run npx v2-migrate)';
  const roots = new Map<string, string | null>();
  for (const r of input.results) for (const f of shownFindings(input, r.findings)) out.push(annotation(repositoryPath(r, roots), f, hint));
  if (!input.quiet) out.push(`v2-migrate: ${summaryText(input)}`);
  return out.length ? out.join('\n') + '\n' : '';
};
