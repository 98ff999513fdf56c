import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { lazy } from './util/lazy.js';
import { absolutePath, folderPrefix, onDisk, workTreeRoot, type HasEntry } from './util/folders.js';
import type { FoldersHolding } from './scan/discover.js';
import { fixedAdapterFile, isGeneratedAdapter } from './adapters/adapter-file.js';
import { errnoCode, treePlace, writeRefusal } from './run/write-guard.js';
import { GRAPHQL_URL, JOB_API_HOST, LEGACY_BASE_URL, TARGET_BASE_URL, stripTrailingSlash } from './map/hosts.js';
import { isRuleId, type RuleId } from './rules/registry.js';
import type { Severity } from './findings.js';
import type { Bases } from './url/shape.js';
import { AS_IF_ABSENT, parseJson, unparsableJson, type ReportMalformed } from './scan/malformed.js';

export const CONFIG_FILE = 'v2-migrate.config.json';

/** `v2-migrate.config.json` (or the `"v2-migrate"` key of package.json). Unknown keys are errors. */
function buildConfigSchema() {
  const url = z.string().url();
  const base = (kind: BaseKind) =>
    url.superRefine((value, ctx) => {
      const problem = baseUrlProblem(value, kind);
      if (problem) ctx.addIssue({ code: 'custom', message: `${value} ${problem}` });
    });
  const ruleSetting = z.enum(['off', 'error', 'warning', 'info']);
  // zod leaves a `__proto__` key out of a record (assigning it would set the prototype instead), so
  // `"rules": { "__proto__": "off" }` would pass with the key quietly gone: keys are checked as written.
  const record = <V extends z.ZodType>(value: V, keyProblem: (key: string) => string | null = () => null) =>
    z
      .unknown()
      .superRefine((input, ctx) => {
        if (typeof input !== 'object' || input === null) return;
        for (const key of Object.keys(input)) {
          const problem = keyProblem(key) ?? (key === '__proto__' ? 'a key named "__proto__" is not allowed (JavaScript reads it as the object\'s prototype)' : null);
          if (problem) ctx.addIssue({ code: 'custom', path: [key], message: problem });
        }
      })
      .pipe(z.record(z.string(), value));
  const schema = z
    .object({
      legacyBaseUrls: z.array(base('legacy')).optional().describe('Extra v1 base URLs (proxies); RunPod’s own is always included.'),
      baseUrl: base('target').optional().describe('The v2 base URL to write (default https://api.runpod.io/v2).'),
      ignore: z.array(z.string()).optional().describe('gitignore-style globs of files to skip.'),
      maxFileSizeMB: z.number().positive().optional().describe('Files larger than this are scanned as text only, not parsed (default 2).'),
      gpuPools: record(z.string().min(1))
        .optional()
        .describe('GPU type name → v2 serverless pool id (e.g. "NVIDIA GeForce RTX 4090": "ADA_24"), for endpoint gpuTypeIds.'),
      preserveV1Defaults: z.boolean().optional().describe('Write the v1 defaults (ports, storage, name) out explicitly on creates instead of warning.'),
      adapters: z
        .union([z.literal(false), z.strictObject({ file: z.string().min(1).optional().describe('Where the generated adapter file goes, relative to this config (default: next to the code that uses it).') })])
        .optional()
        .describe('Bodies built at run time are wrapped in generated v1 → v2 adapters; false holds such requests on v1 instead.'),
      wrappers: z
        .array(
          z.strictObject({
            name: z.string().min(1).describe('Function or method name (`runpodRequest`, `client.call`: the last part is matched).'),
            path: z.number().int().min(0).describe('Argument position of the path (relative to the v1 base).'),
            method: z.number().int().min(0).optional().describe('Argument position of the HTTP method (default: GET).'),
            body: z.number().int().min(0).optional().describe('Argument position of the JSON body (an object the wrapper serializes).'),
          }),
        )
        .optional()
        .describe('Wrappers defined where the tool cannot see them (another package): calls to them are migrated like requests.'),
      rules: record(ruleSetting, (id) => (isRuleId(id) ? null : `unknown rule id "${id}"`))
        .optional()
        .describe('Per-rule "off" or a severity.'),
    })
    .strict();
  // ConfigFile is written out for the published types; this keeps it the schema's exact shape.
  true satisfies SameShape<z.infer<typeof schema>, ConfigFile>;
  return { schema };
}

type BaseKind = 'legacy' | 'target';

/** true when A and B have the same keys and each is assignable to the other. */
type SameShape<A, B> = [keyof A, A] extends [keyof B, B] ? ([keyof B, B] extends [keyof A, A] ? true : false) : false;

/**
 * Why a URL cannot be a base of this kind, or null when it can: a legacy base is a REST v1 base to move
 * off, the target the v2 base to write. Both must be http(s) with no query or fragment, and neither may
 * be an API v2-migrate never rewrites (the serverless job API, GraphQL).
 */
export function baseUrlProblem(value: string, kind: BaseKind): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'is not an http(s) URL';
  // In a URL that parses, the first ? or # starts its query or fragment (a path holds neither unescaped).
  const suffix = value.search(/[?#]/);
  if (suffix >= 0) return `has a ${value[suffix] === '?' ? 'query string' : 'fragment'} (${value.slice(suffix)}): request paths are appended to a base, so it cannot carry one`;
  if (url.hostname === JOB_API_HOST) return `is the serverless job API (${JOB_API_HOST}), which v2-migrate never rewrites`;
  const bare = stripTrailingSlash(value);
  if (bare === GRAPHQL_URL || bare.startsWith(`${GRAPHQL_URL}/`)) return "is RunPod's GraphQL API, which v2-migrate never rewrites";
  if (kind === 'legacy' && bare === TARGET_BASE_URL) return 'is the REST v2 base: legacy bases are the v1 ones to move off';
  if (kind === 'target' && bare === LEGACY_BASE_URL) return 'is the retired REST v1 base: the base to write is a v2 one';
  return null;
}

/** The schema is built only when there is a config to check. */
const configSchema = lazy(buildConfigSchema);

/**
 * A config file's content, as the schema above checks it (written out, not inferred from the schema,
 * so the published types need no zod).
 */
export interface ConfigFile {
  legacyBaseUrls?: string[];
  baseUrl?: string;
  ignore?: string[];
  maxFileSizeMB?: number;
  gpuPools?: Record<string, string>;
  preserveV1Defaults?: boolean;
  adapters?: false | { file?: string };
  wrappers?: DeclaredWrapper[];
  rules?: Record<string, 'off' | 'error' | 'warning' | 'info'>;
}

export class ConfigError extends Error {}

/** A wrapper the config declares: where its path, method and body arguments are. */
export interface DeclaredWrapper {
  name: string;
  path: number;
  method?: number;
  body?: number;
}

/** Settings for one run, after config file and flags are merged. */

export interface Settings {
  bases: Bases;
  gpuPools: Readonly<Record<string, string>>;
  preserveV1Defaults: boolean;
  /** Run-time body adapters: off, or on with an optional fixed file (absolute; null = next to the code). */
  adapters: false | { file: string | null };
  wrappers: readonly DeclaredWrapper[];
  ignore: string[];
  /** Files larger than this many MB are scanned as text only. */
  maxFileSizeMB: number;
  rules: Partial<Record<RuleId, Severity | 'off'>>;
  /** Where the config came from, for messages. */
  configFile: string | null;
}

function formatIssues(error: z.ZodError, file: string): string {
  return error.issues.map((i) => `${file}: ${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('\n');
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file}: cannot read config (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = parseJson(text);
  if ('error' in parsed) throw new ConfigError(`${file}: cannot read config (${parsed.error})`);
  return parsed.data;
}

/** Nearest `v2-migrate.config.json`, or package.json with a "v2-migrate" key, from `dir` upwards. */
type FoundConfig = { file: string; data: unknown } | null;

/**
 * A config candidate read without failing the run: null (with the problem reported) when it cannot
 * be read, does not parse, or holds an invalid config. A package.json that does not parse may have
 * held one: it counts as ours when its text names the key.
 */
function readLeniently(file: string, report: ReportMalformed): { data: unknown } | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    report({ file, message: `This ${path.basename(file)} cannot be read (${error instanceof Error ? error.message : String(error)}): ${AS_IF_ABSENT}`, line: 1, column: 1, ours: path.basename(file) === CONFIG_FILE });
    return null;
  }
  const parsed = parseJson(text);
  if ('error' in parsed) {
    report(unparsableJson(file, text, parsed, path.basename(file) === CONFIG_FILE));
    return null;
  }
  const isPackage = path.basename(file) === 'package.json';
  const data = parsed.data as Record<string, unknown> | null;
  const config = isPackage ? (data && typeof data === 'object' && 'v2-migrate' in data ? data['v2-migrate'] : undefined) : data;
  if (config === undefined) return parsed;
  const valid = configSchema().schema.safeParse(config);
  if (valid.success) return parsed;
  const issues = valid.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
  report({ file, message: `This ${isPackage ? 'package.json "v2-migrate" config' : 'v2-migrate config'} is invalid (${issues}): ${AS_IF_ABSENT}`, line: 1, column: 1, ours: true });
  return isPackage ? { data: Object.fromEntries(Object.entries(data!).filter(([k]) => k !== 'v2-migrate')) } : null;
}

/**
 * The config that applies in `dir` (absolute and normalized), from there up. `cache` remembers the
 * answer for every folder walked through, so a monorepo pays once per folder.
 * With `lenient`, a candidate that cannot be used is reported there and passed over; without it (the
 * root of the run, --config) it is a ConfigError.
 */
export function findConfig(dir: string, cache: Map<string, FoundConfig> = new Map(), has: HasEntry = onDisk, lenient?: ReportMalformed): FoundConfig {
  const walked: string[] = [];
  let cur = dir;
  const done = (found: FoundConfig): FoundConfig => {
    for (const d of walked) cache.set(d, found);
    return found;
  };
  const read = (file: string): { data: unknown } | null => (lenient ? readLeniently(file, lenient) : { data: readJson(file) });
  for (;;) {
    if (cache.has(cur)) return done(cache.get(cur)!);
    walked.push(cur);
    if (has(cur, CONFIG_FILE)) {
      const candidate = path.join(cur, CONFIG_FILE);
      const config = read(candidate);
      if (config) return done({ file: candidate, data: config.data });
    }
    if (has(cur, 'package.json')) {
      const own = manifestConfig(path.join(cur, 'package.json'), read);
      if (own) return done(own);
    }
    const parent = path.dirname(cur);
    if (parent === cur) return done(null);
    cur = parent;
  }
}

/** The config a package.json holds under its "v2-migrate" key, if any. */
function manifestConfig(pkg: string, read: (file: string) => { data: unknown } | null): FoundConfig {
  const data = read(pkg)?.data;
  return data && typeof data === 'object' && 'v2-migrate' in data ? { file: `${pkg}#v2-migrate`, data: data['v2-migrate'] } : null;
}

/**
 * Whether a folder below `root` holds a config (a v2-migrate.config.json, or a package.json with a
 * "v2-migrate" key): where none does, settings are the same for every file below `root`. True when
 * `holding` cannot say. A package.json that cannot be used goes to `report`, as findConfig reports it.
 */
export function configBelow(root: string, holding: FoldersHolding, report: ReportMalformed): boolean {
  const configs = holding(CONFIG_FILE);
  const manifests = holding('package.json');
  if (!configs || !manifests) return true;
  const below = (dir: string): boolean => dir.startsWith(folderPrefix(root));
  return [...configs].some(below) || [...manifests].some((dir) => below(dir) && manifestConfig(path.join(dir, 'package.json'), (file) => readLeniently(file, report)) !== null);
}

export interface SettingsFlags {
  config?: string;
  legacyBaseUrl?: string[];
  baseUrl?: string;
  /** Folder the config search starts from (the first target path). */
  searchFrom: string;
  /**
   * The folder the run writes in (see run/write-guard.ts): a config's `adapters.file` must lie in it.
   * Default: the git work tree of the config's folder, or that folder outside git.
   */
  root?: string;
}

export function loadSettings(flags: SettingsFlags): Settings {
  const found = flags.config ? { file: path.resolve(flags.config), data: readJson(path.resolve(flags.config)) } : findConfig(path.resolve(flags.searchFrom));
  return settingsFrom(found, flags);
}

/**
 * Settings per file for a monorepo: each file gets the nearest config above it (found once per
 * folder), so a package's own v2-migrate.config.json applies to its files. With --config, one
 * config applies everywhere.
 */
export function settingsResolver(flags: SettingsFlags, root: Settings): (file: string, has?: HasEntry, report?: ReportMalformed) => Settings {
  if (flags.config) return () => root;
  const configs = new Map<string, FoundConfig>();
  const byDir = new Map<string, Settings>();
  const byConfig = new Map<string | null, Settings>([[root.configFile, root]]);
  // The root's own config was read strictly by loadSettings: a config found below it that cannot be
  // used is reported and passed over, never an error that stops the run.
  return (file, has = onDisk, report = () => {}) => {
    const dir = path.dirname(absolutePath(file));
    let settings = byDir.get(dir);
    if (!settings) {
      const found = findConfig(dir, configs, has, report);
      const key = found?.file ?? null;
      settings = byConfig.get(key);
      if (!settings) {
        settings = settingsFrom(found, flags);
        byConfig.set(key, settings);
      }
      byDir.set(dir, settings);
    }
    return settings;
  };
}

function settingsFrom(found: { file: string; data: unknown } | null, flags: SettingsFlags): Settings {
  let config: ConfigFile = {};
  if (found) {
    const parsed = configSchema().schema.safeParse(found.data);
    if (!parsed.success) throw new ConfigError(formatIssues(parsed.error, found.file));
    config = parsed.data;
  }
  const flagged: Array<[string, string, BaseKind]> = [...(flags.legacyBaseUrl ?? []).map((u): [string, string, BaseKind] => ['--legacy-base-url', u, 'legacy']), ...(flags.baseUrl !== undefined ? [['--base-url', flags.baseUrl, 'target'] as [string, string, BaseKind]] : [])];
  for (const [flag, u, kind] of flagged) {
    const problem = baseUrlProblem(u, kind);
    if (problem) throw new ConfigError(`${flag}: ${u || '(empty)'} ${problem}`);
  }
  const legacy = [...new Set([LEGACY_BASE_URL, ...(config.legacyBaseUrls ?? []), ...(flags.legacyBaseUrl ?? [])].map(stripTrailingSlash))];
  const target = stripTrailingSlash(flags.baseUrl ?? config.baseUrl ?? TARGET_BASE_URL);
  if (legacy.includes(target)) throw new ConfigError(`${target} is both the v2 base to write and a legacy base to move off${found ? ` (see ${found.file})` : ''}`);
  return {
    bases: { legacy, target },
    gpuPools: config.gpuPools ?? {},
    preserveV1Defaults: config.preserveV1Defaults ?? false,
    adapters: config.adapters === false ? false : { file: config.adapters?.file && found ? placedAdapterFile(found.file, config.adapters.file, flags.root) : null },
    wrappers: config.wrappers ?? [],
    ignore: config.ignore ?? [],
    maxFileSizeMB: config.maxFileSizeMB ?? 2,
    rules: (config.rules ?? {}) as Settings['rules'],
    configFile: found?.file ?? null,
  };
}

/**
 * A config's `adapters.file`, resolved against the config's folder. A config is the repository's
 * (see run/write-guard.ts): the file it stands for (`.ts` or `.mjs`) must lie in the folder the run
 * writes in, outside .git, and be new or an adapter file v2-migrate generated, never a file of the
 * project that the adapter module would replace.
 */
function placedAdapterFile(configFile: string, file: string, root: string | undefined): string {
  const dir = path.dirname(configFile.replace(/#v2-migrate$/, ''));
  const resolved = path.resolve(dir, file);
  const place = treePlace(root ?? workTreeRoot(dir) ?? dir);
  for (const written of new Set([fixedAdapterFile(resolved, 'ts'), fixedAdapterFile(resolved, 'js')])) {
    const problem = writeRefusal(written, place) ?? (isOtherFile(written) ? 'exists and is not an adapter file v2-migrate generated (the adapter module would replace it)' : null);
    if (problem) throw new ConfigError(`${configFile}: adapters.file: ${JSON.stringify(file)}: ${written} ${problem}`);
  }
  return resolved;
}

/** Whether something other than a generated adapter file is at `file`. */
function isOtherFile(file: string): boolean {
  try {
    return !isGeneratedAdapter(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    return errnoCode(error) !== 'ENOENT';
  }
}
