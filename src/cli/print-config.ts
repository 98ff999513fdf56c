import path from 'node:path';
import type { Settings } from '../config.js';
import { RULES, RULE_IDS, type RuleId } from '../rules/registry.js';

/**
 * `--print-config <file>`: the settings that apply to one file once config files and flags are
 * merged, in the config file's own keys (every rule listed with its effective setting), as JSON.
 */
export function printedConfig(file: string, settings: Settings, only: ReadonlySet<RuleId> | null, cwd: string): string {
  const rules = Object.fromEntries(RULE_IDS.map((id) => [id, only && !only.has(id) ? 'off' : (settings.rules[id] ?? RULES[id].severity)]));
  const config = {
    file: rel(cwd, file),
    configFile: settings.configFile ? rel(cwd, settings.configFile) : null,
    legacyBaseUrls: settings.bases.legacy,
    baseUrl: settings.bases.target,
    ignore: settings.ignore,
    maxFileSizeMB: settings.maxFileSizeMB,
    gpuPools: settings.gpuPools,
    preserveV1Defaults: settings.preserveV1Defaults,
    adapters: settings.adapters === false ? false : settings.adapters.file ? { file: rel(cwd, settings.adapters.file) } : {},
    wrappers: settings.wrappers,
    rules,
  };
  return JSON.stringify(config, null, 2) + '\n';
}

const rel = (cwd: string, file: string): string => path.relative(cwd, file).split(path.sep).join('/') || '.';
