/**
 * The text engine over a project: shell scripts that run as one program and Python modules that
 * import from each other share bases, constants and wrapper functions. Each file is still planned by
 * its own engine; this layer hands each file what the others define, and replans them until they agree:
 * a base moves only when every use of it, in every file, moves with it — else it stays on v1 with an
 * error naming the use that holds it, and the paths built on it stay too.
 */
import path from 'node:path';
import type { Bases } from '../url/shape.js';
import { Lines } from '../util/lines.js';
import { markerCache, partitionFindings, type MarkerIndex } from '../markers/index.js';
import { ForeignIds } from './foreign.js';
import { relativeFrom as relative } from '../util/folders.js';
import { languageOf } from './language.js';
import { joinShellScripts, shellViews } from './links-shell.js';
import { joinImporters, pythonViews } from './links-python.js';
import { settingsHolds } from './links-config.js';
import { lazy } from '../util/lazy.js';
import { scanText, type TextLinks, type TextScanResult } from './index.js';
import type { TPiece } from './plan.js';
import { isBaseRule } from '../plan/policy.js';

export interface TextSource {
  file: string;
  text: string;
  /** For a .env file: variables the JS engine says must keep their v1 base. */
  heldVars?: Readonly<Record<string, string>>;
}

type Held = Map<number, { where: string; why: 'uncovered' | 'request' }>;

/**
 * Scan `sources` (files that mention a RunPod host) as one project. `others`: shell and Python files
 * that do not, read with `read` when a script of the program calls into them or a module imports
 * from a RunPod one. Returns the result of every file scanned, those joined from `others` included.
 */
export function scanTextProject(sources: readonly TextSource[], others: readonly string[], read: (file: string) => string | null, bases: Bases): Map<string, TextScanResult> {
  const ids = new ForeignIds();
  const needles = [...new Set([...bases.legacy, bases.target].map((u) => new URL(u).host))];
  const shells = sources.filter((s) => languageOf(path.basename(s.file)) === 'shell');
  const pys = sources.filter((s) => languageOf(path.basename(s.file)) === 'python');
  const otherShells = others.filter((f) => languageOf(path.basename(f)) === 'shell');
  const otherPys = others.filter((f) => languageOf(path.basename(f)) === 'python');
  const program = [...shells, ...joinShellScripts(shells, otherShells, read, needles)];
  const allPy = new Set([...pys.map((p) => p.file), ...otherPys]);
  const modules = [...pys, ...joinImporters(pys, otherPys, read, allPy)];
  const shellLinks = shellViews(program, bases, ids, needles);
  const pyLinks = pythonViews(modules, bases, ids, allPy);

  const linked = [...program.filter((s) => shellLinks.has(s.file)), ...modules.filter((m) => pyLinks.get(m.file)?.from.size || isImportedFrom(m.file, pyLinks))];
  const linkedSet = new Set(linked.map((s) => s.file));
  const results = new Map<string, TextScanResult>();
  // Files are scanned in rounds until what they hold settles: their markers are parsed once.
  const markersOf = markerCache();
  for (const s of [...sources, ...program, ...modules]) {
    if (!linkedSet.has(s.file) && !results.has(s.file)) results.set(s.file, scanText(s.text, s.file, bases, (s as TextSource).heldVars ?? {}, {}, markersOf(s.text, s.file)));
  }
  if (!linked.length) return withSettingsHolds(sources, results, bases, markersOf, others, read);

  const byFile = new Map(linked.map((s) => [s.file, s as TextSource]));
  const lines = new Map<string, Lines>();
  const linesOf = (file: string): Lines => lines.get(file) ?? lines.set(file, new Lines(byFile.get(file)!.text)).get(file)!;
  const foreignUsed = new Map(linked.map((s) => [s.file, foreignIdsIn(s.file, shellLinks, pyLinks)]));
  let here = new Map<string, Held>();
  let there = new Map<string, Map<number, string>>();
  let talks = new Set<string>();
  const scanAll = (): Map<string, TextScanResult> => {
    const out = new Map<string, TextScanResult>();
    for (const s of linked) {
      const py = pyLinks.get(s.file);
      const links: TextLinks = {
        holds: { here: here.get(s.file) ?? new Map(), there: there.get(s.file) ?? new Map() },
        ...(shellLinks.has(s.file) ? { shell: shellLinks.get(s.file)! } : {}),
        ...(py ? { python: { imports: py.imports, readsRunpod: [...py.from].some((f) => talks.has(f)) } } : {}),
      };
      out.set(s.file, scanText(s.text, s.file, bases, (s as TextSource).heldVars ?? {}, links, markersOf(s.text, s.file)));
    }
    return out;
  };
  let round: Map<string, TextScanResult> = new Map();
  let settled = false;
  for (let n = 0; n < 8 && !settled; n++) {
    round = scanAll();
    const nextHere = new Map<string, Held>();
    for (const [reader, r] of round) {
      for (const [id, h] of r.cross?.held ?? []) {
        const at = id < 0 ? ids.lookup(id) : undefined;
        if (!at || !byFile.has(at.file)) continue;
        const held = nextHere.get(at.file) ?? nextHere.set(at.file, new Map()).get(at.file)!;
        if (!held.has(at.offset)) held.set(at.offset, { where: `${h.where} of ${relative(at.file, reader)}`, why: h.why });
      }
    }
    const nextThere = new Map<string, Map<number, string>>();
    for (const [reader, used] of foreignUsed) {
      for (const id of used) {
        const at = ids.lookup(id)!;
        const def = round.get(at.file);
        const source = byFile.get(at.file)!;
        if (def && moves(def, markersOf(source.text, source.file), linesOf(at.file).pos(at.offset))) continue;
        const held = nextThere.get(reader) ?? nextThere.set(reader, new Map()).get(reader)!;
        held.set(id, `line ${linesOf(at.file).pos(at.offset).line} of ${relative(reader, at.file)}`);
      }
    }
    const nextTalks = new Set([...round].filter(([, r]) => r.cross?.talksRest).map(([f]) => f));
    settled = same(nextHere, here) && same(nextThere, there) && [...nextTalks].join() === [...talks].join();
    here = nextHere;
    there = nextThere;
    talks = nextTalks;
  }
  if (!settled) {
    // Files that never agree move nothing they share: every shared literal stays where it is.
    there = new Map([...foreignUsed].map(([reader, used]) => [reader, new Map([...used].map((id) => [id, `${relative(reader, ids.lookup(id)!.file)}`]))]));
    for (const [, used] of foreignUsed) {
      for (const id of used) {
        const at = ids.lookup(id)!;
        const held = here.get(at.file) ?? here.set(at.file, new Map()).get(at.file)!;
        held.set(at.offset, { where: 'code in other files that v2-migrate could not settle', why: 'uncovered' });
      }
    }
    round = scanAll();
  }
  for (const [file, r] of round) results.set(file, r);
  for (const [file, others] of linksBetween(foreignUsed, ids, pyLinks)) {
    const r = results.get(file);
    if (r) r.linked = [...others].sort();
  }
  return withSettingsHolds(sources, results, bases, markersOf, others, read);
}

/** Which files share what: a reader and the file that defines a value it uses, a module and those it imports from (both ways). */
function linksBetween(foreignUsed: ReadonlyMap<string, ReadonlySet<number>>, ids: ForeignIds, py: ReadonlyMap<string, { from: ReadonlySet<string> }>): Map<string, Set<string>> {
  const links = new Map<string, Set<string>>();
  const link = (a: string, b: string): void => {
    if (a === b) return;
    for (const [x, y] of [[a, b], [b, a]] as const) (links.get(x) ?? links.set(x, new Set()).get(x)!).add(y);
  };
  for (const [reader, used] of foreignUsed) for (const id of used) link(reader, ids.lookup(id)!.file);
  for (const [file, view] of py) for (const from of view.from) link(file, from);
  return links;
}

/** Settings files whose base a file of the project reads where its requests cannot be followed: scanned again with that base held. */
function withSettingsHolds(sources: readonly TextSource[], results: Map<string, TextScanResult>, bases: Bases, markersOf: (text: string, file: string) => MarkerIndex, others: readonly string[], read: (file: string) => string | null): Map<string, TextScanResult> {
  // Scripts and modules that do not mention RunPod may still send requests to a base a setting holds
  // (read only when some settings file moves a base).
  const readers = lazy(() => [...sources, ...others.flatMap((file) => {
    const text = read(file);
    return text === null ? [] : [{ file, text }];
  })]);
  const scanned = new Map<string, TextScanResult>();
  const resultOf = (r: { file: string; text: string }): TextScanResult => {
    const known = results.get(r.file) ?? scanned.get(r.file);
    if (known) return known;
    const made = scanText(r.text, r.file, bases);
    scanned.set(r.file, made);
    return made;
  };
  for (const [file, here] of settingsHolds(sources, results, readers, resultOf)) {
    const s = sources.find((x) => x.file === file)!;
    results.set(file, scanText(s.text, file, bases, s.heldVars ?? {}, { holds: { here, there: new Map() } }, markersOf(s.text, file)));
  }
  return results;
}

function isImportedFrom(file: string, views: ReadonlyMap<string, { from: Set<string> }>): boolean {
  for (const v of views.values()) if (v.from.has(file)) return true;
  return false;
}

/** The foreign literal ids a file can read: those in the values and wrappers it gets from others. */
function foreignIdsIn(file: string, shell: ReadonlyMap<string, { vars: ReadonlyMap<string, TPiece[]>; wrappers: ReadonlyMap<string, { url: TPiece[] }> }>, py: ReadonlyMap<string, { imports: Map<string, TPiece[]> }>): Set<number> {
  const out = new Set<number>();
  const add = (pieces: readonly TPiece[]): void => {
    for (const p of pieces) if (p.kind === 'text' && p.origin.foreign) out.add(p.origin.literal);
  };
  const s = shell.get(file);
  for (const v of s?.vars.values() ?? []) add(v);
  for (const w of s?.wrappers.values() ?? []) add(w.url);
  for (const v of py.get(file)?.imports.values() ?? []) add(v);
  return out;
}

/**
 * Whether a file's scan rewrites the literal at `pos` (its base-url fix there applies): a fix that a
 * marker in the file blocks does not (the runner keeps such a file as it is).
 */
function moves(result: TextScanResult, markers: MarkerIndex, pos: { line: number; column: number }): boolean {
  if (result.output === null) return false;
  const fix = result.findings.some((f) => f.fixable && isBaseRule(f.ruleId) && f.line === pos.line && f.column === pos.column);
  if (!fix) return false;
  const { ignored, kept } = partitionFindings(result.findings, markers);
  return ![...ignored, ...kept].some((f) => f.fixable);
}

function same<V>(a: ReadonlyMap<string, ReadonlyMap<number, V>>, b: ReadonlyMap<string, ReadonlyMap<number, V>>): boolean {
  const flat = (m: ReadonlyMap<string, ReadonlyMap<number, V>>): string =>
    [...m]
      .flatMap(([f, inner]) => [...inner].map(([k, v]) => `${f}|${k}|${JSON.stringify(v)}`))
      .sort()
      .join('\n');
  return flat(a) === flat(b);
}
