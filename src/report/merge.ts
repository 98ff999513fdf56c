import fs from 'node:fs';

/** One `--format json` report (version 1), as written by `v2-migrate … --format json`. */
interface JsonFinding {
  ruleId: string;
  severity: 'error' | 'warning' | 'info';
}
interface JsonReport {
  version: 1;
  files: Array<{ path: string; changed: boolean; findings: JsonFinding[]; [k: string]: unknown }>;
  changedFiles?: string[];
  summary: Record<string, number>;
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
