/**
 * In-source markers: comments that take a finding out of the gate, and stop the codemod from
 * rewriting the code they mark.
 *
 *   v2-migrate-ignore            a false positive
 *   v2-migrate-keep-v1           legacy v1 kept on purpose
 *
 * Each with a scope suffix: none (this line), `-next-line`, `-start` … `-end` (a region), `-file`.
 * Rule ids may follow the marker (`// v2-migrate-ignore pod-reset, unknown-path`); text after ` -- `
 * is a free reason. They count only right after a comment opener of the file's language (syntax.ts).
 *
 * RunPod's migration helper (rp_api_inventory.py) has its own family, read exactly as it reads it:
 * `rp-migrate: keep-v1` / `rp-migrate: ignore` (this line), followed by a space and `start` / `end`
 * (a region, both lines included) or `file` (the whole file); anywhere inside a comment, any text
 * after it is a free reason (no rule ids: it covers every rule), and on a line both cover keep-v1
 * wins over ignore whatever their scopes.
 *
 * Pure: text in, index out; no file system.
 */
import { RULE_IDS } from '../rules/registry.js';
import { splitLines, type CommentSyntax } from './syntax.js';
import { insideComment, walkCommentLines } from './comments.js';

export { commentSyntaxFor, splitLines, type CommentSyntax } from './syntax.js';

export type MarkerKind = 'ignore' | 'keep-v1';
export type MarkerScope = 'line' | 'next-line' | 'start' | 'end' | 'file';

/** One marker comment as written. */
export interface Marker {
  kind: MarkerKind;
  scope: MarkerScope;
  /** `v2-migrate-…` or RunPod's helper's `rp-migrate: …`. */
  family: 'v2-migrate' | 'rp-migrate';
  /** The rule ids it names; empty: every rule. */
  ruleIds: string[];
  /** Free text after ` -- `, if any. */
  reason: string;
  /** 1-based position of the marker word. */
  line: number;
  column: number;
  /** Last line of the comment holding it (a block comment may span lines); `-next-line` means the line after. */
  endLine: number;
}

/** A marker that cannot do what it seems to say (unknown rule id, `-end` without `-start`, …). */
export interface MarkerProblem {
  line: number;
  column: number;
  message: string;
}

interface Scoped {
  kind: MarkerKind;
  family: Marker['family'];
  /** null: every rule. */
  ids: ReadonlySet<string> | null;
  /** Higher is more specific: a line marker beats a region, an inner region an outer one, a region the file. */
  rank: number;
}

export interface Region {
  kind: MarkerKind;
  family: Marker['family'];
  ids: ReadonlySet<string> | null;
  from: number;
  to: number;
}

/**
 * A file's markers as parsed: plain data, so an engine (on a helper thread, or from the cache) hands
 * them to the runner with its result instead of the runner parsing the file again. `textLength` is the
 * length of the text they were parsed from: an index is only reused for that text.
 */
export interface ParsedMarkers {
  markers: readonly Marker[];
  problems: readonly MarkerProblem[];
  lineCount: number;
  textLength: number;
}

/** The markers of one file, ready to answer "is this finding marked?". */
export class MarkerIndex {
  private readonly byLine = new Map<number, Scoped[]>();
  private readonly fileWide: Scoped[] = [];
  readonly regions: Region[] = [];
  /** The parse's problems and the ones the scopes show (an `-end` without `-start`, a region left open). */
  readonly problems: readonly MarkerProblem[];

  constructor(readonly parsed: ParsedMarkers) {
    const { markers, lineCount } = parsed;
    const ids = (m: Marker): ReadonlySet<string> | null => (m.ruleIds.length ? new Set(m.ruleIds) : null);
    const open: Marker[] = [];
    const problemsOut = [...parsed.problems];
    this.problems = problemsOut;
    for (const m of markers) {
      const scoped = { kind: m.kind, family: m.family, ids: ids(m) };
      if (m.scope === 'line') this.add(m.line, { ...scoped, rank: 3 });
      else if (m.scope === 'next-line') this.add(m.endLine + 1, { ...scoped, rank: 3 });
      else if (m.scope === 'file') this.fileWide.push({ ...scoped, rank: 0 });
      else if (m.scope === 'start') open.push(m);
      else {
        const i = open.map((o) => `${o.family} ${o.kind}`).lastIndexOf(`${m.family} ${m.kind}`);
        if (i < 0) {
          problemsOut.push({ line: m.line, column: m.column, message: `${directive(m)} has no matching ${directive({ ...m, scope: 'start' })} before it; it does nothing.` });
          continue;
        }
        const [start] = open.splice(i, 1);
        this.regions.push({ kind: start!.kind, family: start!.family, ids: ids(start!), from: start!.line, to: m.endLine });
      }
    }
    for (const start of open) {
      problemsOut.push({ line: start.line, column: start.column, message: `${directive(start)} is never closed by ${directive({ ...start, scope: 'end' })}: it applies to the end of the file.` });
      this.regions.push({ kind: start.kind, family: start.family, ids: ids(start), from: start.line, to: Math.max(lineCount, start.line) });
    }
  }

  private add(line: number, s: Scoped): void {
    const list = this.byLine.get(line);
    if (list) list.push(s);
    else this.byLine.set(line, [s]);
  }

  /** The marker that applies to a finding of `ruleId` on `line` (1-based), or null. */
  match(line: number, ruleId: string): MarkerKind | null {
    let best: Scoped | null = null;
    let runpodKeep = false;
    const consider = (s: Scoped): void => {
      if (s.ids && !s.ids.has(ruleId)) return;
      if (s.family === 'rp-migrate' && s.kind === 'keep-v1') runpodKeep = true;
      // Equal specificity: keep-v1 (a decision) wins over ignore (a false positive).
      if (!best || s.rank > best.rank || (s.rank === best.rank && s.kind === 'keep-v1')) best = s;
    };
    for (const s of this.byLine.get(line) ?? []) consider(s);
    for (const r of this.regions) if (line >= r.from && line <= r.to) consider({ kind: r.kind, family: r.family, ids: r.ids, rank: 1 + r.from / (r.to + 2) });
    for (const s of this.fileWide) consider(s);
    const found = best as Scoped | null;
    // RunPod's helper: an rp-migrate keep-v1 covering the line beats its ignore, whatever the scopes.
    if (found?.family === 'rp-migrate' && runpodKeep) return 'keep-v1';
    return found?.kind ?? null;
  }

  get markers(): readonly Marker[] {
    return this.parsed.markers;
  }

  get isEmpty(): boolean {
    return this.markers.length === 0;
  }
}

export const EMPTY_MARKERS: MarkerIndex = new MarkerIndex({ markers: [], problems: [], lineCount: 0, textLength: 0 });

/**
 * Times a file with marker words has been parsed in this process (the test that each file of a run
 * is parsed once reads it).
 */
export const markerParses = { count: 0 };

/** Each file's markers parsed once, for a caller that asks about a file several times (scanning rounds). */
export function markerCache(): (text: string, file: string) => MarkerIndex {
  const indexes = new Map<string, MarkerIndex>();
  return (text, file) => {
    const known = indexes.get(file);
    if (known && known.parsed.textLength === text.length) return known;
    const index = parseMarkers(text, file);
    indexes.set(file, index);
    return index;
  };
}

/** The index `parsed` describes when it was parsed from `text`; otherwise `text` parsed now. */
export function markersFor(text: string, file: string, parsed: ParsedMarkers | undefined): MarkerIndex {
  return parsed && parsed.textLength === text.length ? new MarkerIndex(parsed) : parseMarkers(text, file);
}

function directive(m: Pick<Marker, 'family' | 'kind' | 'scope'>): string {
  if (m.family === 'rp-migrate') return `rp-migrate: ${m.kind}${m.scope === 'line' ? '' : ` ${m.scope}`}`;
  return `v2-migrate-${m.kind}${m.scope === 'line' ? '' : `-${m.scope}`}`;
}

/** `v2-migrate-ignore`, `v2-migrate-keep-v1-next-line`, … (not `…-ignored`, but `…-ignore-->`). */
const DIRECTIVE = /(v2-migrate-)(ignore|keep-v1)(?:-(next-line|start|end|file))?(?![\w]|-(?!->))/g;
/** RunPod's spelling (its MARK_LINE / MARK_START / MARK_END / MARK_FILE): `rp-migrate: keep-v1 start`. */
const RUNPOD_DIRECTIVE = /(rp-migrate:[ \t]*)(ignore|keep-v1)(?!\w)(?:[ \t]+(start|end|file)(?!\w))?/g;
/** `rp-migrate: ignore-start`: not RunPod's spelling (its helper reads it as a line marker). */
const RUNPOD_HYPHENATED = /^-(next-line|start|end|file)(?!\w)/;
const QUICK = /v2-migrate-(?:ignore|keep-v1)|rp-migrate:/;

export interface ParseOptions {
  /** Rule ids a marker may name; others are reported as problems (default: every registered rule). */
  knownRuleIds?: readonly string[];
}

/** Does the text right before a marker end with a comment opener of `syntax`? */
function opensComment(before: string, syntax: CommentSyntax): 'line' | 'block' | null {
  const b = before.trimEnd();
  for (const o of syntax.line) if (b.endsWith(o)) return 'line';
  for (const [open] of syntax.block) {
    if (b.endsWith(open)) return 'block';
    if (open === '/*' && /\/\*+!?$/.test(b)) return 'block';
    if (open === '<!--' && /<!--+$/.test(b)) return 'block';
  }
  return null;
}

/** Where a block comment that is open at (line, col) closes: [line index, column] or null. */
function findClose(lines: readonly string[], li: number, col: number, close: string): [number, number] | null {
  for (let i = li; i < lines.length; i++) {
    const at = lines[i]!.indexOf(close, i === li ? col : 0);
    if (at >= 0) return [i, at];
  }
  return null;
}

/** Parse every marker of a file. `file` picks the comment syntax (by extension or name). */
export function parseMarkers(text: string, file: string, options: ParseOptions = {}): MarkerIndex {
  // No marker word: nothing to find (the line count only bounds regions left open).
  if (!QUICK.test(text)) return new MarkerIndex({ markers: [], problems: [], lineCount: 0, textLength: text.length });
  markerParses.count++;
  const lines = splitLines(text, file);
  const known = new Set(options.knownRuleIds ?? RULE_IDS);
  const markers: Marker[] = [];
  const problems: MarkerProblem[] = [];
  walkCommentLines(text, file, (li, lineText, syntax, blockAtLineStart) => {
    if (QUICK.test(lineText)) {
      const hits = [...lineText.matchAll(DIRECTIVE), ...lineText.matchAll(RUNPOD_DIRECTIVE)].sort((a, b) => a.index - b.index);
      hits.forEach((m, k) => {
        const argsEnd = k + 1 < hits.length ? hits[k + 1]!.index : lineText.length;
        const found = m[1]!.startsWith('rp')
          ? runpodMarker(m, lineText.slice(0, m.index), lineText.slice(m.index + m[0].length, argsEnd), li, syntax, blockAtLineStart)
          : ownMarker(m, lines, li, argsEnd, syntax, blockAtLineStart, known);
        if (!found) return;
        markers.push(found.marker);
        problems.push(...found.problems);
      });
    }
  }, lines);
  return new MarkerIndex({ markers, problems, lineCount: lines.length, textLength: text.length });
}

interface Parsed {
  marker: Marker;
  problems: MarkerProblem[];
}

/** A `v2-migrate-…` marker: right after a comment opener; rule ids, then ` -- reason`. */
function ownMarker(m: RegExpExecArray, lines: readonly string[], li: number, argsEnd: number, syntax: CommentSyntax, blockAtLineStart: string | null, known: ReadonlySet<string>): Parsed | null {
  const lineText = lines[li]!;
  const at = m.index;
  const before = lineText.slice(0, at);
  let how = opensComment(before, syntax);
  // Inside a multi-line block comment: a marker that starts its line (after ` * `) counts too.
  if (!how && blockAtLineStart && /^\s*\**\s*$/.test(before)) how = 'block';
  if (!how) return null;
  const afterStart = at + m[0].length;
  let endLine = li;
  if (how === 'block') {
    const closer = blockAtLineStart && !opensComment(before, syntax) ? blockAtLineStart : closerFor(before, syntax);
    const closed = closer ? findClose(lines, li, afterStart, closer) : null;
    if (closed) {
      endLine = closed[0];
      if (closed[0] === li) argsEnd = Math.min(argsEnd, closed[1]);
    }
  }
  let args = lineText.slice(afterStart, argsEnd);
  let reason = '';
  const dash = /(?:^|\s)--(?:\s|$)/.exec(args);
  if (dash) {
    reason = args.slice(dash.index + dash[0].length).trim();
    args = args.slice(0, dash.index);
  }
  const kind = m[2] as MarkerKind;
  const scope = (m[3] ?? 'line') as MarkerScope;
  const ruleIds = scope === 'end' ? [] : args.split(/[\s,]+/).filter((t) => t && !/^(\/\/|#|\*\/|-->|\*)$/.test(t));
  const marker: Marker = { kind, scope, family: 'v2-migrate', ruleIds, reason, line: li + 1, column: at + 1, endLine: endLine + 1 };
  const problems = ruleIds
    .filter((id) => !known.has(id))
    .map((id) => ({ line: li + 1, column: at + 1, message: `${directive(marker)} names "${id}", which is not a rule id, so it matches nothing${ruleIds.length === 1 ? ' (write a reason after " -- ")' : ''}. Run v2-migrate rules to list them.` }));
  return { marker, problems };
}

/** An `rp-migrate: …` marker, read as RunPod's helper reads it: anywhere in a comment, the rest of the line a reason. */
function runpodMarker(m: RegExpExecArray, before: string, after: string, li: number, syntax: CommentSyntax, blockAtLineStart: string | null): Parsed | null {
  if (!insideComment(before, syntax, blockAtLineStart)) return null;
  const kind = m[2] as MarkerKind;
  const scope = (m[3] ?? 'line') as MarkerScope;
  const reason = after.replace(/\s*(\*\/|-->)[\s\S]*$/, '').trim().replace(/^(--|—|:)\s*/, '');
  const marker: Marker = { kind, scope, family: 'rp-migrate', ruleIds: [], reason, line: li + 1, column: m.index + 1, endLine: li + 1 };
  const hyphenated = scope === 'line' ? RUNPOD_HYPHENATED.exec(after) : null;
  const problems = hyphenated
    ? [{ line: li + 1, column: m.index + 1, message: `rp-migrate: ${kind}-${hyphenated[1]} is not RunPod's spelling and marks this line only; write ${hyphenated[1] === 'next-line' ? `the marker on the line itself (rp-migrate: ${kind})` : `rp-migrate: ${kind} ${hyphenated[1]}`}.` }]
    : [];
  return { marker, problems };
}

function closerFor(before: string, syntax: CommentSyntax): string | null {
  const b = before.trimEnd();
  for (const [open, close] of syntax.block) if (b.endsWith(open) || (open === '/*' && /\/\*+!?$/.test(b)) || (open === '<!--' && /<!--+$/.test(b))) return close;
  return null;
}

/** True when a marker takes a finding of `ruleId` on `line` out of the gate, and its code must not be rewritten. */
export function isSuppressed(index: MarkerIndex | null | undefined, line: number, ruleId: string): boolean {
  return !!index && index.match(line, ruleId) !== null;
}

export interface Partitioned<F> {
  /** In the gate: counted for exit codes and summaries. */
  active: F[];
  /** Marked as false positives (`v2-migrate-ignore`). */
  ignored: F[];
  /** Legacy kept on purpose (`v2-migrate-keep-v1`). */
  kept: F[];
}

/** Split findings by the markers that apply to them; order is kept within each part. */
export function partitionFindings<F extends { line: number; ruleId: string }>(findings: readonly F[], index: MarkerIndex | null | undefined): Partitioned<F> {
  const out: Partitioned<F> = { active: [], ignored: [], kept: [] };
  for (const f of findings) {
    const kind = index ? index.match(f.line, f.ruleId) : null;
    (kind === 'ignore' ? out.ignored : kind === 'keep-v1' ? out.kept : out.active).push(f);
  }
  return out;
}
