import path from 'node:path';
import type { NapiResolveOptions, ResolverFactory } from 'oxc-resolver';
import { requireDependency } from '../util/lazy.js';
import type { HasEntry } from '../util/folders.js';
import { FIX_OR_TURN_OFF, type ReportMalformed } from './malformed.js';
import { nearestManifest, packageTargets, packageName, type Manifest, type Workspaces } from './workspaces.js';

export { readWorkspaces, type Workspaces } from './workspaces.js';

/** TypeScript's extensions first: `./x` is x.ts before x.js, as tsc and bundlers read it. */
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

const OPTIONS: NapiResolveOptions = {
  extensions: EXTENSIONS,
  // TypeScript's ESM convention: `import './x.js'` names the x.ts it compiles to x.js.
  extensionAlias: { '.js': ['.ts', '.tsx', '.js', '.jsx'], '.mjs': ['.mts', '.mjs'], '.cjs': ['.cts', '.cjs'], '.jsx': ['.tsx', '.jsx'] },
  conditionNames: ['source', 'types', 'import', 'require', 'node', 'default'],
  mainFields: ['source', 'module', 'main'],
  // Never into node_modules: installed packages are not files of the run (a tsconfig's `extends` of
  // a package still resolves: the resolver looks that up on its own).
  modules: [],
  // Paths stay as the run names them (a symlinked checkout would otherwise resolve outside it).
  symlinks: false,
  nodePath: false,
};

const STEM_EXTENSION = /(\.d)?\.(m|c)?(j|t)sx?$/;
/**
 * A test of whether a specifier could resolve to one of `targets`: false only where no resolution of
 * this module's resolver can reach one, so a caller may skip resolving it. A relative specifier
 * reaches a file by its own name (`./client`, `./client.js` naming client.ts, a `dist/` path mapped to
 * `src/`), a folder's index file by the folder's name (`./lib`, `./lib/`, `.`), or anything through a
 * folder's package.json (`packageFolders`: the names of the run's folders that hold one). Any other
 * specifier (tsconfig `paths`, a workspace package, `#imports`) may name anything. Names are compared
 * in lower case, as a case-insensitive file system resolves them.
 */
export function mayNameOneOf(targets: Iterable<string>, packageFolders: ReadonlySet<string>): (from: string, spec: string) => boolean {
  const stems = new Set<string>();
  const folders = new Set(packageFolders);
  for (const file of targets) {
    const stem = path.basename(file).toLowerCase().replace(STEM_EXTENSION, '');
    stems.add(stem);
    if (stem === 'index') folders.add(path.basename(path.dirname(file)).toLowerCase());
  }
  return (from, spec) => {
    if (!isRelative(spec)) return true;
    const last = spec.slice(spec.lastIndexOf('/') + 1).toLowerCase();
    // `./lib/`, `.` and `..` name a folder only.
    if (last === '' || last === '.' || last === '..') return folders.has(path.basename(path.resolve(path.dirname(from), spec)).toLowerCase());
    return folders.has(last) || stems.has(last.includes('.') ? last.replace(STEM_EXTENSION, '') : last);
  };
}

const isRelative = (spec: string): boolean => spec === '.' || spec === '..' || spec.startsWith('./') || spec.startsWith('../');

/** The config files TypeScript reads for a folder, nearest first. */
const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];

/** Folders whose files are build output: a path into one is looked for in `src/` instead. */
const BUILD_DIRS = /^(dist|lib|build|out)$/;
const BUILT_EXTENSION = /(\.d)?\.(m|c)?(j|t)sx?$/;

/**
 * Module resolution as TypeScript does it, for the files of one run: relative paths (`.js` naming a
 * `.ts`, directory `index` files), tsconfig/jsconfig `paths` and `baseUrl` (the nearest config of the
 * importing file, `extends` and project references followed), package.json `imports` (`#lib/x`) and
 * the `exports`/`main` of workspace packages, a target in build output (`dist/x.js`) mapped back to its
 * source. Resolution is oxc-resolver's (one instance per config, caching the file system for the run);
 * resolve.exports reads `exports`/`imports` maps whose targets are not built yet. Anything in
 * node_modules, and any file that is not one of the run's, stays unresolved (null).
 */
export class ModuleResolver {
  /** Config file ('' for none) → its resolver. */
  private readonly byConfig = new Map<string, ResolverFactory>();
  private readonly configOf = new Map<string, string | null>();
  private readonly manifests = new Map<string, Manifest | null>();

  constructor(
    private readonly workspaces: Workspaces,
    /** Folder listings of the run's walk (config lookups ask once per folder). */
    private readonly has: HasEntry,
    /** Told of a tsconfig/jsconfig that does not load (its folders resolve as if it were absent). */
    private readonly onMalformed: ReportMalformed = () => {},
  ) {}

  /** The run's file that `spec`, imported from `from`, names (`isFile` says what the run's files are). */
  resolve(from: string, spec: string, isFile: (file: string) => boolean): string | null {
    if (spec.startsWith('node:')) return null;
    const dir = path.dirname(from);
    const found = this.attempt(dir, spec, this.nearestConfig(dir));
    if (found) return this.inRun(found.path, found.packageDir, isFile);
    if (spec.startsWith('#')) {
      // An `imports` target in build output that is not built: its source, if the run has it.
      const manifest = nearestManifest(dir, this.has, this.manifests);
      return manifest ? this.firstInRun(manifest.dir, packageTargets(manifest.json, spec, 'imports'), isFile) : null;
    }
    const name = packageName(spec);
    const ws = this.workspaces[name];
    return ws ? this.firstInRun(ws.dir, packageTargets(ws.manifest, `.${spec.slice(name.length)}`, 'exports'), isFile) : null;
  }

  /** Whether a folder holds a package.json (whose `main` or `exports` may name any file). */
  holdsPackage(dir: string): boolean {
    return this.has(dir, 'package.json');
  }

  /** oxc-resolver's answer, with the tsconfig/jsconfig that applies in `dir` (none: `config` null). */
  private attempt(dir: string, spec: string, config: string | null): { path: string; packageDir: string | null } | null {
    let result = this.resolverWith(config).sync(dir, spec);
    // A config that does not load (bad JSON, an `extends` not installed) must not cost the relative
    // imports: its folders are resolved as if it were not there.
    if (config && result.error && /tsconfig/i.test(result.error)) {
      this.onMalformed({ file: config, message: `This ${path.basename(config)} cannot be used (${result.error}): the imports of the files below it are resolved as if it were not there (no paths or baseUrl). ${FIX_OR_TURN_OFF}`, line: 1, column: 1, ours: false });
      this.byConfig.set(config, this.resolverWith(null));
      result = this.resolverWith(null).sync(dir, spec);
    }
    if (!result.path) return null;
    return { path: result.path, packageDir: result.packageJsonPath ? path.dirname(result.packageJsonPath) : null };
  }

  /** `file` if the run has it, else the source of a build-output file of its package. */
  private inRun(file: string, packageDir: string | null, isFile: (file: string) => boolean): string | null {
    if (isFile(file)) return file;
    if (!packageDir) return null;
    const [top, ...rest] = path.relative(packageDir, file).split(path.sep);
    if (!top || !BUILD_DIRS.test(top) || !rest.length) return null;
    const source = `./${['src', ...rest].join('/').replace(BUILT_EXTENSION, '')}`;
    const found = this.attempt(packageDir, source, null);
    return found && isFile(found.path) ? found.path : null;
  }

  /** The first of a package's targets (`./dist/x.js`, as its manifest names them) the run has. */
  private firstInRun(dir: string, targets: readonly string[], isFile: (file: string) => boolean): string | null {
    for (const target of targets) {
      // Resolved as a relative path (extensions, `.js` naming `.ts`), or, when it does not exist yet, as written.
      const file = this.inRun(this.attempt(dir, target, null)?.path ?? path.resolve(dir, target), dir, isFile);
      if (file) return file;
    }
    return null;
  }

  /** One resolver per config file (and one for none), each caching the file system for the run (a clone made with `cloneWithOptions` ignores a tsconfig). */
  private resolverWith(config: string | null): ResolverFactory {
    const key = config ?? '';
    let resolver = this.byConfig.get(key);
    if (!resolver) {
      const { ResolverFactory } = oxc();
      resolver = new ResolverFactory(config ? { ...OPTIONS, tsconfig: { configFile: config, references: 'auto' } } : OPTIONS);
      this.byConfig.set(key, resolver);
    }
    return resolver;
  }

  private nearestConfig(dir: string): string | null {
    const known = this.configOf.get(dir);
    if (known !== undefined) return known;
    const name = CONFIG_NAMES.find((n) => this.has(dir, n));
    const parent = path.dirname(dir);
    const config = name ? path.join(dir, name) : parent === dir ? null : this.nearestConfig(parent);
    this.configOf.set(dir, config);
    return config;
  }
}

let loaded: typeof import('oxc-resolver') | null = null;
/** The native resolver, loaded when a run first resolves an import (most runs have nothing to follow). */
const oxc = (): typeof import('oxc-resolver') => (loaded ??= requireDependency('oxc-resolver') as typeof import('oxc-resolver'));
