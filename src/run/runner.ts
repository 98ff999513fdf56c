import fs from 'node:fs';
import path from 'node:path';
import type { Finding, Severity } from '../findings.js';
import { compareFindings } from '../findings.js';
import type { Settings } from '../config.js';
import { migrateSource } from '../js/migrate.js';
import { RULES, type RuleId } from '../rules/registry.js';
import { discoverFiles } from '../scan/discover.js';
import { makePrefilter } from '../scan/prefilter.js';
import { decode, encode } from './files.js';

/** What happened to one file. */
export interface FileResult {
  /** Relative to the current directory, with `/`. */
  path: string;
  absPath: string;
  /** The file's content changes (or would, in a dry run). */
  changed: boolean;
  findings: Finding[];
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
}

export interface RunResult {
  results: FileResult[];
  summary: RunSummary;
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
  const base: FileResult = { path: rel, absPath, changed: false, findings: [] };
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(absPath);
  } catch (error) {
    return { ...base, findings: [fileFinding('skipped-file', `Could not read this file (${(error as NodeJS.ErrnoException).code ?? String(error)}).`)] };
  }
  // The prefilter works on bytes decoded leniently, so strange files that cannot matter stay silent.
  if (!mayMatter(bytes.toString('latin1'))) return base;
  const decoded = decode(bytes);
  if (decoded.kind !== 'text') {
    const why = decoded.kind === 'binary' ? 'it looks binary' : 'it is not valid UTF-8';
    return { ...base, findings: [fileFinding('skipped-file', `Skipped: ${why}, so it was not analysed or changed; migrate any RunPod v1 URLs in it by hand.`)] };
  }
  let result;
  try {
    result = migrateSource(decoded.text, absPath, { bases: settings.bases });
  } catch (error) {
    return { ...base, findings: [fileFinding('internal-error', `v2-migrate failed on this file (${error instanceof Error ? error.message : String(error)}); it was left unchanged. Please report this.`)] };
  }
  const findings = applyRuleSettings(result.findings, settings.rules).sort(compareFindings);
  if (result.output === null) return { ...base, findings };
  return { ...base, changed: true, findings, before: decoded.text, after: result.output, bytes: encode(result.output, decoded.bom) };
}

export function summarize(results: readonly FileResult[], scanned: number): RunSummary {
  const all = results.flatMap((r) => r.findings);
  return {
    files: scanned,
    changed: results.filter((r) => r.changed).length,
    errors: all.filter((f) => f.severity === 'error').length,
    warnings: all.filter((f) => f.severity === 'warning').length,
    infos: all.filter((f) => f.severity === 'info').length,
  };
}

/** Discover and analyse every file under `targets`. Results are in path order; nothing is written here. */
export async function run(targets: readonly string[], cwd: string, settings: Settings): Promise<RunResult> {
  const files = await discoverFiles(targets, { cwd, ignore: settings.ignore });
  const mayMatter = makePrefilter(settings.bases);
  const results = files.map((f) => processFile(f, cwd, settings, mayMatter)).filter((r) => r.changed || r.findings.length);
  return { results, summary: summarize(results, files.length) };
}
