import fs from 'node:fs';
import type { Settings } from '../config.js';
import { compareFindings } from '../findings.js';
import type { MigrateOptions, MigrateResult } from '../pipeline/js.js';
import { AdapterFiles } from '../run/adapter-files.js';
import { analyzeComponent } from '../run/component.js';
import { applyRuleSettings, run, settle } from '../run/runner.js';
import type { FileResult } from '../run/types.js';
import type { ResultCache } from '../run/cache.js';
import { defaultCacheDir } from '../run/cache.js';
import { toolVersion } from '../report/tool.js';
import { isEnvFile, isJsFile } from '../scan/kinds.js';
import { makePrefilter } from '../scan/prefilter.js';
import { ModuleResolver } from '../scan/resolve.js';
import { onDisk } from '../util/folders.js';
import { moduleSpecifiers } from '../run/imports.js';
import type { ProjectInput } from '../js/project.js';
import { isTextEngineFile } from '../text/language.js';
import { ComponentLog, type Component } from './component-log.js';
import { pushTo } from '../util/multimap.js';

/** What the tool says about one file: findings as `lint` reports them, and the text a write would give it. */
export interface FileAnswer extends Pick<FileResult, 'findings' | 'suppressed' | 'prints' | 'markerProblems'> {
  /** The migrated text, or null when the file does not change. */
  output: string | null;
  /**
   * Other files (absolute) whose changes go with this file's: applying this file's output alone would
   * half-migrate. They are the other changed files of its write group (the files a run writes together
   * or not at all: its import component and the .env files it reads), and the generated adapter file
   * when the output imports an adapter that file does not export yet (it is created or regenerated).
   */
  changesWith: string[];
}

export interface LoadedSettings {
  settings: Settings;
  settingsFor: (file: string) => Settings;
}

export interface LiveOptions {
  /** The folder a run covers (as `v2-migrate lint <root>` run from it). */
  root: string;
  /** Settings for the run and per file; called again after a change, so an edited config counts. */
  load: () => LoadedSettings;
  jobs?: number;
  /** Analyse only what the file asked about needs (--stdin: one answer); default: the whole root, once, for every file asked about. */
  focus?: boolean;
  /** The on-disk result cache (--cache), consulted behind the in-memory one. */
  disk?: ResultCache | null;
}

/**
 * A lint run asks about every file of a large component in a burst: its files are compared with the
 * disk at most this often, so a burst costs a few checks rather than one per file (an edit saved in
 * an editor is seen by the next lint a moment later).
 */
const STALE_CHECK_MS = 250;

/** The stat of a file the analysis read, to tell whether it changed since. */
type Stamp = string;
const stampOf = (file: string): Stamp => {
  try {
    const s = fs.statSync(file);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return 'missing';
  }
};

interface Analysis {
  results: Map<string, FileResult>;
  /** The files each write group of the run changes (by `writeGroup`). */
  changedInGroup: Map<string, string[]>;
  componentOf: Map<string, Component>;
  stamps: Map<string, Stamp>;
  load: LoadedSettings;
  /** When the run started (ms): a file modified after it may be new to the analysis. */
  startedAt: number;
}

const EMPTY = (): FileAnswer => ({ findings: [], suppressed: [], prints: { get: () => undefined }, markerProblems: [], output: null, changesWith: [] });

/**
 * One root's project analysis, built once by the same run `v2-migrate lint` makes and reused for every
 * file asked about, the way an editor integration holds one program: a file whose text is what the run
 * read gets the run's answer; a file with other text (an unsaved buffer, a fix just applied) gets its
 * component analysed again with that text. A file of a component that changed on disk (or a config)
 * rebuilds the analysis, which re-analyses only the components that changed.
 */
export class LiveProject {
  private analysis: Analysis | null = null;
  private readonly log: ComponentLog;
  /** Files already rebuilt for because they were newer than the analysis (each once per mtime). */
  private readonly rebuiltFor = new Map<string, Stamp>();
  /** When each component's files were last compared with the disk. */
  private readonly checkedAt = new WeakMap<Component, number>();
  /** Resolves the imports of text the run has not seen (tsconfig paths, relative and `#` imports). */
  private resolver = new ModuleResolver({}, onDisk);

  constructor(private readonly options: LiveOptions) {
    this.log = new ComponentLog(options.disk?.dir ?? defaultCacheDir(options.root), toolVersion(), options.disk ?? null);
  }

  /** The answer for `file` (absolute) when it holds `text`. */
  async answer(file: string, text: string): Promise<FileAnswer> {
    const focus = this.options.focus ? new Set([file, ...Object.values(this.importsOf(file, text, isFileOnDisk, undefined))]) : null;
    let analysis = this.analysis ?? (await this.build(focus));
    const component = analysis.componentOf.get(file);
    const mayMatter = makePrefilter(analysis.load.settingsFor(file).bases)(text);
    if (component ? this.stale(component, analysis) : mayMatter && this.newOnDisk(file, analysis)) analysis = await this.build(focus);
    return this.answerFrom(analysis, file, text, mayMatter);
  }

  private async answerFrom(analysis: Analysis, file: string, text: string, mayMatter: boolean): Promise<FileAnswer> {
    const settings = analysis.load.settingsFor(file);
    const component = analysis.componentOf.get(file);
    const result = analysis.results.get(file);
    const asRead = component?.task.inputs.find((i) => i.file === file)?.source === text;
    if (isJsFile(file)) {
      if (component && asRead) return fromRun(result, component.results, file, settings, analysis);
      const imports = this.importsOf(file, text, (f) => analysis.componentOf.has(f), component?.task.options.imports?.[file]);
      const joined = joinedComponent(component, Object.values(imports), analysis.componentOf);
      if (joined) return this.reanalyse(joined, file, text, imports, settings, analysis);
      if (!mayMatter) return EMPTY();
      // A file too large to parse keeps the run's text-only findings.
      if (readsAsOnDisk(file, text)) return fromRun(result, new Map(), file, settings, analysis);
      return this.reanalyse({ task: { inputs: [], options: migrateOptions(settings) }, results: new Map() }, file, text, imports, settings, analysis);
    }
    if (!mayMatter) return EMPTY();
    if (asRead || readsAsOnDisk(file, text)) return fromRun(result, component?.results ?? new Map(), file, settings, analysis);
    if (isTextEngineFile(file) || isEnvFile(file)) {
      const { scanText, grammarsFor, languageOf, loadGrammars } = await import('../text/index.js');
      await loadGrammars(grammarsFor(languageOf(file), text));
      const scanned = scanText(text, file, settings.bases);
      const changesWith = scanned.output === null ? [] : changedGroupMates(analysis, file);
      return { ...settle(file, text, applyRuleSettings(scanned.findings, settings.rules).sort(compareFindings), scanned.markers), output: scanned.output, changesWith };
    }
    return EMPTY();
  }

  /**
   * How `text`'s imports resolve for `file`: as the run resolved them where the specifier is the same
   * (workspace packages among them), else by the resolver (`isFile`: the files that count).
   */
  private importsOf(file: string, text: string, isFile: (f: string) => boolean, asRun: Readonly<Record<string, string>> | undefined): Record<string, string> {
    const out: Record<string, string> = {};
    for (const spec of moduleSpecifiers(text)) {
      const target = asRun?.[spec] ?? this.resolver.resolve(file, spec, isFile);
      if (target) out[spec] = target;
    }
    return out;
  }

  /**
   * The file's component analysed again with `text` (whose imports resolve as `imports`) for the file.
   * Its other files change as this analysis says; the rest of the file's write group as the run found.
   */
  private reanalyse(component: Component, file: string, text: string, imports: Record<string, string>, settings: Settings, analysis: Analysis): FileAnswer {
    const inputs = [...component.task.inputs.filter((i) => i.file !== file), { file, source: text }].sort((a, b) => (a.file < b.file ? -1 : 1));
    const options = { ...component.task.options, imports: { ...component.task.options.imports, [file]: imports } };
    const results = new Map(analyzeComponent({ inputs, options }).results);
    const mine = results.get(file) ?? { output: null, findings: [] };
    const reanalysed = new Set(inputs.map((i) => i.file));
    const changedHere = [...results].filter(([f, r]) => f !== file && r.output !== null).map(([f]) => f);
    const changedElsewhere = changedGroupMates(analysis, file).filter((f) => !reanalysed.has(f));
    const others = mine.output === null ? [] : [...changedHere, ...changedElsewhere];
    return { ...settle(file, text, applyRuleSettings(mine.findings, settings.rules).sort(compareFindings), mine.markers), output: mine.output, changesWith: unique([...changesWith(mine, settings), ...others]) };
  }

  private async build(focus: ReadonlySet<string> | null): Promise<Analysis> {
    const { root, jobs = 1 } = this.options;
    const load = this.options.load();
    const startedAt = Date.now();
    this.log.startRun();
    const result = await run([root], root, load.settings, { jobs, cache: this.log, settingsFor: load.settingsFor, ...(focus ? { changed: focus } : {}) });
    const componentOf = new Map<string, Component>();
    const stamps = new Map<string, Stamp>();
    // A large component is analysed in groups, a helper they share copied into each: a file belongs to
    // the last group that had it as its own (a later round merges groups), a shared one to its first.
    for (const component of this.log.components()) {
      for (const { file, shared } of component.task.inputs) {
        if (!shared || !componentOf.has(file)) componentOf.set(file, component);
        stamps.set(file, stampOf(file));
      }
    }
    this.resolver = new ModuleResolver({}, onDisk);
    const configs = new Set([...componentOf.keys()].map((f) => load.settingsFor(f).configFile?.replace(/#v2-migrate$/, '')).filter((f): f is string => !!f));
    for (const config of configs) stamps.set(config, stampOf(config));
    const changedInGroup = new Map<string, string[]>();
    for (const r of result.results) if (r.changed && r.writeGroup) pushTo(changedInGroup, r.writeGroup, r.absPath);
    this.analysis = { results: new Map(result.results.map((r) => [r.absPath, r])), changedInGroup, componentOf, stamps, load, startedAt };
    return this.analysis;
  }

  /** A file of the component, or the config it was analysed with, changed on disk since (checked at most every STALE_CHECK_MS). */
  private stale(component: Component, analysis: Analysis): boolean {
    const now = Date.now();
    if (now - (this.checkedAt.get(component) ?? 0) < STALE_CHECK_MS) return false;
    this.checkedAt.set(component, now);
    const config = analysis.load.settingsFor(component.task.inputs[0]!.file).configFile?.replace(/#v2-migrate$/, '');
    const files = [...component.task.inputs.map((i) => i.file), ...(config ? [config] : [])];
    return files.some((f) => analysis.stamps.get(f) !== stampOf(f));
  }

  /** A file the analysis has no component for, written since it was built: rebuilt for once per version. */
  private newOnDisk(file: string, analysis: Analysis): boolean {
    const stamp = stampOf(file);
    if (stamp === 'missing' || this.rebuiltFor.get(file) === stamp) return false;
    let modified: number;
    try {
      modified = fs.statSync(file).mtimeMs;
    } catch {
      return false;
    }
    if (modified < analysis.startedAt) return false;
    this.rebuiltFor.set(file, stamp);
    return true;
  }
}

/** The engine options a run gives a component of files with these settings (run/project.ts does the same). */
function migrateOptions(settings: Settings): MigrateOptions {
  const offRules = Object.entries(settings.rules).filter(([, v]) => v === 'off').map(([k]) => k);
  return { bases: settings.bases, gpuPools: settings.gpuPools, preserveV1Defaults: settings.preserveV1Defaults, adapters: settings.adapters, offRules, wrappers: settings.wrappers };
}

const isFileOnDisk = (file: string): boolean => {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

/**
 * The component a file with new text belongs to: its own (if the run had one) joined with those of the
 * files its text imports (`imported`), as the run would join them; null when it belongs to none.
 */
function joinedComponent(own: Component | undefined, imported: readonly string[], componentOf: ReadonlyMap<string, Component>): Component | null {
  const joined = new Set(own ? [own] : []);
  for (const f of imported) if (componentOf.has(f)) joined.add(componentOf.get(f)!);
  if (!joined.size) return null;
  const [first, ...more] = joined;
  if (!more.length) return first!;
  // Analysed as one: no input is another group's any more.
  const inputs = new Map<string, ProjectInput>();
  for (const c of joined) for (const { file, source } of c.task.inputs) inputs.set(file, { file, source });
  const imports = Object.assign({}, ...[...joined].map((c) => c.task.options.imports ?? {})) as Record<string, Record<string, string>>;
  const { quote: _quote, ...options } = first!.task.options;
  return { task: { inputs: [...inputs.values()], options: { ...options, imports } }, results: new Map([...joined].flatMap((c) => [...c.results])) };
}

/** The run's answer for a file (nothing when the run listed nothing for it). */
function fromRun(result: FileResult | undefined, component: Component['results'], file: string, settings: Settings, analysis: Analysis): FileAnswer {
  if (!result) return EMPTY();
  const mine = component.get(file);
  const others = result.changed ? changedGroupMates(analysis, file) : [];
  return { findings: result.findings, suppressed: result.suppressed, prints: result.prints, markerProblems: result.markerProblems, output: result.changed ? result.after! : null, changesWith: unique([...(mine ? changesWith(mine, settings) : []), ...others]) };
}

/** The other files the run changes in the file's write group (none when the run gave it none). */
function changedGroupMates(analysis: Analysis, file: string): string[] {
  const group = analysis.results.get(file)?.writeGroup;
  return group ? (analysis.changedInGroup.get(group) ?? []).filter((f) => f !== file) : [];
}

const unique = (files: readonly string[]): string[] => [...new Set(files)];

/** The files a change goes with: the engine's, and the generated adapter file when the change needs it written (as a run would write it). */
function changesWith(result: MigrateResult, settings: Settings): string[] {
  const others = result.changesWith ?? [];
  if (!result.adapter || result.output === null) return others;
  const adapters = new AdapterFiles();
  adapters.add(result.adapter, settings);
  return [...others, ...adapters.write().map((f) => f.absPath)];
}

function readsAsOnDisk(file: string, text: string): boolean {
  try {
    return fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '') === text;
  } catch {
    return false;
  }
}
