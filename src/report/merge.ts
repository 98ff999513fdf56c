import fs from 'node:fs';
import path from 'node:path';
import type { Finding, Severity } from '../findings.js';
import type { MarkerKind } from '../markers/index.js';
import { NO_PRINTS, type RunResult, type RunSummary } from '../run/types.js';

/** One `--format json` report (version 1), as written by `v2-migrate … --format json`. */
interface JsonFinding {
  ruleId: string;
  severity: Severity;
  line: number;
  column: number;
  message: string;
  fixable: boolean;
}
interface JsonReport {
  version: 1;
  files: Array<{ path: string; changed: boolean; findings: JsonFinding[]; suppressed?: Array<JsonFinding & { marker: MarkerKind }> }>;
  changedFiles?: string[];
  summary: Record<string, number>;
  shard?: { index: number; count: number };
}

export class MergeError extends Error {}

function read(file: string): JsonReport {
  let doc: unknown;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new MergeError(`${file}: not a JSON report (${error instanceof Error ? error.message : String(error)})`);
  }
  const r = doc as JsonReport;
  if (!r || r.version !== 1 || !Array.isArray(r.files) || typeof r.summary !== 'object') throw new MergeError(`${file}: not a v2-migrate JSON report (version 1)`);
  return r;
}

/**
 * Merge per-shard JSON reports into one: files in path order (a path in several reports is an
 * overlap between shards: an error), counts recomputed from the findings, the other summary
 * counters added up.
 */
export function mergeReports(files: readonly string[]): JsonReport {
  const reports = files.map(read);
  checkShards(reports, files);
  const byPath = new Map<string, JsonReport['files'][number]>();
  for (const [i, r] of reports.entries()) {
    for (const f of r.files) {
      if (byPath.has(f.path)) throw new MergeError(`${f.path} is in more than one report (${files[i]}): shards overlap`);
      byPath.set(f.path, f);
    }
  }
  const merged = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const all = merged.flatMap((f) => f.findings);
  const summary: Record<string, number> = {};
  for (const r of reports) for (const [k, v] of Object.entries(r.summary)) if (typeof v === 'number') summary[k] = (summary[k] ?? 0) + v;
  Object.assign(summary, {
    changed: merged.filter((f) => f.changed).length,
    errors: all.filter((f) => f.severity === 'error').length,
    warnings: all.filter((f) => f.severity === 'warning').length,
    infos: all.filter((f) => f.severity === 'info').length,
  });
  return { version: 1, files: merged, changedFiles: merged.filter((f) => f.changed).map((f) => f.path), summary };
}

/**
 * Reports of a --shard matrix say which shard they are: all of 1/n … n/n must be there, once each. A
 * missing shard would otherwise pass the merged gate on the files nobody analysed.
 */
function checkShards(reports: readonly JsonReport[], files: readonly string[]): void {
  const sharded = reports.filter((r) => r.shard);
  if (!sharded.length) return;
  if (sharded.length < reports.length) throw new MergeError(`${files[reports.findIndex((r) => !r.shard)]} is not a --shard report, but others are: merge the reports of one matrix`);
  const count = sharded[0]!.shard!.count;
  const seen = new Map<number, string>();
  for (const [i, r] of reports.entries()) {
    if (r.shard!.count !== count) throw new MergeError(`${files[i]} is shard ${r.shard!.index}/${r.shard!.count}, but ${files[0]} is of ${count}: merge the reports of one matrix`);
    if (seen.has(r.shard!.index)) throw new MergeError(`shard ${r.shard!.index}/${count} is in both ${seen.get(r.shard!.index)} and ${files[i]}`);
    seen.set(r.shard!.index, files[i]!);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length) throw new MergeError(`shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')} missing: the merged report would pass files nobody analysed`);
}

/** A merged report as a run's result, for the other formats (findings carry no baseline fingerprints). */
export function mergedRunResult(report: JsonReport, cwd: string): RunResult {
  const finding = (f: JsonFinding): Finding => ({ ruleId: f.ruleId as Finding['ruleId'], severity: f.severity, line: f.line, column: f.column, message: f.message, fixable: f.fixable });
  const results = report.files.map((f) => ({
    path: f.path,
    absPath: path.resolve(cwd, f.path),
    package: '.',
    changed: f.changed,
    findings: f.findings.map(finding),
    suppressed: (f.suppressed ?? []).map((s) => ({ ...finding(s), marker: s.marker })),
    baselined: [],
    prints: NO_PRINTS,
    markerProblems: [],
    inventory: null,
  }));
  return { results, summary: report.summary as unknown as RunSummary };
}
