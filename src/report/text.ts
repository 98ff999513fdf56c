import pc from 'picocolors';
import type { Finding } from '../findings.js';
import { unifiedDiff } from './diff.js';
import type { ReportInput, Reporter } from './types.js';

function colorsFor(enabled: boolean) {
  return pc.createColors(enabled);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** ESLint-style listing, preceded by the unified diff in a dry run. */
export const textReporter: Reporter = (input: ReportInput) => {
  const c = colorsFor(input.color);
  const out: string[] = [];
  if (input.mode === 'dry-run') {
    for (const r of input.results) if (r.changed && r.before !== undefined && r.after !== undefined) out.push(colorDiff(unifiedDiff(r.path, r.before, r.after), c));
  }
  const shown = (f: Finding): boolean => (input.quiet ? f.severity === 'error' : true) && !(input.mode === 'write' && f.fixable);
  for (const r of input.results) {
    const findings = r.findings.filter(shown);
    if (!findings.length) continue;
    out.push(c.underline(r.path));
    for (const f of findings) {
      const sev = f.severity === 'error' ? c.red('error') : f.severity === 'warning' ? c.yellow('warning') : c.blue('info');
      const fix = f.fixable ? c.dim(input.mode === 'write' ? ' (fixed)' : ' (fixable)') : '';
      out.push(`  ${c.dim(`${f.line}:${f.column}`)}  ${sev}  ${f.message}${fix}  ${c.dim(f.ruleId)}`);
    }
    out.push('');
  }
  if (!input.quiet) out.push(summaryLine(input, c));
  return out.length ? out.join('\n') + '\n' : '';
};

function colorDiff(diff: string, c: ReturnType<typeof colorsFor>): string {
  return diff
    .split('\n')
    .map((l) => (l.startsWith('+++') || l.startsWith('---') || l.startsWith('diff ') ? c.bold(l) : l.startsWith('+') ? c.green(l) : l.startsWith('-') ? c.red(l) : l.startsWith('@@') ? c.cyan(l) : l))
    .join('\n');
}

function summaryLine({ mode, summary, results }: ReportInput, c: ReturnType<typeof colorsFor>): string {
  const all = results.flatMap((r) => r.findings);
  const fixable = all.filter((f) => f.fixable).length;
  const manual = all.filter((f) => !f.fixable && f.severity !== 'info').length;
  const scanned = `${plural(summary.files, 'file')} scanned`;
  if (mode === 'write') return `${scanned}, ${plural(summary.changed, 'file')} rewritten (${plural(fixable, 'fix')}); ${plural(manual, 'problem')} need${manual === 1 ? 's' : ''} a person.`;
  const counts = `${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}, ${summary.infos} info`;
  const head = mode === 'dry-run' ? `${scanned}, ${plural(summary.changed, 'file')} would change` : scanned;
  const line = `${head}: ${counts} (${fixable} fixable by running v2-migrate).`;
  return summary.errors ? c.red(line) : summary.warnings ? c.yellow(line) : c.green(line);
}
