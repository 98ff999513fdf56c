import pc from 'picocolors';
import { packageRows, shownFindings, summaryText, suppressedByKind } from './common.js';
import { unifiedDiff } from './diff.js';
import { diffStyle, maskSecrets } from './secrets.js';
import type { ReportInput, Reporter } from './types.js';

function colorsFor(enabled: boolean) {
  return pc.createColors(enabled);
}

/** ESLint-style listing, preceded by the unified diff in a dry run (secrets masked, see secrets.ts). */
export const textReporter: Reporter = (input: ReportInput) => {
  const c = colorsFor(input.color);
  const out: string[] = [];
  if (input.mode === 'dry-run') {
    for (const r of input.results) {
      if (!r.changed || r.before === undefined || r.after === undefined) continue;
      const diff = unifiedDiff(r.path, r.before, r.after, diffStyle(r.path));
      out.push(input.color ? colorDiff(diff, c) : diff);
    }
  }
  for (const r of input.results) {
    const findings = shownFindings(input, r.findings);
    if (!findings.length) continue;
    out.push(c.underline(r.path));
    for (const f of findings) {
      const sev = f.severity === 'error' ? c.red('error') : f.severity === 'warning' ? c.yellow('warning') : c.blue('info');
      const fix = f.fixable ? c.dim(input.mode === 'write' ? ' (fixed)' : ' (fixable)') : '';
      out.push(`  ${c.dim(`${f.line}:${f.column}`)}  ${sev}  ${maskSecrets(f.message)}${fix}  ${c.dim(f.ruleId)}`);
    }
    out.push('');
  }
  if (!input.quiet) {
    const { kept, ignored } = suppressedByKind(input.results);
    const section = (title: string, list: typeof kept) => {
      if (!list.length) return;
      out.push(c.bold(title));
      for (const [r, f] of list) out.push(`  ${r.path}:${f.line}:${f.column}  ${maskSecrets(f.message)}  ${c.dim(f.ruleId)}`);
      out.push('');
    };
    section('Kept on purpose (v2-migrate-keep-v1), not counted:', kept);
    section('Marked false positive (v2-migrate-ignore), not counted:', ignored);
    const problems = input.results.flatMap((r) => r.markerProblems.map((p) => `  ${r.path}:${p.line}:${p.column}  ${maskSecrets(p.message)}`));
    if (problems.length) out.push(c.yellow('Marker comments to check:'), ...problems, '');
    const packages = packageRows(input.results);
    if (packages.length) {
      const width = Math.max(7, ...packages.map((p) => p.package.length));
      out.push(c.bold(`${'package'.padEnd(width)}  files  changed  errors  warnings  fixable`));
      for (const p of packages) out.push(`${p.package.padEnd(width)}  ${String(p.files).padStart(5)}  ${String(p.changed).padStart(7)}  ${String(p.errors).padStart(6)}  ${String(p.warnings).padStart(8)}  ${String(p.fixable).padStart(7)}`);
      out.push('');
    }
    out.push(summaryLine(input, c));
    if (input.exit?.because) out.push(`Exit code ${input.exit.code}: ${input.exit.because}.`);
  }
  return out.length ? out.join('\n') + '\n' : '';
};

function colorDiff(diff: string, c: ReturnType<typeof colorsFor>): string {
  return diff
    .split('\n')
    .map((l) => (l.startsWith('+++') || l.startsWith('---') || l.startsWith('diff ') ? c.bold(l) : l.startsWith('+') ? c.green(l) : l.startsWith('-') ? c.red(l) : l.startsWith('@@') ? c.cyan(l) : l))
    .join('\n');
}

function summaryLine(input: ReportInput, c: ReturnType<typeof colorsFor>): string {
  const line = summaryText(input);
  if (input.mode === 'write') return line;
  return input.summary.errors ? c.red(line) : input.summary.warnings ? c.yellow(line) : c.green(line);
}
