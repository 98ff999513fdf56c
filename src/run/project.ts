import fs from 'node:fs';
import path from 'node:path';
import type { Settings } from '../config.js';
import type { MigrateResult } from '../pipeline/js.js';
import { isEnvFile } from '../scan/kinds.js';
import { decode, isUtf16, lenientText, type Decoded } from './files.js';
import { bytesContainAny, MENTION_NEEDLES, prefilterNeedles, screenNeedlesFor } from '../scan/prefilter.js';
import { moduleSpecifiers } from './imports.js';
import { ImportGraph } from './import-graph.js';
import { NO_MATCH, screenEach, type Screen } from './screen.js';
import { notParsedBecause, scanLargeFile } from '../scan/large.js';
import type { ModuleResolver } from '../scan/resolve.js';
import type { ComponentOutcome, ComponentResult, ComponentTask } from './component.js';
import { analyseInGroups, splitComponent, type ImportsOf } from './groups.js';
import { analyseComponents } from './analyse.js';
import type { ResultCache } from './cache.js';
import { pushTo } from '../util/multimap.js';
import { baseVariables } from '../scan/dotenv.js';
import { mayReadEnv } from '../scan/env-reads.js';

/** How many import hops a caller may be from a file that mentions RunPod and still take part. */
const IMPORT_HOPS = 3;
/** How many import hops a helper (something imported) may be from those files. */
const HELPER_HOPS = 2;

export interface JsFileOutcome {
  file: string;
  decoded: Decoded;
  bytes: number;
  result: MigrateResult | null;
  /** The import component the file was analysed in (its first file): files whose changes must be written together. */
  group?: string;
}


function readEnvFiles(files: readonly string[], mayMatter: (text: string) => boolean): Array<{ file: string; decoded: Decoded & { kind: 'text' }; bytes: number }> {
  const out: Array<{ file: string; decoded: Decoded & { kind: 'text' }; bytes: number }> = [];
  for (const file of files.filter(isEnvFile)) {
    try {
      const bytes = fs.readFileSync(file);
      const decoded = decode(bytes);
      if (decoded.kind === 'text' && mayMatter(decoded.text)) out.push({ file, decoded, bytes: bytes.length });
    } catch {
      continue;
    }
  }
  return out;
}


/** How a call to a wrapper declared in the config reads (`name(`). */
const declaredWrapperCalls = (settings: Settings): string[] => settings.wrappers.map((w) => `${w.name.split('.').pop()}(`);

/** What makes a JS/TS file a seed, .env-based variables aside: a RunPod host, a declared wrapper's call. */
export const seedNeedlesOf = (settings: Settings): string[] => [...prefilterNeedles(settings.bases), ...declaredWrapperCalls(settings)];

/** Every needle the byte screen of a run with these settings may be asked for, .env-based ones aside. */
export const screenNeedles = (settings: Settings): string[] => screenNeedlesFor(settings.bases, declaredWrapperCalls(settings));

export interface JsRunOptions {
  /** A byte screen fed during discovery. */
  early?: Screen | null;
  mayMatter: (text: string) => boolean;
  /** Worker threads (1: inline). */
  jobs?: number;
  /** How the run resolves import specifiers to its files (tsconfig paths, workspace packages, …). */
  resolver: ModuleResolver;
  /** Analyse only components that contain one of these files (a partial run: what it was asked about). */
  focus?: ReadonlySet<string>;
  cache?: ResultCache;
  onRead?: (file: string, lenient: string | null) => void;
  onAnalysed?: (files: number, result: ComponentResult) => void;
}

/**
 * Pick the files of a run that can matter and migrate them together: files that mention a RunPod
 * host (seeds), files within a few import hops of a seed (wrapper modules, their call sites, the
 * helpers they use), and .env files that hold a v1 base. Returns an outcome for every JS/TS file
 * read (result null for files that take no part) and for each .env file taken.
 */
export async function migrateJsFiles(jsFiles: readonly string[], envFiles: readonly string[], settings: Settings, run: JsRunOptions): Promise<JsFileOutcome[]> {
  const { mayMatter, jobs = 1, focus, cache, resolver, onRead = () => {}, onAnalysed = () => {} } = run;
  const known = new Set(jsFiles);
  const envInputs = readEnvFiles(envFiles, mayMatter);
  // Code reading a variable that a .env file sets to a RunPod URL is a seed too.
  const envNames = [...new Set(envInputs.flatMap((e) => baseVariables(e.decoded.text, settings.bases.legacy)))];
  const readsEnv = (text: string): boolean => envNames.some((n) => mayReadEnv(text, n));
  // Calls to wrappers declared in the config make a file a seed (their code and base are elsewhere).
  const wrapperNames = declaredWrapperCalls(settings);
  const callsDeclaredWrapper = (text: string): boolean => wrapperNames.some((n) => text.includes(n));
  const decodedOf = new Map<string, { decoded: Decoded; bytes: number }>();
  const large: JsFileOutcome[] = [];
  const seeds: string[] = [];
  // Most files cannot matter: they are tested as bytes, and no string is made for them.
  const seedNeedles = [...seedNeedlesOf(settings), ...envNames];
  const mentionsRunpod = bytesContainAny(MENTION_NEEDLES);
  const couldBeSeed = bytesContainAny(seedNeedles);
  const screened = await screenEach(jsFiles, [...seedNeedles, ...MENTION_NEEDLES], (file, bytes) => {
    if (!bytes) return onRead(file, null);
    // Most files of a tree: the screen found none of the needles (and git grep, mostly, read them).
    if (bytes === NO_MATCH) return onRead(file, '');
    const utf16 = isUtf16(bytes);
    if (!utf16 && !couldBeSeed(bytes)) return onRead(file, mentionsRunpod(bytes) ? bytes.toString('latin1') : '');
    const lenient = lenientText(bytes);
    onRead(file, lenient);
    const notParsed = notParsedBecause(lenient, bytes.length, settings.maxFileSizeMB);
    if (notParsed) {
      // A bundle, generated code, or too large to parse: scanned as text only, never part of the project.
      if (mayMatter(lenient) && (!focus || focus.has(file))) large.push({ file, decoded: decode(bytes), bytes: bytes.length, result: { output: null, findings: scanLargeFile(lenient, settings.bases, settings.maxFileSizeMB, notParsed) } });
      return;
    }
    if (mayMatter(lenient) || readsEnv(lenient) || callsDeclaredWrapper(lenient)) {
      seeds.push(file);
      decodedOf.set(file, { decoded: decode(bytes), bytes: bytes.length });
    }
  }, jobs, run.early, seedNeedles);
  seeds.sort();
  if (!seeds.length) return [...large];
  const graph = new ImportGraph(jsFiles, resolver, known, screened);
  const { callers, taken } = importClosure(seeds, graph);
  if (focus) takeImportChains(focus, graph, taken);
  const outcomes: JsFileOutcome[] = [...large];
  const texts = new Map<string, string>();
  for (const file of [...taken].sort()) {
    let entry = decodedOf.get(file);
    if (!entry) {
      try {
        const bytes = fs.readFileSync(file);
        entry = { decoded: decode(bytes), bytes: bytes.length };
      } catch {
        continue;
      }
    }
    outcomes.push({ file, ...entry, result: null });
    if (entry.decoded.kind === 'text') texts.set(file, entry.decoded.text);
  }
  const components = connectedComponents([...texts.keys()], graph);
  // A .env file joins every component whose code reads one of its variables (merging them). In a
  // partial run only a .env asked about, or one above a file of the groups asked about (so it serves
  // that code), joins: a .env elsewhere in the project that sets a variable of the same name belongs to
  // other code.
  const serves = focus ? envServesFocus(components, focus) : () => true;
  for (const e of envInputs) {
    if (!serves(e.file)) continue;
    const names = baseVariables(e.decoded.text, settings.bases.legacy);
    const readers = components.filter((c) => c.some((f) => names.some((n) => mayReadEnv(texts.get(f)!, n))));
    if (!readers.length) continue;
    const merged = [...readers.flat(), e.file];
    components.splice(0, components.length, ...components.filter((c) => !readers.includes(c)), merged);
    outcomes.push({ file: e.file, decoded: e.decoded, bytes: e.bytes, result: null });
    texts.set(e.file, e.decoded.text);
  }
  if (focus) components.splice(0, components.length, ...components.filter((c) => c.some((f) => focus.has(f))));
  if (!components.length) return outcomes;
  const offRules = Object.entries(settings.rules).filter(([, v]) => v === 'off').map(([k]) => k);
  const options = { bases: settings.bases, gpuPools: settings.gpuPools, preserveV1Defaults: settings.preserveV1Defaults, adapters: settings.adapters, offRules, wrappers: settings.wrappers };
  // Each group carries how its files' imports resolve, so the engine (maybe on another thread)
  // follows values as the run resolved them, and the result cache keys on it. Read again off the few
  // files taken, as the engine decodes them (the graph's specifiers come from bytes read leniently, so a
  // non-ASCII one would not match the source), once per file however many groups share it.
  const importsOfFile = new Map<string, Record<string, string>>();
  const importsIn = (file: string): Record<string, string> => {
    let out = importsOfFile.get(file);
    if (out) return out;
    importsOfFile.set(file, (out = {}));
    for (const spec of isEnvFile(file) ? [] : moduleSpecifiers(texts.get(file)!)) {
      const target = resolver.resolve(file, spec, (f) => known.has(f));
      if (target) out[spec] = target;
    }
    return out;
  };
  const makeTask = (files: readonly string[], shared: ReadonlySet<string>, quote: string | undefined): ComponentTask => ({
    inputs: files.map((file) => ({ file, source: texts.get(file)!, ...(shared.has(file) ? { shared: true } : {}) })),
    options: { ...options, imports: Object.fromEntries(files.map((f) => [f, importsIn(f)])), ...(quote ? { quote } : {}) },
  });
  const runTasks = async (tasks: ComponentTask[]): Promise<Map<ComponentTask, ComponentOutcome>> => {
    const done = new Map<ComponentTask, ComponentOutcome>();
    const misses: ComponentTask[] = [];
    for (const task of tasks) {
      const hit = cache?.get(task);
      if (hit) done.set(task, hit);
      else misses.push(task);
    }
    for await (const [task, outcome] of analyseComponents(misses, jobs)) {
      cache?.set(task, outcome);
      done.set(task, outcome);
    }
    return done;
  };
  // A component with a .env file stays whole: its values are read wherever the code is (envReads).
  const split = (c: string[]): string[][] | null => (c.some(isEnvFile) ? null : splitComponent({ files: c, importsOf: graph, isCaller: (f) => callers.has(f), bytesOf: (f) => texts.get(f)!.length }));
  const results = await analyseInGroups(components.map((c) => [...c].sort()), split, makeTask, runTasks);
  for (const c of components) onAnalysed(c.length, c.flatMap((f): ComponentResult => (results.has(f) ? [[f, results.get(f)!]] : [])));
  // Files of one import component are written together, however the analysis split it.
  const groupOf = new Map(components.flatMap((c) => { const first = [...c].sort()[0]!; return c.map((f) => [f, first] as const); }));
  for (const o of outcomes) {
    o.result = results.get(o.file) ?? o.result;
    const group = groupOf.get(o.file);
    if (group) o.group = group;
  }
  return outcomes;
}

/** Whether a .env file serves the groups of a partial run: asked about, or in a folder above one of their files (as they stand when asked). */
function envServesFocus(components: ReadonlyArray<readonly string[]>, focus: ReadonlySet<string>): (envFile: string) => boolean {
  const folders = new Set<string>();
  for (const c of components) {
    if (!c.some((f) => focus.has(f))) continue;
    for (const f of c) {
      for (let d = path.dirname(f); !folders.has(d); d = path.dirname(d)) {
        folders.add(d);
        if (path.dirname(d) === d) break;
      }
    }
  }
  return (envFile) => focus.has(envFile) || folders.has(path.dirname(envFile));
}

/**
 * The files a run needs around its seeds: their importers, transitively within IMPORT_HOPS (wrapper
 * modules and the call sites that use them), and what all of those import, within HELPER_HOPS (the
 * fetch helper, the constants module). Never the importers of a helper: a client that imports the
 * shared logger must not pull in everything else that imports the logger.
 */
function importClosure(seeds: readonly string[], graph: ImportGraph): { callers: Set<string>; taken: Set<string> } {
  const callers = new Set(seeds);
  let frontier = new Set(seeds);
  for (let hop = 0; hop < IMPORT_HOPS && frontier.size; hop++) {
    frontier = new Set(graph.importersOf(frontier, callers));
    for (const f of frontier) callers.add(f);
  }
  const taken = new Set(callers);
  let helpers = [...callers];
  for (let hop = 0; hop < HELPER_HOPS && helpers.length; hop++) {
    const next: string[] = [];
    for (const f of helpers) for (const g of graph.get(f) ?? []) if (!taken.has(g)) next.push((taken.add(g), g));
    helpers = next;
  }
  return { callers, taken };
}

/**
 * A file a partial run was asked about takes part when it reaches a taken file through its imports,
 * however many hops away (a page that calls a workspace client's function whose request is three
 * modules deep): it and the files on its import chain join, so its group is analysed and reported.
 */
function takeImportChains(focus: ReadonlySet<string>, graph: ImportGraph, taken: Set<string>): void {
  const cameFrom = new Map<string, string | null>();
  let frontier = [...focus].filter((f) => graph.has(f) && !taken.has(f));
  for (const f of frontier) cameFrom.set(f, null);
  while (frontier.length) {
    const next: string[] = [];
    for (const f of frontier) {
      for (const g of graph.get(f) ?? []) {
        if (taken.has(g)) for (let h: string | null = f; h !== null && !taken.has(h); h = cameFrom.get(h) ?? null) taken.add(h);
        else if (!cameFrom.has(g)) next.push((cameFrom.set(g, f), g));
      }
    }
    frontier = next;
  }
}

/** Groups of files connected by imports (undirected), each sorted; groups in order of their first file. */
function connectedComponents(files: readonly string[], importsOf: ImportsOf): string[][] {
  const parent = new Map(files.map((f) => [f, f]));
  const find = (f: string): string => {
    let r = f;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(f, r);
    return r;
  };
  for (const f of files) for (const g of importsOf.get(f) ?? []) if (parent.has(g)) parent.set(find(f), find(g));
  const groups = new Map<string, string[]>();
  for (const f of files) pushTo(groups, find(f), f);
  return [...groups.values()].map((g) => g.sort()).sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}
