import ignore from 'ignore';
import fs from 'node:fs';
import path from 'node:path';
import { gitIgnoreConfig, type GitIgnoreConfig } from './git-ignore-config.js';
import { gitListing } from './git-files.js';
import { dropEarly } from '../run/git-process.js';
import { GitPrescreen, type PrescreenOptions } from './prescreen.js';
import { ignoreRules, type IgnoreRules } from './ignore-rules.js';
import { JS_EXTENSIONS, isEnvFile } from './kinds.js';
import type { ReportMalformed } from './malformed.js';
import { DEFAULT_SKIPPED_DIRS, NEVER_SCANNED_DIRS } from './skipped-dirs.js';
import { requireDependency } from '../util/lazy.js';
import { directlyIn, fileIn, folderPrefix, isAtOrBelow, onDisk, onDiskOnce, workTreeRoot, type HasEntry } from '../util/folders.js';

const NEVER_SCANNED = new Set(NEVER_SCANNED_DIRS);
const isMinified = (file: string): boolean => file.endsWith('.min.js');
const defaultAccepts = (file: string): boolean => (JS_EXTENSIONS as readonly string[]).includes(path.extname(file).toLowerCase()) || isEnvFile(file);

const toPosix = path.sep === '/' ? (p: string): string => p : (p: string): string => p.split(path.sep).join('/');
/** `file` relative to `dir` (a folder above it), with '/'. */
const below = (dir: string, file: string): string => toPosix(file.slice(dir.length + (dir.endsWith(path.sep) ? 0 : 1)));

/** The rules that apply in a folder, from the top down, with each file name's verdict when names alone decide it. */
interface Chain {
  entries: Array<[dir: string, rules: IgnoreRules]>;
  verdictByName: Map<string, boolean> | null;
}
const chainOf = (entries: Chain['entries']): Chain => ({ entries, verdictByName: entries.every(([, r]) => r.byName) ? new Map() : null });

/**
 * One walk of a folder: the names in every folder listed (so existence checks need no system call),
 * and .gitignore rules per folder, evaluated from `top` (the git root) down, deeper files winning.
 * A folder that .gitignore excludes is listed but never entered.
 */
class Walk {
  /** Names per listed folder: complete for every folder the walk entered. */
  private readonly names = new Map<string, Set<string>>();
  private readonly rules = new Map<string, IgnoreRules | null>();
  private readonly chains = new Map<string, Chain>();
  private readonly ignoredDirs = new Map<string, boolean>();
  /** Folders below the walked paths that could not be listed (permissions). */
  readonly unreadable: string[] = [];

  constructor(
    private readonly top: string,
    private readonly skipDirs: ReadonlySet<string>,
    /** The names of folders skipped by default (none with --no-default-ignore). */
    private readonly skippedByDefault: ReadonlySet<string>,
    /** Folders the user named: what they hold is not skipped by default. */
    private readonly named: ReadonlySet<string>,
    /** Rules git applies below `top` before its .gitignore files (global excludes, info/exclude), and its case rule. */
    private readonly git: GitIgnoreConfig,
    private readonly onMalformed: ReportMalformed = () => {},
  ) {}

  readonly has: HasEntry = (dir, name) => {
    const names = this.names.get(dir);
    return names ? names.has(name) : onDisk(dir, name);
  };

  /**
   * Regular files under `root` that `accepts` takes, outside never-scanned and ignored folders (file-level
   * rules not applied yet), each handed to `onFile` as the walk finds it; those below a folder skipped by
   * default go to `onSkipped` instead, with that folder's name.
   */
  files(root: string, accepts: (file: string) => boolean, onFile: (file: string) => void, onSkipped: (file: string, folder: string) => void): void {
    // The walker hands over a folder's entries one after another, so the folder's lookups (its
    // name, whether it is ignored, its listing) are made once for all of them.
    let prefix: string | null = null;
    let ignored = false;
    let skippedUnder: string | null = null;
    let names = new Set<string>();
    const folderOf = (entryPath: string): void => {
      if (prefix !== null && directlyIn(entryPath, prefix)) return;
      const dir = path.dirname(entryPath);
      prefix = folderPrefix(dir);
      ignored = this.dirIgnored(dir);
      skippedUnder = this.skippedUnder(dir, root);
      let listed = this.names.get(dir);
      if (!listed && !ignored) this.names.set(dir, (listed = new Set()));
      names = listed ?? new Set();
    };
    // Loaded here, for a run outside git: initialising the walker's modules costs every start ~5 ms.
    const fsWalk: typeof import('@nodelib/fs.walk') = requireDependency('@nodelib/fs.walk');
    fsWalk.walkSync(root, {
      // The parent's listing is complete when its children are handled, so its .gitignore is known.
      entryFilter: (entry) => {
        folderOf(entry.path);
        if (ignored) return false;
        names.add(entry.name);
        if (entry.dirent.isFile() && accepts(entry.path)) {
          if (skippedUnder === null) onFile(entry.path);
          else onSkipped(entry.path, skippedUnder);
        }
        return false;
      },
      // A folder skipped by default is entered only to count what it holds.
      deepFilter: (entry) => {
        folderOf(entry.path);
        return !ignored && !NEVER_SCANNED.has(entry.name) && !this.skipDirs.has(entry.path);
      },
      // A folder the walk cannot list is remembered (reported as not analysed); the walk goes on.
      errorFilter: (error) => {
        const failed = (error as NodeJS.ErrnoException).path;
        if (failed) this.unreadable.push(failed);
        return true;
      },
    });
  }

  private readonly skipped = new Map<string, string | null>();

  /** The name of the folder skipped by default that `dir` is or lies in, below `root` and below any folder named; null when none. */
  private skippedUnder(dir: string, root: string): string | null {
    let under = this.skipped.get(dir);
    if (under !== undefined) return under;
    const name = path.basename(dir);
    under = dir === root || this.named.has(dir) || !isAtOrBelow(root, dir) ? null : (this.skippedUnder(path.dirname(dir), root) ?? (this.skippedByDefault.has(name) ? name : null));
    this.skipped.set(dir, under);
    return under;
  }

  private rulesIn(dir: string): IgnoreRules | null {
    let rules = this.rules.get(dir);
    if (rules !== undefined) return rules;
    rules = null;
    const listed = this.names.get(dir);
    if (!listed || listed.has('.gitignore')) {
      const file = path.join(dir, '.gitignore');
      try {
        rules = ignoreRules(fs.readFileSync(file, 'utf8'), this.git.ignoreCase);
      } catch (error) {
        // Absent (the folder was not listed), or unreadable: then the run goes on without its rules.
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') this.onMalformed({ file, message: `This .gitignore cannot be read (${error instanceof Error ? error.message : String(error)}): its rules are not applied, so the files it would exclude are scanned.`, line: 1, column: 1, ours: false });
        rules = null;
      }
    }
    this.rules.set(dir, rules);
    return rules;
  }

  /** The folders from the top down to `dir` that have a .gitignore, with their rules (one object for all folders that add none). */
  private chain(dir: string): Chain {
    const cached = this.chains.get(dir);
    if (cached) return cached;
    const parent = path.dirname(dir);
    const atTop = dir === this.top || parent === dir;
    const above = atTop ? chainOf(this.git.excludes ? [[this.top, this.git.excludes]] : []) : this.chain(parent);
    const rules = this.rulesIn(dir);
    const chain = rules ? chainOf([...above.entries, [dir, rules]]) : above;
    this.chains.set(dir, chain);
    return chain;
  }

  private test(chain: Chain, rel: (dir: string) => string): boolean {
    let ignored = false;
    for (const [dir, { rules }] of chain.entries) {
      const result = rules.test(rel(dir));
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }

  private dirIgnored(dir: string): boolean {
    let ignored = this.ignoredDirs.get(dir);
    if (ignored !== undefined) return ignored;
    const parent = path.dirname(dir);
    const inside = dir !== this.top && parent !== dir && dir.startsWith(this.top);
    ignored = inside && (this.dirIgnored(parent) || this.test(this.chain(parent), (d) => `${below(d, dir)}/`));
    this.ignoredDirs.set(dir, ignored);
    return ignored;
  }

  private lastFolder: { prefix: string; chain: Chain } | null = null;

  /** Whether .gitignore rules exclude a file (asked in walk order: a folder's files one after another). */
  ignores(file: string): boolean {
    const last = this.lastFolder;
    let chain: Chain;
    if (last && directlyIn(file, last.prefix)) chain = last.chain;
    else {
      const dir = path.dirname(file);
      chain = this.chain(dir);
      this.lastFolder = { prefix: folderPrefix(dir), chain };
    }
    if (!chain.entries.length) return false;
    const byName = chain.verdictByName;
    if (!byName) return this.test(chain, (d) => below(d, file));
    const name = file.slice(file.lastIndexOf(path.sep) + 1);
    let verdict = byName.get(name);
    if (verdict === undefined) byName.set(name, (verdict = this.test(chain, () => name)));
    return verdict;
  }
}

export interface DiscoverOptions {
  cwd: string;
  /** gitignore-style globs relative to `cwd` (config `ignore`). */
  ignore?: readonly string[];
  /** Whether a file is taken, by its name (default: JS/TS and .env files); handed its path, absolute or relative to the folder listed. */
  accepts?: (file: string) => boolean;
  /** Folders never entered (absolute, or relative to `cwd`), such as a --cache-location inside the tree. */
  skipDirs?: readonly string[];
  /** Whether the folders of DEFAULT_SKIPPED_DIRS are skipped (default true; false: --no-default-ignore). */
  defaultIgnore?: boolean;
  /** Folders the user named (absolute): one skipped by default is scanned when it, or a folder in it, was named. */
  named?: readonly string[];
  /** Called as each file `accepts` takes by name is found, before .gitignore rules for single files apply. */
  onCandidate?: (file: string) => void;
  /** Told about a .gitignore that cannot be read (the walk goes on without it). */
  onMalformed?: ReportMalformed;
  /**
   * In a git work tree, `git grep` first: a tracked file waits in the prescreen's holder for git's
   * answer instead of going to `onCandidate` (see GitPrescreen).
   */
  prescreen?: PrescreenOptions;
}

/** Files a run would take that lie in folders skipped by default, by the folder's name. */
export interface NotScanned {
  /** The folders' names (`build`, `vendor`), sorted. */
  folders: string[];
  files: number;
}

export interface Discovery {
  /** Sorted absolute paths. */
  files: string[];
  /** Whether a folder holds an entry (config and package.json lookups): from the walk's listings where it has them, else from the disk, once per folder and name. */
  has: HasEntry;
  /** Folders that could not be listed (no permission), sorted: nothing in them was analysed. */
  unreadableFolders: string[];
  /** What folders skipped by default held (none with --no-default-ignore, or when they held nothing to take). */
  notScanned: NotScanned;
  /** Settled once every file is handed to `onCandidate`, or held and answered by the prescreen (git grep may still run when discovery returns). */
  prescreened: Promise<void>;
  /** When one git listing of one folder gave every file: that folder, and the folders in it whose listing holds a name (null: a name the run does not take, asked of the disk). */
  listed: ListedFolder | null;
}

export interface ListedFolder {
  root: string;
  holding: FoldersHolding;
}
/** The folders (absolute) whose listing holds a file named `name`; null when the listing cannot say. */
export type FoldersHolding = (name: string) => ReadonlySet<string> | null;

/**
 * The files under the given paths, sorted. In a git work tree, the files git lists (`git ls-files`:
 * tracked files whatever the ignore rules say, untracked ones git does not ignore); outside git, a
 * walk honouring .gitignore files (nested too). Either way never-scanned folders are left out, and
 * folders skipped by default counted but not taken. A file named explicitly is taken as long as
 * `accepts` takes it.
 *
 * The walk is @nodelib/fs.walk (fast-glob's own walker) rather than a `**` glob: every file is wanted
 * and filtered by name, so pattern matching per entry was pure cost, and a walker can leave ignored
 * folders unentered.
 */
export async function discoverFiles(targets: readonly string[], options: DiscoverOptions): Promise<Discovery> {
  const userIgnore = ignore().add([...(options.ignore ?? [])]);
  const userIgnores = (options.ignore ?? []).length > 0;
  const accepts = options.accepts ?? defaultAccepts;
  const skippedByDefault = new Set(options.defaultIgnore === false ? [] : DEFAULT_SKIPPED_DIRS);
  const skipDirs = (options.skipDirs ?? []).map((d) => path.resolve(options.cwd, d));
  const onCandidate = options.onCandidate ?? (() => {});
  const named = options.named ?? [];
  const found = new Set<string>();
  const skipped = new Map<string, Set<string>>();
  const unreadable: string[] = [];
  const has: HasEntry[] = [];
  const listings: ListedFolder[] = [];
  const prescreening: Promise<void>[] = [];
  /** A file found by name: taken, or counted under the folder skipped by default it lies in, unless a file-level rule leaves it out. */
  const take = (file: string, skippedUnder: string | null): void => {
    if (isMinified(file)) return;
    if (userIgnores) {
      const rel = toPosix(path.relative(options.cwd, file));
      if (!rel.startsWith('..') && rel && userIgnore.ignores(rel)) return;
    }
    if (skippedUnder === null) return void found.add(file);
    const files = skipped.get(skippedUnder) ?? new Set<string>();
    skipped.set(skippedUnder, files.add(file));
  };
  for (const target of targets) {
    const abs = path.resolve(options.cwd, target);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch {
      throw new Error(`no such file or directory: ${target}`);
    }
    if (stat.isFile()) {
      if (accepts(abs)) found.add(abs);
      continue;
    }
    const top = workTreeRoot(abs);
    const namedBelow = new Set(named.filter((d) => isAtOrBelow(abs, d)).map((d) => toPosix(path.relative(abs, d))));
    const folderOf = folderVerdicts(skippedByDefault, namedBelow);
    // The byte screen starts on the files as git prints them (the tracked ones once git grep has said
    // which hold a needle); they are taken once git has listed them all.
    const prescreen = top && options.prescreen ? new GitPrescreen(abs, options.prescreen, onCandidate) : null;
    const listed: string[] = [];
    const listedUnder: Array<string | null> = [];
    const listing = top
      ? await gitListing(abs, top, NEVER_SCANNED_DIRS, (rel, tracked) => {
          // The name first: most listed files are taken, and the relative path is a flat string (the absolute one is built).
          if (!accepts(rel)) return;
          const under = folderOf(rel);
          if (under === NEVER) return;
          const file = fileIn(abs, rel);
          if (skipDirs.some((d) => isAtOrBelow(d, file))) return;
          if (under === null && tracked && prescreen) prescreen.add(file);
          else if (under === null) onCandidate(file);
          listed.push(file);
          listedUnder.push(under);
        })
      : null;
    if (listing) {
      // The run goes on while git grep finishes: its answers are in before the screen is read (Discovery.prescreened).
      if (prescreen) prescreening.push(prescreen.settle());
      listed.forEach((file, i) => take(file, listedUnder[i] ?? null));
      unreadable.push(...listing.unreadable);
      const unlisted = (dir: string): boolean => skipDirs.some((d) => isAtOrBelow(d, dir)) || (dir !== abs && folderVerdict(below(abs, dir), skippedByDefault, namedBelow) === NEVER);
      const holding = foldersHolding(listed, accepts);
      has.push(listedHas(abs, holding, unlisted));
      listings.push({ root: abs, holding });
      continue;
    }
    // Outside git (or where git cannot list): .gitignore files apply from the git work tree root down.
    const walk = new Walk(top ?? abs, new Set(skipDirs), skippedByDefault, new Set(named), await gitIgnoreConfig(top), options.onMalformed);
    const candidates: string[] = [];
    const skippedCandidates: Array<[string, string]> = [];
    walk.files(
      abs,
      accepts,
      (f) => (candidates.push(f), onCandidate(f)),
      (f, folder) => skippedCandidates.push([f, folder]),
    );
    for (const file of candidates) if (!walk.ignores(file)) take(file, null);
    for (const [file, folder] of skippedCandidates) if (!walk.ignores(file)) take(file, folder);
    unreadable.push(...walk.unreadable);
    has.push(walk.has);
  }
  // git commands started early for a listing the run did not ask for only take cores from it now.
  dropEarly();
  // A file named explicitly, or found by another path, is not "not scanned".
  for (const files of skipped.values()) for (const f of files) if (found.has(f)) files.delete(f);
  const notScanned = [...skipped].filter(([, files]) => files.size > 0);
  return {
    files: [...found].sort(),
    has: has.length === 1 && has[0] ? has[0] : onDisk,
    unreadableFolders: unreadable.sort(),
    notScanned: { folders: notScanned.map(([folder]) => folder).sort(), files: notScanned.reduce((n, [, files]) => n + files.size, 0) },
    prescreened: Promise.all(prescreening).then(() => {}),
    listed: targets.length === 1 && listings.length === 1 ? (listings[0] ?? null) : null,
  };
}

/**
 * In a git work tree, whether a folder holds a file the run takes by name (a package.json, a config)
 * is git's answer: the listing has every such file git does not ignore, so one git ignores is not read,
 * as its other files are not scanned. Other names, folders above `root` and folders git is never asked
 * about (node_modules, a cache) are asked of the disk, once. A run asks this of every folder it lists.
 */
function listedHas(root: string, holding: FoldersHolding, unlisted: (dir: string) => boolean): HasEntry {
  const disk = onDiskOnce();
  const unlistedDirs = new Map<string, boolean>();
  return (dir, name) => {
    if (!isAtOrBelow(root, dir)) return disk(dir, name);
    const dirs = holding(name);
    if (dirs === null) return disk(dir, name);
    // A folder with a listed file is listed; one without may be a folder git is never asked about.
    if (dirs.has(dir)) return true;
    let notListed = unlistedDirs.get(dir);
    if (notListed === undefined) unlistedDirs.set(dir, (notListed = unlisted(dir)));
    return notListed && disk(dir, name);
  };
}

/**
 * The folders of a listing's files by name, for the names the run takes (`takes`): a run asks about a
 * few names (package.json, its config) in thousands of folders, so each name's folders are found once.
 */
function foldersHolding(files: readonly string[], takes: (name: string) => boolean): FoldersHolding {
  const byName = new Map<string, ReadonlySet<string> | null>();
  return (name) => {
    let dirs = byName.get(name);
    if (dirs === undefined) {
      const suffix = path.sep + name;
      dirs = takes(name) ? new Set(files.filter((file) => file.endsWith(suffix)).map((file) => path.dirname(file))) : null;
      byName.set(name, dirs);
    }
    return dirs;
  };
}

const NEVER = Symbol('never scanned');

/**
 * Whether a listed file (relative, with '/') lies in a never-scanned folder (NEVER), in a folder
 * skipped by default below any `named` one (that folder's name), or neither (null). Listings come
 * folder by folder, so the answer is remembered per folder, and the last folder's is at hand.
 */
function folderVerdicts(skippedByDefault: ReadonlySet<string>, named: ReadonlySet<string>): (file: string) => string | null | typeof NEVER {
  const verdicts = new Map<string, string | null | typeof NEVER>();
  let last: { prefix: string; verdict: string | null | typeof NEVER } = { prefix: '', verdict: null };
  return (file) => {
    if (file.startsWith(last.prefix) && file.indexOf('/', last.prefix.length) < 0) return last.verdict;
    const slash = file.lastIndexOf('/');
    const folder = slash < 0 ? '' : file.slice(0, slash);
    let verdict = verdicts.get(folder);
    if (verdict === undefined) verdicts.set(folder, (verdict = folderVerdict(folder, skippedByDefault, named)));
    last = { prefix: file.slice(0, slash + 1), verdict };
    return verdict;
  };
}

/** A folder path that may hold a never-scanned or skipped-by-default folder's name (most hold neither). */
const MAY_BE_SKIPPED = new RegExp(`(^|/)(${[...NEVER_SCANNED_DIRS, ...DEFAULT_SKIPPED_DIRS].map((d) => d.replace(/[.]/g, '\\.')).join('|')})(/|$)`);

function folderVerdict(folder: string, skippedByDefault: ReadonlySet<string>, named: ReadonlySet<string>): string | null | typeof NEVER {
  if (!MAY_BE_SKIPPED.test(folder)) return null;
  let verdict: string | null = null;
  const names = folder.split('/');
  for (let i = 0; i < names.length; i++) {
    const name = names[i] ?? '';
    if (NEVER_SCANNED.has(name)) return NEVER;
    if (verdict === null && skippedByDefault.has(name)) verdict = name;
    // A folder the user named is scanned, whatever holds it.
    if (named.size && named.has(names.slice(0, i + 1).join('/'))) verdict = null;
  }
  return verdict;
}
