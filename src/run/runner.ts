import fs from 'node:fs';
import path from 'node:path';
import type { Finding, Severity } from '../findings.js';
import { compareFindings } from '../findings.js';
import type { Settings } from '../config.js';
import { migrateSource } from '../js/migrate.js';
import { parseMarkers, partitionFindings, splitLines, type MarkerKind, type MarkerProblem } from '../markers/index.js';
import { RULES, type RuleId } from '../rules/registry.js';
import { discoverFiles } from '../scan/discover.js';
import { makePrefilter } from '../scan/prefilter.js';
import { scanInventory, isEmptyInventory, type Inventory } from '../scan/inventory.js';
import type { LinePrint } from './baseline.js';
import { linePrints } from './baseline.js';
import { decode, encode } from './files.js';

/** A finding a marker comment took out of the gate. */
export type SuppressedFinding = Finding & { marker: MarkerKind };

/** What happened to one file. */
export interface FileResult {
  /** Relative to the current directory, with `/`. */
  path: string;
  absPath: string;
  /** The file's content changes (or would, in a dry run). */
  changed: boolean;
  /** Findings in the gate: counted for exit codes and summaries. */
  findings: Finding[];
  /** Findings marked in the source (`v2-migrate-ignore`, `v2-migrate-keep-v1`): reported apart, never counted. */
  suppressed: SuppressedFinding[];
  /** Findings the `--baseline` file already knows (filled by applyBaseline): counted apart, not listed. */
  baselined: Finding[];
  /** Baseline fingerprints (without the path) of this file's findings, suppressed ones included. */
  prints: Map<Finding, LinePrint>;
  /** Marker comments that cannot do what they say (an unknown rule id, an unclosed region). */
  markerProblems: MarkerProblem[];
  /** Which RunPod APIs the file's text mentions (null when it mentions none). */
  inventory: Inventory | null;
  /** Present when `changed`: the text before and after (BOM excluded) and the bytes to write. */
  before?: string;
  after?: string;
  bytes?: Buffer;
}

export interface RunSummary {
  files: number;
  changed: number;
  errors: number;
  warnings: number;
  infos: number;
  /** Marked false positives (`v2-migrate-ignore`). */
  ignored: number;
  /** Legacy kept on purpose (`v2-migrate-keep-v1`). */
  kept: number;
  /** Known to the `--baseline` file. */
  baselined: number;
}

export interface RunResult {
  /**
   * Files with findings (in the gate, suppressed or baselined), changes, or a RunPod API mention
   * (inventory), in path order. Reporters list only what concerns them.
   */
  results: FileResult[];
  summary: RunSummary;
  /** Set when a baseline was applied. */
  baseline?: { file: string; entries: number };
}

function fileFinding(ruleId: RuleId, message: string): Finding {
  return { ruleId, severity: RULES[ruleId].severity, line: 1, column: 1, message, fixable: false };
}

/** Apply per-rule settings: drop findings of rules turned off, override severities. */
function applyRuleSettings(findings: Finding[], rules: Settings['rules']): Finding[] {
  const out: Finding[] = [];
  for (const f of findings) {
    const setting = rules[f.ruleId];
    if (setting === 'off') continue;
    out.push(setting ? { ...f, severity: setting as Severity } : f);
  }
  return out;
}

/** Analyse one file. Never throws: unreadable or strange files become findings. */
export function processFile(absPath: string, cwd: string, settings: Settings, mayMatter: (text: string) => boolean): FileResult {
  const rel = path.relative(cwd, absPath).split(path.sep).join('/');
  const base: FileResult = { path: rel, absPath, changed: false, findings: [], suppressed: [], baselined: [], prints: new Map(), markerProblems: [], inventory: null };
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(absPath);
  } catch (error) {
    return { ...base, ...settle(absPath, '', [fileFinding('skipped-file', `Could not read this file (${(error as NodeJS.ErrnoException).code ?? String(error)}).`)]) };
  }
  // The prefilter works on bytes decoded leniently, so strange files that cannot matter stay silent.
  const lenient = bytes.toString('latin1');
  const inventory = scanInventory(lenient, settings.bases);
  if (!isEmptyInventory(inventory)) base.inventory = inventory;
  if (!mayMatter(lenient)) return base;
  const decoded = decode(bytes);
  if (decoded.kind !== 'text') {
    const why = decoded.kind === 'binary' ? 'it looks binary' : 'it is not valid UTF-8';
    return { ...base, ...settle(absPath, '', [fileFinding('skipped-file', `Skipped: ${why}, so it was not analysed or changed; migrate any RunPod v1 URLs in it by hand.`)]) };
  }
  let result;
  try {
    result = migrateSource(decoded.text, absPath, { bases: settings.bases });
  } catch (error) {
    return { ...base, ...settle(absPath, decoded.text, [fileFinding('internal-error', `v2-migrate failed on this file (${error instanceof Error ? error.message : String(error)}); it was left unchanged. Please report this.`)]) };
  }
  const settled = settle(absPath, decoded.text, applyRuleSettings(result.findings, settings.rules).sort(compareFindings));
  if (result.output === null) return { ...base, ...settled };
  return { ...base, ...settled, changed: true, before: decoded.text, after: result.output, bytes: encode(result.output, decoded.bom) };
}

/**
 * What the file's own text decides once an engine has produced its findings: markers take findings
 * out of the gate, and every finding gets its baseline fingerprint.
 */
export function settle(file: string, text: string, findings: Finding[]): Pick<FileResult, 'findings' | 'suppressed' | 'prints' | 'markerProblems'> {
  if (!findings.length) return { findings, suppressed: [], prints: new Map(), markerProblems: [] };
  const markers = parseMarkers(text, file);
  const { active, ignored, kept } = partitionFindings(findings, markers);
  const prints = linePrints(findings, splitLines(text, file));
  const mark = (f: Finding, marker: MarkerKind): SuppressedFinding => {
    const s = { ...f, marker };
    prints.set(s, prints.get(f)!);
    return s;
  };
  const suppressed = [...ignored.map((f) => mark(f, 'ignore')), ...kept.map((f) => mark(f, 'keep-v1'))].sort(compareFindings);
  return { findings: active, suppressed, prints, markerProblems: [...markers.problems] };
}

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

/** Discover and analyse every file under `targets`. Results are in path order; nothing is written here. */
export async function run(targets: readonly string[], cwd: string, settings: Settings): Promise<RunResult> {
  const files = await discoverFiles(targets, { cwd, ignore: settings.ignore });
  const mayMatter = makePrefilter(settings.bases);
  const results = files.map((f) => processFile(f, cwd, settings, mayMatter)).filter((r) => r.changed || r.findings.length || r.suppressed.length || r.inventory);
  return { results, summary: summarize(results, files.length) };
}
