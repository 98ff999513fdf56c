import { isRuleId, RULE_IDS, type RuleId } from '../rules/registry.js';
import { checkCacheLocation } from './cache-location.js';
import { UsageError } from './usage.js';

/** Options that take a value: given empty (`--base-url=`, `--config ""`), each is a usage error. */
const VALUE_FLAGS = ['config', 'base-url', 'legacy-base-url', 'baseline', 'changed-since', 'cache-location', 'shard', 'output-file', 'ignore-pattern', 'stdin-filename', 'print-config', 'rule', 'max-warnings', 'jobs', 'format'];

const camel = (flag: string): string => flag.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/**
 * Flag values yargs accepts but the tool cannot use. URLs are checked with the config (config.ts
 * baseUrlProblem), where the flags meet the config file's values.
 */
export function checkFlags(args: Record<string, unknown>): void {
  for (const flag of VALUE_FLAGS) {
    const value = args[camel(flag)];
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      if (typeof v === 'string' && !v.trim()) throw new UsageError(`--${flag} needs a value (got an empty one)`);
    }
  }
  if (args.maxWarnings !== undefined) maxWarningsOf(args.maxWarnings);
  if (args.jobs !== undefined) jobsOf(args.jobs);
  const stdin = args.stdin === true;
  if (stdin && !args.stdinFilename) throw new UsageError('--stdin needs --stdin-filename <path>: the file the text stands for (its extension picks the language, its folder the config and the files it imports)');
  if (!stdin && args.stdinFilename !== undefined) throw new UsageError('--stdin-filename names the text read with --stdin: add --stdin');
  if (stdin) {
    if (Array.isArray(args.paths) && args.paths.length) throw new UsageError(`--stdin reads one file's text from standard input: drop the paths (${args.paths.join(' ')})`);
    for (const flag of ['update-baseline', 'changed-since', 'shard'] as const) {
      if (args[camel(flag)] !== undefined && args[camel(flag)] !== false) throw new UsageError(`--stdin cannot be combined with --${flag}`);
    }
  }
  if (args.updateBaseline === true && ruleSelection(args.rule)) throw new UsageError('--update-baseline records every finding: drop --rule');
  if (args.cache === true && typeof args.cacheLocation === 'string') {
    const paths = Array.isArray(args.paths) ? args.paths.filter((p): p is string => typeof p === 'string') : [];
    checkCacheLocation(args.cacheLocation, paths.length ? paths : ['.'], process.cwd());
  }
}

/** `--max-warnings`: a whole number, or -1 for no limit. */
export function maxWarningsOf(value: unknown): number {
  const text = String(value).trim();
  if (!/^-?\d+$/.test(text) || Number(text) < -1) throw new UsageError(`--max-warnings must be a whole number, or -1 for no limit (got "${String(value)}")`);
  return Number(text);
}

/** `--jobs`: a whole number of at least 1. */
export function jobsOf(value: unknown): number {
  const text = String(value).trim();
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new UsageError(`--jobs must be a whole number of at least 1 (got "${String(value)}")`);
  return Number(text);
}

/** `--rule a --rule b,c`: the rules chosen, or null for all. Unknown ids are usage errors with the closest id. */
export function ruleSelection(values: unknown): Set<RuleId> | null {
  const ids = (Array.isArray(values) ? values : []).flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter(Boolean);
  if (!ids.length) return null;
  for (const id of ids) if (!isRuleId(id)) throw new UsageError(`--rule: unknown rule id "${id}". Run v2-migrate rules to list them: ${RULE_IDS.join(', ')}.`);
  return new Set(ids as RuleId[]);
}
