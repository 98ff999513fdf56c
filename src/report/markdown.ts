import type { Finding } from '../findings.js';
import { RULES, isRuleId } from '../rules/registry.js';
import type { FileResult } from '../run/types.js';
import { API_KINDS } from '../scan/inventory.js';
import { packageRows, plural, scannedText, suppressedByKind } from './common.js';
import { maskSecrets } from './secrets.js';
import { toolVersion } from './tool.js';
import type { ReportInput, Reporter } from './types.js';

/** Rules about the file as a whole, not a place in it that uses v1. */
const FILE_LEVEL = new Set(['parse-error', 'skipped-file', 'malformed-config', 'internal-error']);

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const code = (s: string): string => `\`${s.replace(/`/g, "'")}\``;

/** Lines of a file that use REST v1: a v1 URL, or a finding (in the gate, marked or baselined). */
export function v1Sites(r: FileResult): number {
  const lines = new Set<number>();
  for (const h of r.inventory?.hits ?? []) if (h.kind === 'restV1') lines.add(h.line);
  for (const f of [...r.findings, ...r.suppressed, ...r.baselined]) if (!FILE_LEVEL.has(f.ruleId)) lines.add(f.line);
  return lines.size;
}

/** Files that are shared transport: they define a REST v1 base URL that other files call through. */
export function definesV1Base(r: FileResult): boolean {
  return (r.inventory?.v1BaseLines.length ?? 0) > 0;
}

/**
 * The migration order the report suggests: files that define a v1 base URL first (the shared
 * transport helpers other files call through; most v1 sites first among them), then the others
 * by fewest v1 sites (quick wins first), ties by path.
 */
export function suggestedOrder(results: readonly FileResult[]): FileResult[] {
  const work = results.filter((r) => r.findings.length || r.baselined.length || (r.inventory?.counts.restV1 ?? 0) > 0);
  return [...work].sort((a, b) => {
    const ta = definesV1Base(a);
    const tb = definesV1Base(b);
    if (ta !== tb) return ta ? -1 : 1;
    const d = ta ? v1Sites(b) - v1Sites(a) : v1Sites(a) - v1Sites(b);
    return d || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  });
}

/**
 * An inventory a team lead reads before migrating: which RunPod APIs the code uses, a per-file
 * table, the decisions that need a person (grouped by rule), a suggested order, and what was kept
 * on purpose or marked as a false positive.
 */
export const markdownReporter: Reporter = (input: ReportInput) => {
  const { results, summary } = input;
  const out: string[] = [];
  const modeWord = input.mode === 'write' ? 'after rewriting' : input.mode === 'dry-run' ? 'dry run' : 'lint';
  out.push('# RunPod API inventory', '');
  out.push(`_v2-migrate ${toolVersion()} · ${modeWord} · ${scannedText(input)}_`, '');
  out.push('REST v1 (`https://rest.runpod.io/v1`) was retired on 2026-11-15: every v1 call fails now. This report lists where the code still uses it, what the codemod (`npx v2-migrate`) rewrites by itself, and the decisions a person has to make first.', '');

  out.push('## APIs in use', '', '| API | occurrences | files |', '|---|---:|---:|');
  for (const { kind, label } of API_KINDS) {
    const withKind = results.filter((r) => (r.inventory?.counts[kind] ?? 0) > 0);
    const n = withKind.reduce((sum, r) => sum + r.inventory!.counts[kind], 0);
    out.push(`| ${cell(label)} | ${n} | ${withKind.length} |`);
  }
  out.push('', 'Occurrences are URLs and hosts in the text (a base constant counts once, however many calls use it) and SDK imports.', '');

  const order = suggestedOrder(results);
  out.push('## Files', '');
  if (!order.length) out.push('No file uses REST v1.', '');
  else {
    out.push('| file | v1 sites | errors | warnings | infos | fixable | kept | ignored | baselined |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    const byPath = [...order].sort((a, b) => (a.path < b.path ? -1 : 1));
    const t = { sites: 0, e: 0, w: 0, i: 0, fix: 0, kept: 0, ign: 0, base: 0 };
    for (const r of byPath) {
      const row = {
        sites: v1Sites(r),
        e: r.findings.filter((f) => f.severity === 'error').length,
        w: r.findings.filter((f) => f.severity === 'warning').length,
        i: r.findings.filter((f) => f.severity === 'info').length,
        fix: r.findings.filter((f) => f.fixable).length,
        kept: r.suppressed.filter((f) => f.marker === 'keep-v1').length,
        ign: r.suppressed.filter((f) => f.marker === 'ignore').length,
        base: r.baselined.length,
      };
      for (const k of Object.keys(t) as (keyof typeof t)[]) t[k] += row[k];
      out.push(`| ${cell(code(r.path))} | ${row.sites} | ${row.e} | ${row.w} | ${row.i} | ${row.fix} | ${row.kept} | ${row.ign} | ${row.base} |`);
    }
    out.push(`| **total** | ${t.sites} | ${t.e} | ${t.w} | ${t.i} | ${t.fix} | ${t.kept} | ${t.ign} | ${t.base} |`, '');
    out.push('_v1 sites_: lines with a REST v1 URL or a finding, the places the codemod or a person touches. Errors, warnings, infos and fixable count the findings in the gate; kept, ignored and baselined ones are not counted.', '');
  }

  const packages = packageRows(results);
  if (packages.length) {
    out.push('## Packages', '', '| package | files | changed | errors | warnings | fixable |', '|---|---:|---:|---:|---:|---:|');
    for (const p of packages) out.push(`| ${cell(p.package)} | ${p.files} | ${p.changed} | ${p.errors} | ${p.warnings} | ${p.fixable} |`);
    out.push('');
  }
  out.push('## Decisions to make', '');
  const decisions = new Map<string, [FileResult, Finding][]>();
  for (const r of results) for (const f of r.findings) if (!f.fixable && f.severity !== 'info') decisions.set(f.ruleId, [...(decisions.get(f.ruleId) ?? []), [r, f]]);
  if (!decisions.size) out.push('None: everything in the gate is fixable by the codemod.', '');
  else {
    const total = [...decisions.values()].reduce((n, l) => n + l.length, 0);
    out.push(`${plural(total, 'finding')} the codemod cannot fix, by rule. \`npx v2-migrate explain <rule>\` shows each rule with a before/after example.`, '');
    const ids = [...decisions.keys()].sort((a, b) => decisions.get(b)!.length - decisions.get(a)!.length || a.localeCompare(b));
    for (const id of ids) {
      const list = decisions.get(id)!;
      out.push(`### ${code(id)} (${list.length})`, '');
      if (isRuleId(id)) out.push(RULES[id].summary, '');
      for (const [r, f] of list) out.push(`- ${code(`${r.path}:${f.line}`)} — ${maskSecrets(f.message)}`);
      out.push('');
    }
  }
  const infos = results.reduce((n, r) => n + r.findings.filter((f) => f.severity === 'info').length, 0);
  if (infos) out.push(`Also ${plural(infos, 'info finding')} (paths whose base is not known statically) to check; \`npx v2-migrate lint\` lists them.`, '');

  out.push('## Suggested order', '');
  if (!order.length) out.push('Nothing to migrate.', '');
  else {
    out.push('Shared transport first: files that define a REST v1 base URL (the helpers other files call through), then the rest, fewest v1 sites first. Run `npx v2-migrate --dry-run <file>` on each to review the diff.', '');
    order.forEach((r, i) => {
      const sites = plural(v1Sites(r), 'v1 site');
      const manual = r.findings.filter((f) => !f.fixable && f.severity !== 'info').length;
      const why = definesV1Base(r) ? `defines a v1 base URL (${r.inventory!.v1BaseLines.length === 1 ? 'line' : 'lines'} ${r.inventory!.v1BaseLines.join(', ')}): shared transport; ${sites}` : sites;
      out.push(`${i + 1}. ${code(r.path)} — ${why}${manual ? `, ${plural(manual, 'decision')}` : ''}`);
    });
    out.push('');
  }

  const { kept, ignored } = suppressedByKind(results);
  const listSection = (title: string, note: string, list: typeof kept) => {
    out.push(`## ${title}`, '');
    if (!list.length) out.push('None.', '');
    else {
      out.push(note, '');
      for (const [r, f] of list) out.push(`- ${code(`${r.path}:${f.line}`)} ${code(f.ruleId)} — ${maskSecrets(f.message)}`);
      out.push('');
    }
  };
  listSection('Kept on purpose', 'Marked `v2-migrate-keep-v1` (or `rp-migrate: keep-v1`): legacy v1 code kept deliberately; not rewritten, not counted. It fails against the retired API, so each needs an owner.', kept);
  listSection('Marked false positive', 'Marked `v2-migrate-ignore` (or `rp-migrate: ignore`): not rewritten, not counted.', ignored);
  if (input.baseline || summary.baselined) {
    out.push('## Baselined', '', `${plural(summary.baselined, 'finding')} ${summary.baselined === 1 ? 'is' : 'are'} in the baseline${input.baseline ? ` ${code(input.baseline.file)}` : ''}: not counted and not listed above except in the Files table.`, '');
  }
  return out.join('\n');
};
