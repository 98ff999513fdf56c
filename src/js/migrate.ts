import type { Finding } from '../findings.js';
import { compareFindings } from '../findings.js';
import type { Bases } from '../url/shape.js';
import { collectSites } from './analyze.js';
import { applyEdits, EditError, preferredQuote, type SourceEdit } from './edits.js';
import { syntaxError } from './parse.js';
import { Project, withProject, type ProjectFile, type ProjectInput } from './project.js';
import type { Workspaces } from '../scan/resolve.js';
import type { DeclaredWrapper } from './clients.js';
import { isSuppressed, parseMarkers, type MarkerIndex } from '../markers/index.js';
import type { N, P } from './scope.js';
import type { Collection, JSCodeshift } from 'jscodeshift';
import { finding, planRequest, type PlannedFinding, type RequestPlan } from '../rules/request.js';
import { planLiteral } from '../rules/literals.js';
import { RULES } from '../rules/registry.js';

export interface MigrateOptions {
  bases: Bases;
  /** Monorepo packages by name, so imports of a workspace package are followed into its source. */
  workspaces?: Workspaces;
  /** Wrappers declared in the config (config `wrappers`). */
  wrappers?: readonly DeclaredWrapper[];
  /** GPU type name → v2 serverless pool id (config `gpuPools`). */
  gpuPools?: Readonly<Record<string, string>>;
  /** Write v1 defaults out on creates instead of warning (config `preserveV1Defaults`). */
  preserveV1Defaults?: boolean;
}

export interface MigrateResult {
  /** The migrated source, or null when nothing changes. */
  output: string | null;
  findings: Finding[];
}

/**
 * Requests that share code must agree: an edit to a node is kept only if every request that reads
 * that node asks for exactly the same edit. Otherwise the requests involved keep only their
 * universal edits and report instead.
 */
function arbitrate(plans: RequestPlan[]): void {
  for (const plan of plans) for (const e of plan.specific) plan.touched.add(e.node);
  for (;;) {
    const touchers = new Map<N, Set<RequestPlan>>();
    for (const plan of plans) for (const n of plan.touched) touchers.set(n, (touchers.get(n) ?? new Set()).add(plan));
    const requests = new Map<N, Map<RequestPlan, string>>();
    for (const plan of plans) {
      const byNode = new Map<N, string[]>();
      for (const e of plan.specific) byNode.set(e.node, [...(byNode.get(e.node) ?? []), `${e.start}:${e.end}:${e.text}`]);
      for (const [n, sigs] of byNode) requests.set(n, (requests.get(n) ?? new Map()).set(plan, sigs.sort().join('|')));
    }
    const conflicted = new Map<RequestPlan, RequestPlan>();
    for (const [n, reqs] of requests) {
      const sigs = new Set(reqs.values());
      const others = [...(touchers.get(n) ?? [])].filter((p) => !reqs.has(p));
      if (sigs.size > 1 || others.length) {
        const other = others[0] ?? [...reqs.keys()].find((p) => reqs.get(p) !== [...sigs][0])!;
        for (const p of reqs.keys()) if (!conflicted.has(p)) conflicted.set(p, other === p ? [...reqs.keys()].find((q) => q !== p) ?? p : other);
      }
    }
    if (!conflicted.size) return;
    for (const [plan, other] of conflicted) {
      plan.specific = [];
      const line = other.instance.root.node.loc?.start.line;
      for (const f of plan.findings) {
        if (!f.fixable || f.ruleId === 'base-url' || f.ruleId === 'openapi-url') continue;
        f.fixable = false;
        f.message += ` Not rewritten: the same code also builds another request${line ? ` (line ${line})` : ''} that needs a different change; split it or migrate by hand.`;
      }
    }
  }
}

function dedupe(findings: PlannedFinding[]): Finding[] {
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const { anchor: _anchor, ...f } of findings) {
    const k = `${f.ruleId}:${f.line}:${f.column}:${f.message}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(f);
  }
  return out.sort(compareFindings);
}

function parseErrorFinding(error: unknown): Finding {
  const e = error as { loc?: { line: number; column: number }; message?: string };
  const message = (e.message ?? String(error)).replace(/\s*\(\d+:\d+\)$/, '');
  return { ruleId: 'parse-error', severity: RULES['parse-error'].severity, line: e.loc?.line ?? 1, column: (e.loc?.column ?? 0) + 1, message: `Could not parse this file (${message}); it was left unchanged.`, fixable: false };
}

/** Migrate one JS/TS source text. Never throws for bad input: problems become findings. */
export function migrateSource(source: string, file: string, options: MigrateOptions): MigrateResult {
  return migrateProject([{ file, source }], options).get(file)!;
}

/**
 * Migrate the files of one run together: values, wrappers and bases are followed across imports
 * (and into .env files), edits land in whichever file holds the code they change. Every input file
 * gets a result; files that do not parse get a parse-error finding and take no part.
 */
export function migrateProject(inputs: readonly ProjectInput[], options: MigrateOptions): Map<string, MigrateResult> {
  const project = new Project(inputs, options.workspaces);
  return withProject(project, () => analyzeProject(project, options));
}

function analyzeProject(project: Project, options: MigrateOptions): Map<string, MigrateResult> {
  const source = project.combined;
  const jsFiles = project.files.filter((f) => f.parsed);
  const literals: P[] = [];
  for (const f of jsFiles) f.parsed!.root.find(f.parsed!.j.StringLiteral).forEach((p) => void literals.push(p));
  const quote = preferredQuote(source, literals.map((p) => p.node));
  const env = { source, bases: options.bases, quote, gpuPools: options.gpuPools ?? {}, preserveV1Defaults: options.preserveV1Defaults ?? false };

  const instances = collectSites(jsFiles.map((f) => f.parsed!), options.bases, options.wrappers ?? []);
  const touchedByAny = new Set<N>();
  const plans: RequestPlan[] = [];
  for (const inst of instances) {
    const plan = planRequest(inst, env);
    const nodes = plan?.touched ?? new Set<N>(inst.site.touched);
    for (const piece of inst.site.url) if (piece.kind === 'text') touchedByAny.add(piece.origin.path.node);
    for (const n of nodes) touchedByAny.add(n);
    if (plan) plans.push(plan);
  }
  const isMarked = markerLookup(project);
  const frozen = freezeMarked(plans, isMarked);
  arbitrate(plans);
  const findings: PlannedFinding[] = plans.flatMap((p) => p.findings);
  const edits: SourceEdit[] = keepEnvEditsTogether(plans, findings).filter((e) => !frozen.has(e.node) || !e.universal);
  releaseFrozenFindings(findings, frozen);

  for (const f of jsFiles) {
    const { j, root } = f.parsed!;
    const fileLiterals = literals.filter((l) => l.node.start >= f.start && l.node.end <= f.start + f.source.length);
    const planned: N[] = [];
    for (const path of stringExpressions(j, root, fileLiterals)) {
      const node = path.node;
      if (literalParts(node).some((q) => touchedByAny.has(q))) continue;
      if (planned.some((outer) => node.start >= outer.start && node.end <= outer.end)) continue;
      const plan = planLiteral(path, source, options.bases);
      if (!plan) continue;
      planned.push(node);
      if (!plan.findings.some((x) => isMarked(x))) edits.push(...plan.edits);
      findings.push(...plan.findings);
    }
    root.find(j.JSXText).forEach((p) => {
      const hit = options.bases.legacy.find((b) => p.node.value.includes(b));
      if (hit) findings.push(finding('embedded-url', p.node, `A REST v1 URL (${hit}) appears in rendered text; update it by hand if it documents an API call.`));
    });
  }
  return splitByFile(project, edits, findings);
}

/** Whether a finding is covered by a `v2-migrate-ignore` / `v2-migrate-keep-v1` marker in its file. */
function markerLookup(project: Project): (f: PlannedFinding) => boolean {
  const indexes = new Map<ProjectFile, MarkerIndex>();
  return (f) => {
    const file = project.fileAt(f.anchor.start);
    if (!indexes.has(file)) indexes.set(file, parseMarkers(file.source, file.file));
    return isSuppressed(indexes.get(file), f.line, f.ruleId);
  };
}

/**
 * A request whose finding is marked (kept on purpose, or a false positive) is not rewritten at all.
 * Its code then counts as used by a request that wants nothing changed: arbitration keeps other
 * requests from editing what it shares, and shared base literals it reads stay as they are.
 * Returns the nodes such requests read.
 */
function freezeMarked(plans: RequestPlan[], isMarked: (f: PlannedFinding) => boolean): Set<N> {
  const frozen = new Set<N>();
  for (const plan of plans) {
    if (!plan.findings.some((f) => f.fixable && isMarked(f))) continue;
    plan.specific = [];
    plan.universal = [];
    plan.ifRewritten = [];
    for (const n of plan.touched) frozen.add(n);
  }
  return frozen;
}

/** Findings whose fix was held back because a marked request shares the code. */
function releaseFrozenFindings(findings: PlannedFinding[], frozen: ReadonlySet<N>): void {
  for (const f of findings) {
    if (!f.fixable || !frozen.has(f.anchor)) continue;
    f.fixable = false;
    f.message += ' Not rewritten: a request marked v2-migrate-keep-v1 / v2-migrate-ignore uses the same code.';
  }
}

/**
 * A base held in a .env file is rewritten together with the code that uses it, or not at all: if any
 * request reading it still needs a person, the .env value stays and says why.
 */
const URL_RULES = new Set(['pod-action', 'update-alias', 'resource-path', 'path-param', 'unknown-path', 'unresolved-url']);

function keepEnvEditsTogether(plans: RequestPlan[], findings: PlannedFinding[]): SourceEdit[] {
  const edits = plans.flatMap((p) => [...p.universal, ...p.specific, ...(p.specific.length ? p.ifRewritten : [])]);
  const blocked = new Set<N>();
  for (const plan of plans) {
    // The request's URL could not be fully migrated (a reset or a body decision does not hold the base back).
    const urlLeftBehind = plan.findings.some((f) => !f.fixable && URL_RULES.has(f.ruleId));
    if (!urlLeftBehind) continue;
    for (const n of plan.touched) if (n.type === 'EnvValue') blocked.add(n);
  }
  if (!blocked.size) return edits;
  for (const f of findings) {
    if (!blocked.has(f.anchor) || !f.fixable) continue;
    f.fixable = false;
    f.message += ' Not rewritten: code that uses this value still needs changes by hand, and the value and the code must move together.';
  }
  return edits.filter((e) => !blocked.has(e.node));
}

/** Apply each file's edits to that file, check it still parses, and attach each finding to its file. */
function splitByFile(project: Project, edits: readonly SourceEdit[], findings: readonly PlannedFinding[]): Map<string, MigrateResult> {
  const editsOf = new Map<ProjectFile, SourceEdit[]>();
  const findingsOf = new Map<ProjectFile, PlannedFinding[]>();
  for (const e of edits) {
    const f = project.fileAt(e.start);
    editsOf.set(f, [...(editsOf.get(f) ?? []), { ...e, start: e.start - f.start, end: e.end - f.start }]);
  }
  for (const x of findings) {
    const f = project.fileAt(x.anchor.start);
    findingsOf.set(f, [...(findingsOf.get(f) ?? []), x]);
  }
  const out = new Map<string, MigrateResult>();
  for (const f of project.files) {
    if (f.parseError) {
      out.set(f.file, { output: null, findings: [parseErrorFinding(f.parseError)] });
      continue;
    }
    out.set(f.file, applyFileEdits(f, editsOf.get(f) ?? [], dedupe(findingsOf.get(f) ?? [])));
  }
  return out;
}

function applyFileEdits(f: ProjectFile, edits: SourceEdit[], findings: Finding[]): MigrateResult {
  if (!edits.length) return { output: null, findings };
  // Inserted lines follow the file's line endings.
  const eol = f.source.includes('\r\n') ? '\r\n' : '\n';
  const fitted = eol === '\n' ? edits : edits.map((e) => ({ ...e, text: e.text.replace(/\r?\n/g, eol) }));
  let output: string;
  try {
    output = applyEdits(f.source, fitted);
  } catch (error) {
    if (!(error instanceof EditError)) throw error;
    return { output: null, findings: [...findings, internalError(`conflicting edits (${error.message})`)] };
  }
  const broken = f.kind === 'js' ? syntaxError(output, f.file) : null;
  if (broken) return { output: null, findings: [...findings, internalError(`the rewritten file would not parse (${broken})`)] };
  return { output: output === f.source ? null : output, findings };
}

const isConcat = (n: N): boolean => n?.type === 'BinaryExpression' && n.operator === '+';

/**
 * String-valued expressions a URL can be written as, outermost only: string and template literals,
 * and `+` concatenations (`API + '/pods/' + id + '/stop'` is judged as a whole, not literal by literal).
 * In document order, so an enclosing expression comes before the ones inside it.
 */
function stringExpressions(j: JSCodeshift, root: Collection, literals: readonly P[]): P[] {
  const out: P[] = [];
  const add = (p: P): void => {
    if (!isConcat(p.parentPath?.node)) out.push(p);
  };
  literals.forEach(add);
  root.find(j.TemplateLiteral).forEach(add);
  root.find(j.BinaryExpression, { operator: '+' }).forEach(add);
  return out.sort((a, b) => a.node.start - b.node.start || b.node.end - a.node.end);
}

/** The literal text nodes an expression is written with (string literals and template quasis). */
function literalParts(node: N): N[] {
  if (node.type === 'StringLiteral') return [node];
  if (node.type === 'TemplateLiteral') return node.quasis;
  if (isConcat(node)) return [...literalParts(node.left), ...literalParts(node.right)];
  return [];
}

function internalError(why: string): Finding {
  return { ruleId: 'internal-error', severity: 'error', line: 1, column: 1, message: `v2-migrate could not rewrite this file safely: ${why}. It was left unchanged; please report this.`, fixable: false };
}
