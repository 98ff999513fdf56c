import fg from 'fast-glob';
import ignore, { type Ignore } from 'ignore';
import fs from 'node:fs';
import path from 'node:path';
import { JS_EXTENSIONS, isEnvFile } from './kinds.js';

/** Folders never scanned, whatever .gitignore says. */
export const ALWAYS_SKIPPED_DIRS = ['node_modules', '.git', 'dist', 'build', 'coverage', 'vendor', '.v2-migrate-cache'];
const ALWAYS_IGNORED = [...ALWAYS_SKIPPED_DIRS.map((d) => `**/${d}/**`), '**/*.min.js'];
/** JS/TS sources and .env files: what the JS engine (with its project index) reads. */
export const DEFAULT_PATTERNS: readonly string[] = [`**/*.{${JS_EXTENSIONS.map((e) => e.slice(1)).join(',')}}`, '**/.env', '**/.env.*'];
const defaultAccepts = (file: string): boolean => (JS_EXTENSIONS as readonly string[]).includes(path.extname(file).toLowerCase()) || isEnvFile(file);

const toPosix = (p: string): string => p.split(path.sep).join('/');

/** The git work tree root containing `dir`, if any (where .gitignore files start to apply). */
function gitRoot(dir: string): string | null {
  let cur = dir;
  for (;;) {
    if (fs.existsSync(path.join(cur, '.git'))) return cur;
    const parent = path.dirname(cur);
    if (parent === cur) return null;
    cur = parent;
  }
}

/** .gitignore rules per folder, evaluated from the top folder down (deeper files win). */
class GitignoreStack {
  private readonly cache = new Map<string, Ignore | null>();
  constructor(private readonly top: string) {}

  private rulesIn(dir: string): Ignore | null {
    if (!this.cache.has(dir)) {
      const file = path.join(dir, '.gitignore');
      let rules: Ignore | null = null;
      try {
        rules = ignore().add(fs.readFileSync(file, 'utf8'));
      } catch {
        rules = null;
      }
      this.cache.set(dir, rules);
    }
    return this.cache.get(dir)!;
  }

  private readonly chains = new Map<string, Array<[string, Ignore]>>();

  /** The folders from the top down to `dir` that have a .gitignore, with their rules (cached per folder). */
  private chain(dir: string): Array<[string, Ignore]> {
    const cached = this.chains.get(dir);
    if (cached) return cached;
    const parent = path.dirname(dir);
    const above = dir === this.top || parent === dir ? [] : this.chain(parent);
    const rules = this.rulesIn(dir);
    const chain = rules ? [...above, [dir, rules] as [string, Ignore]] : above;
    this.chains.set(dir, chain);
    return chain;
  }

  ignores(file: string): boolean {
    let ignored = false;
    for (const [dir, rules] of this.chain(path.dirname(file))) {
      const result = rules.test(toPosix(path.relative(dir, file)));
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }
}

export interface DiscoverOptions {
  cwd: string;
  /** gitignore-style globs relative to `cwd` (config `ignore`). */
  ignore?: readonly string[];
  /** fast-glob patterns of the files to find under a folder (default: DEFAULT_PATTERNS). */
  patterns?: readonly string[];
  /** Whether a file named explicitly is taken (default: JS/TS and .env files). */
  accepts?: (file: string) => boolean;
}

/**
 * The JS/TS files under the given paths, sorted, honouring .gitignore files (nested too) and the
 * always-skipped folders. A file named explicitly is taken as long as it has a JS/TS extension.
 */
export async function discoverFiles(targets: readonly string[], options: DiscoverOptions): Promise<string[]> {
  const userIgnore = ignore().add([...(options.ignore ?? [])]);
  const found = new Set<string>();
  for (const target of targets) {
    const abs = path.resolve(options.cwd, target);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch {
      throw new Error(`no such file or directory: ${target}`);
    }
    if (stat.isFile()) {
      if ((options.accepts ?? defaultAccepts)(abs)) found.add(abs);
      continue;
    }
    const stack = new GitignoreStack(gitRoot(abs) ?? abs);
    const entries = await fg([...(options.patterns ?? DEFAULT_PATTERNS)], { cwd: abs, absolute: true, dot: true, onlyFiles: true, followSymbolicLinks: false, ignore: ALWAYS_IGNORED, suppressErrors: true });
    const accepts = options.accepts ?? defaultAccepts;
    for (const file of entries) {
      const normalized = path.sep === '/' ? file : path.normalize(file);
      if (!accepts(normalized)) continue;
      if (stack.ignores(normalized)) continue;
      const rel = toPosix(path.relative(options.cwd, normalized));
      if (!rel.startsWith('..') && rel && userIgnore.ignores(rel)) continue;
      found.add(normalized);
    }
  }
  return [...found].sort();
}
