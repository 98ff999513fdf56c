import type { MigrateResult } from '../pipeline/js.js';
import type { ComponentOutcome, ComponentTask } from './component.js';
import { pushTo } from '../util/multimap.js';

/**
 * A large import-connected component is analysed in groups, so that the time and memory of a run
 * follow the size of its groups rather than of the component. A component is usually connected by
 * helpers every file imports (a logger, a config, shared types): the groups are cut there, and each
 * group gets its own copy of the helpers it imports. Cutting is only an optimisation: the run keeps
 * the groups apart only when the whole component would have given the same results, which it checks
 * after the analysis (see `settle`), and otherwise analyses the groups involved together.
 */

/** Below twice this much source a component is analysed whole: splitting it would save nothing. */
const MIN_GROUP_BYTES = 128 * 1024;
/** Tests set the size of a group (every set its own group: 1). */
const FIXED_GROUP_BYTES = process.env.V2_MIGRATE_GROUP_BYTES ? Number(process.env.V2_MIGRATE_GROUP_BYTES) : null;
/** A group holds at least this many times the source of the helpers it shares (every group parses them again). */
const SHARED_FACTOR = 4;

/** What a file imports among the run's files (undefined: not read). */
export interface ImportsOf {
  get(file: string): readonly string[] | undefined;
}

export interface SplitInput {
  /** The component's files, sorted. */
  files: readonly string[];
  importsOf: ImportsOf;
  /** Seeds and their importers; the other files of the component are helpers (only imported). */
  isCaller: (file: string) => boolean;
  bytesOf: (file: string) => number;
}

/**
 * Groups of a component that may be analysed apart, or null to analyse it whole. Helpers that import
 * only such helpers (a leaf logger, a types module) join nothing: the callers and the other helpers
 * form sets joined by their imports, each set takes the helpers it reaches, and sets are packed, in
 * path order, into groups of a size that keeps copying the shared helpers cheap.
 */
export function splitComponent({ files, importsOf, isCaller, bytesOf }: SplitInput): string[][] | null {
  const total = files.reduce((n, f) => n + bytesOf(f), 0);
  if (total < 2 * (FIXED_GROUP_BYTES ?? MIN_GROUP_BYTES)) return null;
  const inComponent = new Set(files);
  const importsIn = (f: string): string[] => (importsOf.get(f) ?? []).filter((g) => g !== f && inComponent.has(g));
  // A helper stays pure while everything it imports is a pure helper (a fixpoint, cycles included).
  const pure = new Set(files.filter((f) => !isCaller(f)));
  for (let changed = true; changed; ) {
    changed = false;
    for (const f of pure) if (importsIn(f).some((g) => !pure.has(g))) changed = pure.delete(f);
  }
  const parent = new Map(files.filter((f) => !pure.has(f)).map((f) => [f, f]));
  const find = (f: string): string => {
    let r = f;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(f, r);
    return r;
  };
  for (const f of parent.keys()) for (const g of importsIn(f)) if (!pure.has(g)) parent.set(find(f), find(g));
  const sets = new Map<string, string[]>();
  for (const f of parent.keys()) pushTo(sets, find(f), f);
  if (sets.size < 2) return null;
  const reach = [...sets.values()].map((set) => {
    const out = new Set(set);
    const queue = [...set];
    for (let f = queue.pop(); f !== undefined; f = queue.pop()) for (const g of importsIn(f)) if (pure.has(g) && !out.has(g)) queue.push((out.add(g), g));
    return out;
  });
  const users = new Map<string, number>();
  for (const set of reach) for (const f of set) if (pure.has(f)) users.set(f, (users.get(f) ?? 0) + 1);
  const sharedBytes = [...users].reduce((n, [f, k]) => (k > 1 ? n + bytesOf(f) : n), 0);
  const target = FIXED_GROUP_BYTES ?? Math.max(MIN_GROUP_BYTES, SHARED_FACTOR * sharedBytes);
  const groups: string[][] = [];
  let current = new Set<string>();
  let bytes = 0;
  for (const set of reach) {
    for (const f of set) if (!current.has(f)) bytes += (current.add(f), bytesOf(f));
    if (bytes < target) continue;
    groups.push([...current].sort());
    current = new Set();
    bytes = 0;
  }
  if (current.size) groups.push([...current].sort());
  return groups.length > 1 ? groups : null;
}

interface Group {
  files: string[];
  /** The quote new strings are written with, when the group's own literals would choose another than the component's. */
  quote?: string;
  outcome?: ComponentOutcome;
}

/** How a group becomes a task: its files, which of them other groups share, and a forced quote. */
export type MakeTask = (files: readonly string[], shared: ReadonlySet<string>, quote: string | undefined) => ComponentTask;
/** Analyse tasks (from a cache, inline or on helper threads). */
export type RunTasks = (tasks: ComponentTask[]) => Promise<Map<ComponentTask, ComponentOutcome>>;

/**
 * Analyse components (each split in groups where `split` says so) and return every file's result.
 * Groups run in rounds: after each, a component whose groups did not stay apart gets the groups
 * involved merged (or a quote fixed) and those run again.
 */
export async function analyseInGroups(components: readonly string[][], split: (component: string[]) => string[][] | null, makeTask: MakeTask, runTasks: RunTasks): Promise<Map<string, MigrateResult>> {
  const plans = components.map((c) => ({ files: c, groups: (split(c) ?? [c]).map((files): Group => ({ files })) }));
  for (;;) {
    const pending: Array<[Group, ComponentTask]> = [];
    for (const plan of plans) {
      const shared = sharedFiles(plan.groups);
      for (const g of plan.groups) if (!g.outcome) pending.push([g, makeTask(g.files, new Set(g.files.filter((f) => shared.has(f))), g.quote)]);
    }
    if (!pending.length) break;
    const outcomes = await runTasks(pending.map(([, t]) => t));
    for (const [g, t] of pending) g.outcome = outcomes.get(t)!;
    for (const plan of plans) if (plan.groups.length > 1) plan.groups = settle(plan.files, plan.groups);
  }
  const results = new Map<string, MigrateResult>();
  for (const plan of plans) for (const g of plan.groups) for (const [file, r] of g.outcome!.results) if (!results.has(file)) results.set(file, r);
  return results;
}

/** Files in more than one group. */
function sharedFiles(groups: readonly Group[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const g of groups) for (const f of g.files) (seen.has(f) ? shared : seen).add(f);
  return shared;
}

/**
 * The groups of a component after a round. A shared file is clean when no group's analysis looked
 * past it (asked who imports it or calls into it, or planned an edit in it) and no group has a
 * change or a finding for it: then no group's results depend on the files of another, and the whole
 * component would have given the same. Groups that share a file that is not clean are merged. Last,
 * new strings are written with the quote the whole component's literals prefer.
 */
function settle(component: readonly string[], groups: Group[]): Group[] {
  const shared = sharedFiles(groups);
  const dirty = new Set<string>();
  for (const g of groups) {
    for (const f of g.outcome!.crossTalk) if (shared.has(f)) dirty.add(f);
    for (const [f, r] of g.outcome!.results) if (shared.has(f) && (r.output !== null || r.findings.length)) dirty.add(f);
  }
  if (dirty.size) return mergeSharing(groups, dirty);
  const counts = new Map<string, [number, number]>();
  for (const g of groups) for (const [f, single, double] of g.outcome!.quotes) counts.set(f, [single, double]);
  // A group the engine failed on reported no literals: the component is analysed whole.
  if (groups.some((g) => !g.outcome!.quotes.length)) return [{ files: [...component] }];
  const quote = majorityQuote(component.map((f) => counts.get(f)));
  for (const g of groups) {
    if ((g.quote ?? majorityQuote(g.files.map((f) => counts.get(f)))) === quote) continue;
    g.quote = quote;
    delete g.outcome;
  }
  return groups;
}

/** The quote preferredQuote (js/edits.ts) picks from these files' string literals (env files have none). */
function majorityQuote(counts: ReadonlyArray<[number, number] | undefined>): string {
  let single = 0;
  let double = 0;
  for (const c of counts) {
    single += c?.[0] ?? 0;
    double += c?.[1] ?? 0;
  }
  return double > single ? '"' : "'";
}

/** Merge the groups that share one of `files` (transitively), to be analysed again; the others keep their outcome. */
function mergeSharing(groups: readonly Group[], files: ReadonlySet<string>): Group[] {
  const parent = groups.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const holder = new Map<string, number>();
  groups.forEach((g, i) => {
    for (const f of g.files) {
      if (!files.has(f)) continue;
      const first = holder.get(f);
      if (first === undefined) holder.set(f, i);
      else parent[find(i)] = find(first);
    }
  });
  const merged = new Map<number, Group[]>();
  groups.forEach((g, i) => pushTo(merged, find(i), g));
  return [...merged.values()].map((gs) => (gs.length === 1 ? gs[0]! : { files: [...new Set(gs.flatMap((g) => g.files))].sort() }));
}
