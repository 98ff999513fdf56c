/**
 * jscodeshift entry point: `npx jscodeshift -t node_modules/v2-migrate/dist/transforms/v1-to-v2.js src/`.
 * Runs the same rules as the CLI on one file. Options: `--legacyBaseUrl=<url>` (repeatable or
 * comma-separated) and `--baseUrl=<url>`. Findings are printed through jscodeshift's `report`.
 */
import type { API, FileInfo, Options } from 'jscodeshift';
import { LEGACY_BASE_URL, TARGET_BASE_URL, stripTrailingSlash } from '../src/map/hosts.js';
import { migrateSource } from '../src/js/migrate.js';

/** jscodeshift's own parser choice; the transform parses each file itself by its extension. */
export const parser = 'tsx';

function list(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(',')).filter(Boolean);
}

export default function transform(file: FileInfo, api: API, options: Options): string | undefined {
  const legacy = [LEGACY_BASE_URL, ...list(options.legacyBaseUrl)].map(stripTrailingSlash);
  const target = stripTrailingSlash(typeof options.baseUrl === 'string' ? options.baseUrl : TARGET_BASE_URL);
  // One file at a time cannot write the generated adapter file: bodies built at run time stay on v1 with a finding.
  const result = migrateSource(file.source, file.path, { bases: { legacy, target }, adapters: false });
  for (const f of result.findings) {
    if (!f.fixable) api.report(`${file.path}:${f.line}:${f.column} ${f.severity} ${f.ruleId}: ${f.message}`);
  }
  return result.output ?? undefined;
}
