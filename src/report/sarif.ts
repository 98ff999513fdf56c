import type { Finding, Severity } from '../findings.js';
import { ruleDoc, explainMarkdown } from '../rules/docs.js';
import { RULES, RULE_IDS, type RuleId } from '../rules/registry.js';
import type { FileResult } from '../run/types.js';
import { repositoryPath, shownFindings } from './common.js';
import { maskSecrets } from './secrets.js';
import { Lines } from '../util/lines.js';
import { INFORMATION_URI, TOOL_NAME, toolVersion } from './tool.js';
import type { Reporter } from './types.js';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
/** Key of our fingerprint in `partialFingerprints` (rule, path, line text hash, occurrence). */
export const FINGERPRINT_KEY = 'v2MigrateLineHash/v1';

type Level = 'error' | 'warning' | 'note';
const LEVEL: Record<Severity, Level> = { error: 'error', warning: 'warning', info: 'note' };

/** A relative path as a URI reference: each segment percent-encoded, `/` kept. */
export function pathToUri(rel: string): string {
  return rel.split('/').map(encodeURIComponent).join('/');
}

function ruleDescriptor(id: RuleId) {
  const rule = RULES[id];
  const d = ruleDoc(id);
  const example = [d.before && `Before:\n${d.before}`, d.after && `${rule.fixable ? 'After (v2-migrate writes)' : 'After (by hand)'}:\n${d.after}`].filter(Boolean).join('\n\n');
  return {
    id,
    name: id.replace(/-(\w)/g, (_, ch: string) => ch.toUpperCase()).replace(/^\w/, (ch) => ch.toUpperCase()),
    shortDescription: { text: rule.summary },
    fullDescription: { text: d.doc },
    help: { text: [rule.summary, d.doc, example].filter(Boolean).join('\n\n'), markdown: explainMarkdown(id, '###') },
    defaultConfiguration: { level: LEVEL[rule.severity] },
    properties: { tags: ['runpod', 'migration', 'rest-v1'], fixable: rule.fixable },
  };
}

/**
 * A fixable finding's fix as SARIF `fixes`: one artifact change replacing line/column regions of the
 * file as it is now (`before`). None when the file does not change (the fix is not made), or when what
 * it writes would show a value that looks secret (reports never carry those). Findings that share a
 * fix (fixes.ts) list it once, on the first of them: a base shared by a thousand requests is one fix,
 * not a thousand copies of it.
 */
function sarifFixes(r: FileResult, f: Finding, uri: string, lines: (r: FileResult, before: string) => Lines, listed: Set<string>): { fixes?: object[] } {
  if (!f.fixable || !f.fix?.length || !r.changed || r.before === undefined) return {};
  if (f.fix.some((e) => maskSecrets(e.text) !== e.text)) return {};
  // The fixes of one file never share an edit unless they are one fix: its ends and size name it.
  const first = f.fix[0];
  const last = f.fix[f.fix.length - 1];
  const key = `${uri}:${first?.range[0]}:${last?.range[1]}:${f.fix.length}`;
  if (listed.has(key)) return {};
  listed.add(key);
  const index = lines(r, r.before);
  const region = ([start, end]: readonly [number, number]) => {
    const from = index.pos(start);
    const to = index.pos(end);
    return { startLine: from.line, startColumn: from.column, endLine: to.line, endColumn: to.column };
  };
  const replacements = f.fix.map((e) => ({ deletedRegion: region(e.range), insertedContent: { text: e.text } }));
  return { fixes: [{ description: { text: `What v2-migrate writes for this ${f.ruleId} finding.` }, artifactChanges: [{ artifactLocation: { uri }, replacements }] }] };
}

/**
 * SARIF 2.1.0, one run, as GitHub code scanning accepts it: every rule in `tool.driver.rules` (with
 * its doc as help), one result per finding with a `/` path relative to the repository and a 1-based start line and
 * column, and `fixes` for the fixable ones (sarifFixes). Marker-suppressed findings are results with an `inSource` suppression; with a baseline,
 * results carry `baselineState` (`unchanged` for baselined findings, `new` for the others).
 */
export const sarifReporter: Reporter = (input) => {
  const index = new Map(RULE_IDS.map((id, i) => [id, i]));
  const results: object[] = [];
  const roots = new Map<string, string | null>();
  const lineIndexes = new Map<FileResult, Lines>();
  const linesOf = (r: FileResult, before: string): Lines => {
    const known = lineIndexes.get(r);
    if (known) return known;
    const index = new Lines(before);
    lineIndexes.set(r, index);
    return index;
  };
  const listedFixes = new Set<string>();
  const result = (r: FileResult, f: Finding, extra: Record<string, unknown>) => {
    const print = r.prints.get(f);
    const uri = pathToUri(repositoryPath(r, roots));
    results.push({
      ruleId: f.ruleId,
      ...(index.has(f.ruleId) ? { ruleIndex: index.get(f.ruleId) } : {}),
      level: LEVEL[f.severity],
      message: { text: maskSecrets(f.message) },
      locations: [{ physicalLocation: { artifactLocation: { uri }, region: { startLine: f.line, startColumn: f.column } } }],
      ...(print ? { partialFingerprints: { [FINGERPRINT_KEY]: `${print.ruleId}:${print.lineHash}:${print.occurrence}` } } : {}),
      ...sarifFixes(r, f, uri, linesOf, listedFixes),
      properties: { fixable: f.fixable },
      ...extra,
    });
  };
  const withBaseline = !!input.baseline;
  for (const r of input.results) {
    for (const f of shownFindings(input, r.findings)) result(r, f, withBaseline ? { baselineState: 'new' } : {});
    for (const f of shownFindings(input, r.baselined)) result(r, f, { baselineState: 'unchanged' });
    for (const f of shownFindings(input, r.suppressed)) {
      const justification = f.marker === 'keep-v1' ? 'v2-migrate-keep-v1: legacy REST v1 code kept on purpose' : 'v2-migrate-ignore: marked as a false positive';
      result(r, f, { suppressions: [{ kind: 'inSource', justification }] });
    }
  }
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: TOOL_NAME, version: toolVersion(), semanticVersion: toolVersion(), informationUri: INFORMATION_URI, rules: RULE_IDS.map(ruleDescriptor) } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
};
