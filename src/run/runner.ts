import fs from 'node:fs';
import path from 'node:path';
import type { Finding, Severity } from '../findings.js';
import { compareFindings } from '../findings.js';
import { configBelow, type Settings } from '../config.js';
import { isJsFile, kindOf } from '../scan/kinds.js';
import { holdJsonReadByCode } from './json-imports.js';
import { scanTextFiles, type TextFileOutcome } from './text-files.js';
import { migrateJsFiles, screenNeedles, seedNeedlesOf, type JsFileOutcome } from './project.js';
import { Screen } from './screen.js';
import type { ComponentResult } from './component.js';
import { NO_PROGRESS, type Progress } from './progress.js';
import type { ResultCache } from './cache.js';
import { inShard, packageOf, type Shard } from './shard.js';
import { ModuleResolver, readWorkspaces } from '../scan/resolve.js';
import ignore from 'ignore';
import { markersFor, partitionFindings, splitLines, type MarkerKind, type ParsedMarkers } from '../markers/index.js';
import { RULES, type RuleId } from '../rules/registry.js';
import { discoverFiles, type ListedFolder } from '../scan/discover.js';
import { makePrefilter } from '../scan/prefilter.js';
import { scanInventory, isEmptyInventory } from '../scan/inventory.js';
import { linePrints } from './baseline.js';
import { NO_PRINTS, type FileResult, type RunResult, type SuppressedFinding } from './types.js';
import { summarize } from './summary.js';
import { lazy } from '../util/lazy.js';
import { encode } from './files.js';
import { directlyIn, folderPrefix, type HasEntry } from '../util/folders.js';
import type { Malformed, ReportMalformed } from '../scan/malformed.js';
import { pushTo } from '../util/multimap.js';
import { AdapterFiles } from './adapter-files.js';
import { todoFindings } from '../rules/todo-comments.js';
import { uncoveredBaseFindings } from './gate.js';
import { runScope } from './scope.js';

function fileFinding(ruleId: RuleId, message: string): Finding {
  return { ruleId, severity: RULES[ruleId].severity, line: 1, column: 1, message, fixable: false };
}

/** Apply per-rule settings: drop findings of rules turned off, override severities. */
export function applyRuleSettings(findings: Finding[], rules: Settings['rules']): Finding[] {
  const out: Finding[] = [];
  for (const f of findings) {
    const setting = rules[f.ruleId];
    if (setting === 'off') continue;
    out.push(setting ? { ...f, severity: setting as Severity } : f);
  }
  return out;
}

/** An engine's findings for a file, with the gate's own (no v1 base left unreported) and the rule settings applied. */
function gated(file: string, text: string, findings: readonly Finding[], settings: Settings): Finding[] {
  return applyRuleSettings([...findings, ...uncoveredBaseFindings(file, text, findings, settings.bases)], settings.rules).sort(compareFindings);
}

/** The result for a file the JS engine took part in: rule settings, markers and bytes to write. */
function finishJsFile(base: FileResult, outcome: JsFileOutcome, settings: Settings): FileResult {
  if (outcome.decoded.kind !== 'text') {
    const why = outcome.decoded.kind === 'binary' ? 'it looks binary' : 'it is not valid UTF-8';
    return { ...base, ...settle(outcome.file, '', [fileFinding('skipped-file', `Skipped: ${why}, so it was not analysed or changed; migrate any RunPod v1 URLs in it by hand.`)]) };
  }
  const result = outcome.result;
  if (!result) return base;
  const { text, bom } = outcome.decoded;
  const settled = settle(outcome.file, text, gated(outcome.file, text, result.findings, settings), result.markers);
  if (result.output === null) return { ...base, ...settled };
  return { ...base, ...settled, changed: true, before: text, after: result.output, bytes: encode(result.output, bom) };
}

/**
 * The result for a text-engine file. A marker on a line the text engine would rewrite (kept on
 * purpose, or a false positive) keeps the whole file as it is: the text engine rewrites a file as one.
 */
function finishTextFile(base: FileResult, outcome: TextFileOutcome, settings: Settings): FileResult {
  if (outcome.decoded.kind !== 'text') {
    if (!outcome.result.findings.length && outcome.decoded.kind === 'binary') return base;
    const why = outcome.decoded.kind === 'binary' ? 'it looks binary' : 'it is not valid UTF-8';
    return { ...base, ...settle(outcome.file, '', [fileFinding('skipped-file', `Skipped: ${why}, so it was not analysed or changed; migrate any RunPod v1 URLs in it by hand.`)]) };
  }
  const { text, bom } = outcome.decoded;
  const settled = settle(outcome.file, text, gated(outcome.file, text, outcome.result.findings, settings), outcome.result.markers);
  const markedFix = settled.suppressed.some((f) => f.fixable);
  if (outcome.result.output === null || markedFix) {
    if (markedFix) for (const f of settled.findings) if (f.fixable) Object.assign(f, { fixable: false, message: `${f.message} Not rewritten: a marker in this file keeps a rewritable line as it is, and this file is rewritten as a whole.` });
    return { ...base, ...settled };
  }
  return { ...base, ...settled, changed: true, before: text, after: outcome.result.output, bytes: encode(outcome.result.output, bom) };
}

/**
 * What the file's own text decides once an engine has produced its findings: markers take findings
 * out of the gate, and every finding gets its baseline fingerprint.
 */
export function settle(file: string, text: string, engineFindings: Finding[], parsed?: ParsedMarkers): Pick<FileResult, 'findings' | 'suppressed' | 'prints' | 'markerProblems'> {
  const todos = todoFindings(file, text, engineFindings);
  const findings = todos.length ? [...engineFindings, ...todos].sort(compareFindings) : engineFindings;
  if (!findings.length) return { findings, suppressed: [], prints: NO_PRINTS, markerProblems: [] };
  // The engine hands over the markers it parsed for the file: each file's are parsed once per run.
  const markers = markersFor(text, file, parsed);
  const { active, ignored, kept } = partitionFindings(findings, markers);
  // Hashing every finding's line is only needed by a baseline or SARIF: done on first use.
  const prints = lazy(() => linePrints(findings, splitLines(text, file)));
  const copies = new Map<Finding, Finding>();
  const mark = (f: Finding, marker: MarkerKind): SuppressedFinding => {
    const s = { ...f, marker };
    copies.set(s, f);
    return s;
  };
  const suppressed = [...ignored.map((f) => mark(f, 'ignore')), ...kept.map((f) => mark(f, 'keep-v1'))].sort(compareFindings);
  return { findings: active, suppressed, prints: { get: (f) => prints().get(copies.get(f) ?? f) }, markerProblems: [...markers.problems] };
}

/** Discover and analyse every file under `targets`. Results are in path order; nothing is written here. */
export interface RunOptions {
  /** Worker threads for analysis (1: inline). Results are identical for any value. */
  jobs?: number;
  progress?: Progress;
  /** Ask only about these files (and what must move with them): --changed-since. */
  changed?: ReadonlySet<string>;
  /** This runner's part of a CI matrix: --shard i/n. */
  shard?: Shard;
  cache?: ResultCache;
  /**
   * Settings for a file (its package's config; `has` answers from the discovery walk's listings; a
   * config that cannot be used goes to `report`); default: `settings` everywhere. It may change only at
   * a folder that holds a config (configGroups).
   */
  settingsFor?: (file: string, has: HasEntry, report: ReportMalformed) => Settings;
  /** Whether folders such as build/ and vendor/ are skipped (default true; false: --no-default-ignore). */
  defaultIgnore?: boolean;
}

export async function run(targets: readonly string[], cwd: string, settings: Settings, options: RunOptions = {}): Promise<RunResult> {
  const { jobs = 1, progress = NO_PROGRESS, changed, shard, cache, settingsFor = () => settings, defaultIgnore = true } = options;
  // Files are screened for RunPod bytes as the walk finds them (on a worker thread), before .gitignore
  // rules for single files and package configs are known: screening one file too many costs little.
  const early = Screen.early(screenNeedles(settings), jobs, seedNeedlesOf(settings));
  // A package.json, .gitignore or config below the root that cannot be used never stops the run.
  const malformed = new Map<string, Malformed>();
  const report: ReportMalformed = (m) => void (malformed.has(m.file) || malformed.set(m.file, m));
  // A partial run reads the whole project of its paths: what must move with them may be anywhere in it.
  const scope = runScope(targets, cwd);
  const discovery = await discoverFiles(scope.roots, {
    onMalformed: report,
    cwd,
    ignore: settings.ignore,
    // A --cache-location inside the tree holds thousands of the tool's own reports: never walked.
    skipDirs: cache ? [cache.dir] : [],
    defaultIgnore,
    named: scope.folders,
    accepts: (f) => {
      const kind = kindOf(f);
      return kind.js || kind.text || kind.other !== null;
    },
    onCandidate: (f) => early?.add(f),
    // A JS/TS file that holds a needle makes the run collect every JS/TS file's imports, which the screen's
    // threads do as they read: then every file is read as before. In a tree with none, nothing is read.
    ...(early ? { prescreen: { needles: early.needles, holder: () => early.holder(), spoils: isJsFile } } : {}),
  });
  // The screen is read only once git grep has said which files it need not read.
  early?.waitFor(discovery.prescreened);
  const packages = new Map<string, string>();
  const pkgOf = perFolder((file) => packageOf(file, cwd, packages, discovery.has));
  const settingsOf = perFolder((file) => settingsFor(file, discovery.has, report));
  let files = discovery.files;
  if (shard) files = files.filter((f) => inShard(pkgOf(f), cwd, shard));
  // What the run was asked about, when that is less than what it reads (null: everything it reads).
  const isAsked = (file: string): boolean => scope.asked(file) && (!changed || changed.has(file));
  const asked = scope.partial || changed ? new Set(files.filter(isAsked)) : null;
  // The text engine's files, with the files each shares a base, a constant or a wrapper with.
  const textLinks = new Map<string, readonly string[]>();
  // Made when a group's engines run (every package.json of the run is read for its workspace name).
  const resolver = lazy(() => new ModuleResolver(readWorkspaces(new Set(files.map(pkgOf)), report), discovery.has, report));
  const results = new Map<string, FileResult>();
  const blank = (file: string): FileResult => ({
    path: relative(cwd, file),
    absPath: file,
    package: relative(cwd, pkgOf(file)) || '.',
    changed: false,
    findings: [],
    suppressed: [],
    baselined: [],
    prints: NO_PRINTS,
    markerProblems: [],
    inventory: null,
  });
  const adapters = new AdapterFiles();
  const groups = new Groups();
  const onAnalysed = (n: number, result: ComponentResult): void => progress.analysed(n, result.filter(([, r]) => r.output !== null).length, result.reduce((k, [, r]) => k + r.findings.length, 0));
  // Files are analysed in groups that share a config (a package's own v2-migrate.config.json).
  for (const [groupSettings, group] of configGroups(files, settingsOf, discovery.listed, report)) {
    const kept = groupSettings === settings ? group : withoutIgnored(group, groupSettings);
    // A group none of whose files holds a byte its engines look for has nothing to report (they would
    // be told so file by file): most of a lint of a tree that does not use RunPod.
    if (early && (await early.settle(), early.clearsAll(kept, [...screenNeedles(groupSettings), ...groupSettings.bases.legacy]))) {
      progress.scanned(kept.length);
      continue;
    }
    const mayMatter = makePrefilter(groupSettings.bases);
    // Most files of a tree have nothing to report: only those that do get a result here.
    const onRead = (file: string, lenient: string | null): void => {
      progress.scanned();
      if (lenient === null) return void results.set(file, { ...blank(file), ...settle(file, '', [fileFinding('skipped-file', 'Could not read this file, so it was not analysed.')]) });
      if (!lenient) return;
      const inventory = scanInventory(lenient, groupSettings.bases);
      if (!isEmptyInventory(inventory)) results.set(file, { ...blank(file), inventory });
    };
    const run = { mayMatter, jobs, early, onRead, onAnalysed, resolver: resolver(), ...(asked ? { focus: asked } : {}), ...(cache ? { cache } : {}) };
    const byKind = splitByKind(kept);
    const outcomes = await migrateJsFiles(byKind.js, byKind.env, groupSettings, run);
    for (const o of outcomes) {
      if (o.group) groups.join(o.file, o.group);
      if (o.result?.adapter) adapters.add(o.result.adapter, groupSettings), groups.join(o.result.adapter.file, o.file);
    }
    const byJs = new Set<string>();
    const heldVars = new Map<string, Readonly<Record<string, string>>>();
    for (const o of outcomes) {
      results.set(o.file, finishJsFile(results.get(o.file) ?? blank(o.file), o, groupSettings));
      // A .env value the JS project reads moves with that code (or not at all): the JS result is final.
      if (o.result && (o.result.findings.length || o.result.output !== null)) byJs.add(o.file);
      // Otherwise the text engine plans it, keeping v1 what code the run does not migrate reads.
      else if (o.result?.heldVars) heldVars.set(o.file, o.result.heldVars);
    }
    const textFiles = byKind.text.filter((f) => !byJs.has(f));
    const textOutcomes = await scanTextFiles(textFiles, groupSettings, onRead, jobs, early, heldVars);
    holdJsonReadByCode(textOutcomes, byKind.js, resolver(), cwd);
    for (const o of textOutcomes) {
      textLinks.set(o.file, o.result.linked ?? []);
      results.set(o.file, finishTextFile(results.get(o.file) ?? blank(o.file), o, groupSettings));
      // The text engine links scripts, modules and the settings files they read without saying which: its files are written as one.
      groups.join(o.file, textOutcomes[0]!.file);
    }
    const otherFiles = byKind.other;
    if (otherFiles.length) {
      const { scanOtherFiles } = await import('./other-files.js');
      for (const o of await scanOtherFiles(otherFiles, groupSettings, onRead, jobs, early)) results.set(o.file, finishTextFile(results.get(o.file) ?? blank(o.file), o, groupSettings));
    }
  }
  progress.done();
  for (const folder of discovery.unreadableFolders) results.set(folder, { ...blank(folder), findings: [fileFinding('skipped-file', 'Could not read this folder (no permission), so nothing in it was analysed or changed.')] });
  for (const file of adapters.write()) results.set(file.absPath, { ...blank(file.absPath), ...file });
  for (const r of results.values()) if (groups.has(r.absPath)) r.writeGroup = groups.of(r.absPath);
  refuseUnsafeWrites([...results.values()].filter((r) => r.changed), (file) => adapters.refusal(file));
  // A package.json that cannot be read is reported where the run reports on its files.
  if (results.size) resolver();
  reportMalformed([...malformed.values()], results, (file) => ({ base: blank(file), rules: settingsOf(file).rules }));
  // A partial run reports what it was asked about and what must move with it: the rest of its JS write
  // groups, and the text files linked to its text files (the text engine's write group is all of its
  // files, most of them unrelated).
  const askedGroups = new Set([...(asked ?? [])].filter((f) => groups.has(f) && !textLinks.has(f)).map((f) => groups.of(f)));
  const askedText = linkedClosure([...(asked ?? [])].filter((f) => textLinks.has(f)), textLinks);
  const movesWithAsked = (file: string): boolean => (textLinks.has(file) ? askedText.has(file) : groups.has(file) && askedGroups.has(groups.of(file)));
  const inRun = (r: FileResult): boolean => !asked || isAsked(r.absPath) || (movesWithAsked(r.absPath) && (r.changed || r.findings.length > 0));
  const listed = [...results.values()].filter((r) => inRun(r) && (r.changed || r.findings.length || r.suppressed.length || r.inventory)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const pulledIn = asked ? { pulledIn: listed.filter((r) => !isAsked(r.absPath)).map((r) => r.path) } : {};
  const notScanned = discovery.notScanned.files ? { notScanned: discovery.notScanned } : {};
  return { results: listed, summary: summarize(listed, files.length), ...(shard ? { shard } : {}), ...pulledIn, ...(asked ? { asked: asked.size } : {}), ...notScanned };
}

/** The files reachable from `start` through `links`, `start` included. */
function linkedClosure(start: readonly string[], links: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set(start);
  for (let frontier = [...start]; frontier.length; ) frontier = frontier.flatMap((f) => (links.get(f) ?? []).filter((g) => !seen.has(g) && seen.add(g)));
  return seen;
}

/**
 * A `malformed-config` finding on each file that could not be used, where it can matter: always for
 * a v2-migrate config, and for a package.json or .gitignore when the folder it governs holds a file
 * the run reports on (one that mentions RunPod: the settings it might have held could change that).
 * A parser's deliberately broken fixture in a repository that does not use RunPod says nothing.
 */
function reportMalformed(problems: readonly Malformed[], results: Map<string, FileResult>, blankOf: (file: string) => { base: FileResult; rules: Settings['rules'] }): void {
  if (!problems.length) return;
  const reported = [...results.values()].filter((r) => r.changed || r.findings.length || r.suppressed.length || r.inventory).map((r) => r.absPath);
  for (const p of problems) {
    const inside = folderPrefix(path.dirname(p.file));
    if (!p.ours && !reported.some((f) => f.startsWith(inside))) continue;
    const { base, rules } = blankOf(p.file);
    const found = applyRuleSettings([{ ruleId: 'malformed-config', severity: RULES['malformed-config'].severity, line: p.line, column: p.column, message: p.message, fixable: false }], rules);
    if (!found.length) continue;
    const existing = results.get(p.file) ?? base;
    const prints = lazy(() => linePrints(found, splitLines(readOrEmpty(p.file), p.file)));
    results.set(p.file, { ...existing, findings: [...existing.findings, ...found].sort(compareFindings), prints: { get: (f) => existing.prints.get(f) ?? prints().get(f) } });
  }
}

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/**
 * A change the tool will not write, whatever the mode: through a symbolic link (its target may lie
 * outside the tree the user named), over a read-only file, or what `refusal` names (a file of the
 * project where a generated adapter file goes). The file keeps its text, with a finding,
 * and so does every file of its write group: they move together or not at all.
 */
function refuseUnsafeWrites(changed: readonly FileResult[], refusal: (file: string) => string | null): void {
  const heldBy = new Map<string, FileResult>();
  for (const r of changed) {
    const why = unsafeWrite(r.absPath) ?? refusal(r.absPath);
    if (!why) continue;
    keepText(r, `Not rewritten: ${why}.`);
    if (r.writeGroup && !heldBy.has(r.writeGroup)) heldBy.set(r.writeGroup, r);
  }
  for (const r of changed) {
    const culprit = r.writeGroup && r.changed ? heldBy.get(r.writeGroup) : undefined;
    if (culprit) keepText(r, `Not rewritten: it must move with ${culprit.path}, which v2-migrate cannot write (see the finding there).`);
  }
}

function unsafeWrite(file: string): string | null {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) return `it is a symbolic link (to ${fs.readlinkSync(file)}), and v2-migrate never writes through one: run it on the target`;
  if (stat && (stat.mode & 0o222) === 0) return 'it is read-only: make it writable to let v2-migrate change it';
  return null;
}

function keepText(r: FileResult, message: string): void {
  Object.assign(r, { changed: false, before: undefined, after: undefined, bytes: undefined });
  r.findings = [...r.findings.map((f) => (f.fixable ? { ...f, fixable: false } : f)), fileFinding('skipped-file', message)].sort(compareFindings);
}

/** Write groups: sets of files joined when one must move with another (union-find, keyed by a member). */
class Groups {
  private readonly parent = new Map<string, string>();

  has(file: string): boolean {
    return this.parent.has(file);
  }

  of(file: string): string {
    let root = file;
    while (this.parent.get(root) !== undefined && this.parent.get(root) !== root) root = this.parent.get(root)!;
    return root;
  }

  join(a: string, b: string): void {
    for (const f of [a, b]) if (!this.parent.has(f)) this.parent.set(f, f);
    const [ra, rb] = [this.of(a), this.of(b)];
    if (ra !== rb) this.parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
}

/** Path of `to` relative to `from`, with '/': a plain prefix cut for the common case of a file below the folder. */
const relative = (from: string, to: string): string => {
  const prefix = from.endsWith(path.sep) ? from : from + path.sep;
  const rel = to.startsWith(prefix) ? to.slice(prefix.length) : to === from ? '' : path.relative(from, to);
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
};

/**
 * A per-file answer that depends only on the file's folder, worked out once per folder. Files come
 * in path order, so most calls are answered by the previous file's folder without a lookup.
 */
function perFolder<T>(answer: (file: string) => T): (file: string) => T {
  const byFolder = new Map<string, { answer: T }>();
  let last: { prefix: string; answer: T } | null = null;
  return (file) => {
    // The previous file's folder is tested without making a string.
    if (last && directlyIn(file, last.prefix)) return last.answer;
    const prefix = file.slice(0, file.lastIndexOf(path.sep) + 1);
    let known = byFolder.get(prefix);
    if (!known) byFolder.set(prefix, (known = { answer: answer(file) }));
    last = { prefix, answer: known.answer };
    return known.answer;
  };
}

/** A group's files by the engines that read them (kinds.ts), each file's name classified once. */
function splitByKind(files: readonly string[]): Record<'js' | 'env' | 'text' | 'other', string[]> {
  const out: Record<'js' | 'env' | 'text' | 'other', string[]> = { js: [], env: [], text: [], other: [] };
  for (const f of files) {
    const kind = kindOf(f);
    if (kind.js) out.js.push(f);
    // A .env file is read by both engines; a file the JS engine reads is never the text engine's.
    if (kind.env) out.env.push(f);
    if (kind.text && !kind.js) out.text.push(f);
    if (kind.other !== null) out.other.push(f);
  }
  return out;
}

/**
 * A run's files by the settings that apply to them. Settings change only at a folder that holds a
 * config: when the run's one listed folder holds none below it, every file has the first one's.
 */
function configGroups(files: string[], settingsOf: (file: string) => Settings, listed: ListedFolder | null, report: ReportMalformed): Map<Settings, string[]> {
  const [first] = files;
  if (first !== undefined && listed && !configBelow(listed.root, listed.holding, report)) return new Map([[settingsOf(first), files]]);
  return groupBy(files, settingsOf);
}

function groupBy<K>(files: readonly string[], key: (file: string) => K): Map<K, string[]> {
  const out = new Map<K, string[]>();
  for (const f of files) {
    const k = key(f);
    pushTo(out, k, f);
  }
  return out;
}

/** A package config's `ignore` globs are relative to that config's folder. */
function withoutIgnored(files: readonly string[], settings: Settings): string[] {
  if (!settings.ignore.length || !settings.configFile) return [...files];
  const dir = path.dirname(settings.configFile.replace(/#v2-migrate$/, ''));
  const rules = ignore().add(settings.ignore);
  return files.filter((f) => {
    const rel = relative(dir, f);
    return rel.startsWith('..') || !rules.ignores(rel);
  });
}
