/**
 * jscodeshift entry point: `npx jscodeshift -t node_modules/v2-migrate/dist/transforms/v1-to-v2.cjs src/`.
 * Options: `--legacyBaseUrl=<url>` (repeatable or comma-separated), `--baseUrl=<url>`, `--config=<file>`.
 * Findings are printed through jscodeshift's `report`.
 *
 * jscodeshift hands over one file at a time, but a migration often spans files (a base in config.ts,
 * its paths in fetcher.ts). So each worker analyses the project it runs in (the current folder) once,
 * exactly as `v2-migrate --dry-run` would, and gives every file the text that analysis gives it, but
 * only when the file's change stands alone: a change that must move together with other files (its
 * write group: the import component, a generated adapter file) is refused with a report naming them,
 * never half-applied.
 */
import path from 'node:path';
import type { API, FileInfo, Options } from 'jscodeshift';
import { loadSettings, settingsResolver, type SettingsFlags } from '../src/config.js';
import { run } from '../src/run/runner.js';
import type { FileResult } from '../src/run/types.js';

/** jscodeshift's own parser choice; the transform parses each file itself by its extension. */
export const parser = 'tsx';

function list(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(',')).filter(Boolean);
}

/** One analysis per project folder and options, shared by the files a worker is given. */
const analyses = new Map<string, Promise<Map<string, FileResult>>>();

function analyse(root: string, options: Options): Promise<Map<string, FileResult>> {
  const flags: SettingsFlags = {
    searchFrom: root,
    ...(typeof options.config === 'string' ? { config: path.resolve(root, options.config) } : {}),
    ...(options.legacyBaseUrl !== undefined ? { legacyBaseUrl: list(options.legacyBaseUrl) } : {}),
    ...(typeof options.baseUrl === 'string' ? { baseUrl: options.baseUrl } : {}),
  };
  const key = JSON.stringify([root, flags]);
  let analysis = analyses.get(key);
  if (!analysis) {
    const settings = loadSettings(flags);
    analysis = run([root], root, settings, { settingsFor: settingsResolver(flags, settings) }).then((r) => new Map(r.results.map((x) => [x.absPath, x])));
    analyses.set(key, analysis);
  }
  return analysis;
}

export default async function transform(file: FileInfo, api: API, options: Options): Promise<string | undefined> {
  const root = process.cwd();
  const abs = path.resolve(root, file.path);
  const results = await analyse(root, options);
  const r = results.get(abs);
  if (!r) return undefined;
  const where = (line: number, column: number) => `${file.path}:${line}:${column}`;
  for (const f of r.findings) if (!f.fixable) api.report(`${where(f.line, f.column)} ${f.severity} ${f.ruleId}: ${f.message}`);
  if (!r.changed || r.after === undefined) return undefined;
  if (r.before !== file.source) {
    api.report(`${file.path}: not rewritten: the file is not the text v2-migrate analysed (another transform or an edit changed it); run v2-migrate on it.`);
    return undefined;
  }
  const partners = [...results.values()].filter((o) => o.changed && o !== r && o.writeGroup !== undefined && o.writeGroup === r.writeGroup);
  if (partners.length) {
    const names = partners.map((o) => path.relative(root, o.absPath).split(path.sep).join('/'));
    api.report(`${file.path}: not rewritten: its change must move together with ${names.join(', ')}, and jscodeshift writes one file at a time; run npx v2-migrate on the project instead.`);
    return undefined;
  }
  return r.after;
}
