import type { Component } from '../live/component-log.js';
import type { RuleId } from '../rules/registry.js';
import type { FileResult, RunResult } from '../run/runner.js';
import { summarize } from '../run/summary.js';

/** Files `--rule` left unchanged: their changes also carry fixes of other rules. */
export interface HeldGroup {
  files: string[];
  rules: RuleId[];
}

/**
 * `--rule`: the run as if only these rules existed. Findings of other rules are dropped, and a change
 * is kept only when every fix it carries belongs to the chosen rules. Changes that come from the same
 * requests go together (a base moves with the paths that use it: the engine's `changesWith`), so a
 * group of files whose changes also carry another rule's fix is left unchanged as a whole, its
 * fixable findings then fixable no more.
 */
export function keepRules(result: RunResult, only: ReadonlySet<RuleId>, components: readonly Component[]): { result: RunResult; held: HeldGroup[] } {
  const groupOf = new Map<string, string[]>();
  for (const c of components) for (const [file, r] of c.results) if (r.output !== null) groupOf.set(file, [file, ...(r.changesWith ?? [])]);
  const byPath = new Map(result.results.map((r) => [r.absPath, r]));
  const held: HeldGroup[] = [];
  const decided = new Set<string>();
  for (const r of result.results) {
    if (!r.changed || decided.has(r.absPath) || !groupOf.has(r.absPath)) continue;
    const group = groupOf.get(r.absPath)!.map((f) => byPath.get(f)).filter((g): g is FileResult => !!g);
    for (const g of group) decided.add(g.absPath);
    const others = new Set(group.flatMap((g) => g.findings.filter((f) => f.fixable && !only.has(f.ruleId)).map((f) => f.ruleId)));
    if (!others.size) continue;
    const changed = group.filter((g) => g.changed);
    for (const g of changed) unchange(g);
    held.push({ files: changed.map((g) => g.path), rules: [...others].sort() });
  }
  // A file whose change is its own: a text-engine file, or JS whose requests live in it alone.
  for (const r of result.results) {
    if (!r.changed || groupOf.has(r.absPath) || !r.findings.length) continue;
    const others = new Set(r.findings.filter((f) => f.fixable && !only.has(f.ruleId)).map((f) => f.ruleId));
    if (!others.size) continue;
    unchange(r);
    held.push({ files: [r.path], rules: [...others].sort() });
  }
  // A generated adapter file (a change with no finding of its own) serves the body-adapter fixes still applied.
  const adaptersUsed = result.results.some((r) => r.changed && r.findings.some((f) => f.ruleId === 'body-adapter' && f.fixable && only.has(f.ruleId)));
  for (const r of result.results) if (r.changed && !r.findings.length && !groupOf.has(r.absPath) && !adaptersUsed) unchange(r);
  for (const r of result.results) {
    r.findings = r.findings.filter((f) => only.has(f.ruleId));
    r.suppressed = r.suppressed.filter((f) => only.has(f.ruleId));
    r.baselined = r.baselined.filter((f) => only.has(f.ruleId));
  }
  const listed = result.results.filter((r) => r.changed || r.findings.length || r.suppressed.length || r.inventory);
  return { result: { ...result, results: listed, summary: summarize(listed, result.summary.files) }, held };
}

function unchange(r: FileResult): void {
  r.changed = false;
  delete r.before;
  delete r.after;
  delete r.bytes;
  // The same finding objects (the baseline's fingerprints are keyed by them), no longer applied.
  for (const f of r.findings) if (f.fixable) f.fixable = false;
}
