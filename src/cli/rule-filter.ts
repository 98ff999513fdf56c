import type { Component } from '../live/component-log.js';
import type { RuleId } from '../rules/registry.js';
import type { FileResult, RunResult } from '../run/types.js';
import { summarize } from '../run/summary.js';
import { encode } from '../run/files.js';
import { applyFixEdits, fixEdits, fixesCover, fixKey } from '../fixes.js';
import { pushTo } from '../util/multimap.js';

/** Files `--rule` left unchanged (or, `partly`, changed less): their changes also carry fixes of other rules. */
export interface HeldGroup {
  files: string[];
  rules: RuleId[];
  partly?: boolean;
}

/**
 * `--rule`: the run as if only these rules existed, without planning again. Findings of other rules are
 * dropped. A file whose change is its findings' fixes (`Finding.fix`, fixes.ts) and its own keeps the
 * fixes of the chosen rules: an edit is made only when every finding whose fix holds it is of a chosen
 * rule (findings whose edits depend on each other share one fix). Other changes are kept only when every
 * fix they carry belongs to the chosen rules. Changes that come from the same
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
    const mates = groupOf.get(r.absPath) ?? [];
    if (mates.length === 1 && splitChange(r, only, held)) {
      decided.add(r.absPath);
      continue;
    }
    const group = mates.map((f) => byPath.get(f)).filter((g): g is FileResult => !!g);
    for (const g of group) decided.add(g.absPath);
    const others = new Set(group.flatMap((g) => g.findings.filter((f) => f.fixable && !only.has(f.ruleId)).map((f) => f.ruleId)));
    if (!others.size) continue;
    const changed = group.filter((g) => g.changed);
    for (const g of changed) unchange(g);
    held.push({ files: changed.map((g) => g.path), rules: [...others].sort() });
  }
  // A file whose change is its own: a text-engine file, or JS whose requests live in it alone.
  for (const r of result.results) {
    if (!r.changed || groupOf.has(r.absPath) || !r.findings.length || splitChange(r, only, held)) continue;
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

/**
 * Make only the chosen rules' fixes of a file whose change stands alone; false when its change is more
 * than its findings' fixes (then it goes whole or not at all). A fix a finding of another rule shares
 * is not made, and the note names that rule.
 */
function splitChange(r: FileResult, only: ReadonlySet<RuleId>, held: HeldGroup[]): boolean {
  if (r.before === undefined || r.after === undefined || !fixesCover(r.before, r.after, r.findings)) return false;
  const rulesOf = new Map<string, RuleId[]>();
  for (const f of r.findings) if (f.fixable) for (const e of f.fix ?? []) pushTo(rulesOf, fixKey(e), f.ruleId);
  const made = fixEdits(r.findings).filter((e) => (rulesOf.get(fixKey(e)) ?? []).every((id) => only.has(id)));
  const madeKeys = new Set(made.map(fixKey));
  const blocking = new Set<RuleId>();
  for (const f of r.findings) {
    if (!f.fixable || !f.fix || f.fix.every((e) => madeKeys.has(fixKey(e)))) continue;
    if (only.has(f.ruleId)) for (const e of f.fix) for (const id of rulesOf.get(fixKey(e)) ?? []) if (!only.has(id)) blocking.add(id);
    f.fixable = false;
    delete f.fix;
  }
  const after = applyFixEdits(r.before, made);
  if (after === r.before) unchange(r);
  else if (after !== r.after) {
    r.after = after;
    r.bytes = encode(after, r.bytes?.subarray(0, 3).equals(UTF8_BOM) ?? false);
  }
  if (blocking.size) held.push({ files: [r.path], rules: [...blocking].sort(), partly: r.changed });
  return true;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function unchange(r: FileResult): void {
  r.changed = false;
  delete r.before;
  delete r.after;
  delete r.bytes;
  // The same finding objects (the baseline's fingerprints are keyed by them), no longer applied.
  for (const f of r.findings) if (f.fixable) f.fixable = false;
}
