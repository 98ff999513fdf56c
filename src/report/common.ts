import path from 'node:path';
import type { Finding } from '../findings.js';
import { isAtOrBelow, workTreeRoot } from '../util/folders.js';
import type { FileResult, SuppressedFinding } from '../run/types.js';
import type { ReportInput } from './types.js';

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : /(s|x|ch|sh)$/.test(word) ? 'es' : 's'}`;
}

/** Findings a listing shows: errors only with --quiet; in a write run, not the ones already fixed. */
export function shownFindings<F extends Finding>(input: Pick<ReportInput, 'quiet' | 'mode'>, findings: readonly F[]): F[] {
  return findings.filter((f) => (input.quiet ? f.severity === 'error' : true) && !(input.mode === 'write' && f.fixable));
}

/** Marker-suppressed findings of every file, by marker kind, in path then position order. */
export function suppressedByKind(results: readonly FileResult[]): { kept: [FileResult, SuppressedFinding][]; ignored: [FileResult, SuppressedFinding][] } {
  const kept: [FileResult, SuppressedFinding][] = [];
  const ignored: [FileResult, SuppressedFinding][] = [];
  for (const r of results) for (const f of r.suppressed) (f.marker === 'keep-v1' ? kept : ignored).push([r, f]);
  return { kept, ignored };
}

/** ", 2 kept on purpose, 1 marked false positive, 5 baselined" (only the non-zero parts). */
export function setAsideText(summary: ReportInput['summary']): string {
  const parts: string[] = [];
  if (summary.kept) parts.push(`${summary.kept} kept on purpose`);
  if (summary.ignored) parts.push(`${summary.ignored} marked false positive`);
  if (summary.baselined) parts.push(`${summary.baselined} baselined`);
  return parts.length ? `; not counted: ${parts.join(', ')}` : '';
}

/**
 * "1045 files scanned"; a partial run counts what it was asked about, and says it read more to know
 * what moves with it: "6 files in examples/ scanned (1045 read for context)".
 */
export function scannedText({ summary, asked, askedAbout }: Pick<ReportInput, 'summary' | 'asked' | 'askedAbout'>): string {
  if (asked === undefined) return `${plural(summary.files, 'file')} scanned`;
  return `${plural(asked, 'file')}${askedAbout ? ` ${askedAbout}` : ''} scanned (${summary.files} read for context)`;
}

/** The one-line summary (no colour) shared by the text and github formats. */
export function summaryText({ mode, summary, results, asked, askedAbout, notScanned }: ReportInput): string {
  const all = results.flatMap((r) => r.findings);
  // A write counts the fixes it wrote: a file that could not be written keeps its fixes for a later run.
  const fixable = (mode === 'write' ? results.filter((r) => r.changed).flatMap((r) => r.findings) : all).filter((f) => f.fixable).length;
  const manual = all.filter((f) => !f.fixable && f.severity !== 'info').length;
  const scanned = scannedText({ summary, asked, askedAbout });
  const skipped = notScanned ? `; ${plural(notScanned.files, 'file')} under ${notScanned.folders.map((f) => `${f}/`).join(', ')} not scanned (skipped by default: --no-default-ignore scans them)` : '';
  const aside = setAsideText(summary) + skipped;
  if (mode === 'write') return `${scanned}, ${plural(summary.changed, 'file')} rewritten (${plural(fixable, 'fix')}); ${plural(manual, 'problem')} need${manual === 1 ? 's' : ''} a person${aside}.`;
  const counts = `${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}, ${summary.infos} info`;
  const head = mode === 'dry-run' ? `${scanned}, ${plural(summary.changed, 'file')} would change` : scanned;
  return `${head}: ${counts} (${fixable} fixable by running v2-migrate)${aside}.`;
}

export interface PackageRow {
  package: string;
  files: number;
  changed: number;
  errors: number;
  warnings: number;
  fixable: number;
}

/** Per-package counts (packages with findings or changes), for monorepo reports; empty for one package. */
export function packageRows(results: readonly FileResult[]): PackageRow[] {
  const rows = new Map<string, PackageRow>();
  for (const r of results) {
    if (!r.changed && !r.findings.length) continue;
    const row = rows.get(r.package) ?? { package: r.package, files: 0, changed: 0, errors: 0, warnings: 0, fixable: 0 };
    row.files++;
    if (r.changed) row.changed++;
    for (const f of r.findings) {
      if (f.severity === 'error') row.errors++;
      if (f.severity === 'warning') row.warnings++;
      if (f.fixable) row.fixable++;
    }
    rows.set(r.package, row);
  }
  const list = [...rows.values()].sort((a, b) => (a.package < b.package ? -1 : 1));
  return list.length > 1 ? list : [];
}

/**
 * A result's path as code scanning and annotations resolve it: relative to the repository
 * (GITHUB_WORKSPACE when the file is in it, else the git work tree), with '/'. A run from a package
 * folder (the Action's working-directory) would otherwise name files GitHub cannot place.
 */
export function repositoryPath(r: Pick<FileResult, 'path' | 'absPath'>, roots = new Map<string, string | null>()): string {
  const workspace = process.env.GITHUB_WORKSPACE;
  const root = workspace && isAtOrBelow(path.resolve(workspace), r.absPath) ? path.resolve(workspace) : workTreeRoot(path.dirname(r.absPath), roots);
  if (!root || !isAtOrBelow(root, r.absPath)) return r.path;
  return path.relative(root, r.absPath).split(path.sep).join('/');
}
