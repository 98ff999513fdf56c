/**
 * Baselines: a committed list of the findings a large repo already has, so CI gates only new v1
 * usage. A finding is identified by a fingerprint that survives line shifts: rule id, path (relative
 * to the baseline file's folder), a hash of its source line's trimmed text, and its occurrence index
 * among the file's findings with the same rule and line text.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { lazy } from '../util/lazy.js';
import type { Finding } from '../findings.js';
import type { FileResult, LinePrint, RunResult } from './types.js';
import { summarize } from './summary.js';
import { relativeFrom } from '../util/folders.js';

export interface BaselineEntry extends LinePrint {
  path: string;
}

export const BASELINE_VERSION = 1;

const baselineSchema = lazy(() =>
  z
    .object({
      version: z.literal(BASELINE_VERSION),
      tool: z.literal('v2-migrate').optional(),
      findings: z.array(z.object({ path: z.string(), ruleId: z.string(), lineHash: z.string(), occurrence: z.number().int().nonnegative() }).strict()),
    })
    .strict(),
);

export class BaselineError extends Error {}

/** First 16 hex digits of the SHA-256 of the trimmed line text. */
export function lineHash(lineText: string): string {
  return createHash('sha256').update(lineText.trim()).digest('hex').slice(0, 16);
}

/**
 * Line prints for `findings` of one file (any order), keyed by finding. `lines` are the file's lines
 * (see markers/splitLines). Occurrences count in (line, column) order.
 */
export function linePrints(findings: readonly Finding[], lines: readonly string[]): Map<Finding, LinePrint> {
  const ordered = [...findings].sort((a, b) => a.line - b.line || a.column - b.column || a.ruleId.localeCompare(b.ruleId) || a.message.localeCompare(b.message));
  const seen = new Map<string, number>();
  const out = new Map<Finding, LinePrint>();
  for (const f of ordered) {
    const hash = lineHash(lines[f.line - 1] ?? '');
    const key = `${f.ruleId}\0${hash}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    out.set(f, { ruleId: f.ruleId, lineHash: hash, occurrence });
  }
  return out;
}

export function fingerprintKey(e: BaselineEntry): string {
  return `${e.path}\0${e.ruleId}\0${e.lineHash}\0${e.occurrence}`;
}

/** A file's path as the baseline stores it: relative to the baseline's folder, with `/`. */
export function baselinePath(baselineFile: string, absPath: string): string {
  return relativeFrom(path.resolve(baselineFile), absPath);
}

function compareEntries(a: BaselineEntry, b: BaselineEntry): number {
  const s = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return s(a.path, b.path) || s(a.ruleId, b.ruleId) || s(a.lineHash, b.lineHash) || a.occurrence - b.occurrence;
}

/** The entries for a run's findings in the gate (marker-suppressed findings are not recorded). */
export function baselineEntries(result: RunResult, baselineFile: string): BaselineEntry[] {
  const entries: BaselineEntry[] = [];
  for (const r of result.results) {
    const rel = baselinePath(baselineFile, r.absPath);
    for (const f of [...r.findings, ...r.baselined]) {
      const print = r.prints.get(f);
      if (print) entries.push({ path: rel, ...print });
    }
  }
  return entries.sort(compareEntries);
}

/** The baseline file's text: stable (sorted, 2-space JSON, trailing newline) so it diffs well. */
export function formatBaseline(entries: readonly BaselineEntry[]): string {
  const sorted = [...entries].sort(compareEntries).map((e) => ({ path: e.path, ruleId: e.ruleId, lineHash: e.lineHash, occurrence: e.occurrence }));
  return JSON.stringify({ version: BASELINE_VERSION, tool: 'v2-migrate', findings: sorted }, null, 2) + '\n';
}

export function writeBaseline(file: string, result: RunResult): number {
  const entries = baselineEntries(result, file);
  fs.writeFileSync(file, formatBaseline(entries));
  return entries.length;
}

export interface Baseline {
  file: string;
  keys: ReadonlySet<string>;
}

export function readBaseline(file: string): Baseline {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new BaselineError(missing ? `${file}: baseline not found (create it with --update-baseline)` : `${file}: cannot read baseline (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = baselineSchema().safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new BaselineError(`${file}: not a v2-migrate baseline (${issue.path.join('.') || '(root)'}: ${issue.message})`);
  }
  return { file, keys: new Set(parsed.data.findings.map(fingerprintKey)) };
}

/** Move the findings the baseline knows out of the gate (into `baselined`), and recount. */
export function applyBaseline(result: RunResult, baseline: Baseline): RunResult {
  const results: FileResult[] = result.results.map((r) => {
    const rel = baselinePath(baseline.file, r.absPath);
    const findings: Finding[] = [];
    const baselined: Finding[] = [...r.baselined];
    for (const f of r.findings) {
      const print = r.prints.get(f);
      if (print && baseline.keys.has(fingerprintKey({ path: rel, ...print }))) baselined.push(f);
      else findings.push(f);
    }
    return { ...r, findings, baselined };
  });
  return { ...result, results, summary: summarize(results, result.summary.files), baseline: { file: baseline.file, entries: baseline.keys.size } };
}
