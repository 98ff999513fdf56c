import type { Finding, FixEdit } from './findings.js';

/** An edit as the engines make it: `text` replaces `[start, end)` of the file's text. */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

/** Findings and the edits made for them (one request, one fact of the text engine). */
export interface FixOwner<F extends Finding, E extends Splice> {
  findings: readonly F[];
  edits: readonly E[];
}

const keyOf = (e: Splice): string => `${e.start}:${e.end}:${e.text}`;
/** Same edit, whoever carries it: tells which findings share an edit. */
export const fixKey = (e: FixEdit): string => `${e.range[0]}:${e.range[1]}:${e.text}`;

/**
 * Give each fixable finding of `owners` its fix (`Finding.fix`). Owners whose edits meet (one edit made
 * for both: a base literal two requests read; or one edit inside the range another replaces) are joined, and their fixable findings share one combined
 * fix: their edits depend on each other, so none is made alone. `place` turns a group's edits (one array
 * per group) into the finding's fix (the JS engine keeps those of the finding's own file, in that file's
 * offsets).
 */
export function attachFixes<F extends Finding, E extends Splice>(owners: Iterable<FixOwner<F, E>>, place: (finding: F, edits: readonly E[]) => FixEdit[] = (_, edits) => [...edits].sort((a, b) => a.start - b.start || a.end - b.end).map(toFixEdit)): void {
  const list = [...owners].filter((o) => o.edits.length);
  const parent = list.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i] ?? i)));
  const join = (i: number, j: number): void => {
    parent[root(i)] = root(j);
  };
  // Owners meet where one edit is made for both, or where an edit falls inside the range another replaces.
  const all = list.flatMap((o, i) => o.edits.map((e) => ({ e, i }))).sort((a, b) => a.e.start - b.e.start || a.e.end - b.e.end);
  const firstOwner = new Map<string, number>();
  let host: { e: E; i: number } | null = null;
  for (const x of all) {
    const other = firstOwner.get(keyOf(x.e));
    if (other === undefined) firstOwner.set(keyOf(x.e), x.i);
    else join(x.i, other);
    if (host && x.e.start < host.e.end) join(x.i, host.i);
    if (!host || x.e.end > host.e.end) host = x;
  }
  const groups = new Map<number, { findings: Set<F>; edits: Map<string, E> }>();
  list.forEach((o, i) => {
    const g = groups.get(root(i)) ?? { findings: new Set<F>(), edits: new Map<string, E>() };
    for (const f of o.findings) g.findings.add(f);
    for (const e of o.edits) g.edits.set(keyOf(e), e);
    groups.set(root(i), g);
  });
  for (const { findings, edits } of groups.values()) {
    const groupEdits = [...edits.values()];
    for (const f of findings) {
      if (!f.fixable) continue;
      const fix = place(f, groupEdits);
      if (fix.length) f.fix = fix;
    }
  }
}

export function toFixEdit(e: Splice): FixEdit {
  return { range: [e.start, e.end], text: e.text };
}

/** The fixes of the fixable findings, each edit once (findings that share a fix share its edits). */
export function fixEdits(findings: readonly Finding[]): FixEdit[] {
  const edits = new Map<string, FixEdit>();
  for (const f of findings) if (f.fixable) for (const e of f.fix ?? []) edits.set(fixKey(e), e);
  return [...edits.values()];
}

/** `text` with `edits` made (they never overlap; insertions at one point keep their order). */
export function applyFixEdits(text: string, edits: readonly FixEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1]);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.range[0] < at) throw new Error(`overlapping fixes at offset ${e.range[0]}`);
    out += text.slice(at, e.range[0]) + e.text;
    at = e.range[1];
  }
  return out + text.slice(at);
}

/**
 * Whether the findings' fixes together are the file's whole change: every edit the engine makes is
 * explained by a finding. Consumers that make fixes one by one (ESLint, `--rule`) rely on it, and fall
 * back to the change as a whole when it does not hold.
 */
export function fixesCover(before: string, after: string, findings: readonly Finding[]): boolean {
  try {
    return applyFixEdits(before, fixEdits(findings)) === after;
  } catch {
    return false;
  }
}
