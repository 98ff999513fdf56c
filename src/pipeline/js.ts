import { relativeFrom } from '../util/folders.js';
import type { Finding, FixEdit } from '../findings.js';
import { compareFindings } from '../findings.js';
import type { Bases } from '../url/shape.js';
import { withDocumentedPools } from '../map/gpu-pools.js';
import { collectSites } from '../js/analyze.js';
import { commentEdits, testPathEdits } from '../js/doc-comments.js';
import { movingNodes, pinBlockedRequests, type Pin } from './pin-v1.js';
import { applyEdits, EditError, foldEdits, preferredQuote, todoEdit, todosAbove, type SourceEdit } from '../js/edits.js';
import { recordVisits } from '../js/values.js';
import { syntaxError } from '../js/parse.js';
import { codeView } from '../js/components.js';
import { Project, withProject, type ProjectFile, type ProjectInput } from '../js/project.js';
import type { DeclaredWrapper } from '../js/clients/index.js';
import { isSuppressed, parseMarkers, type MarkerIndex, type ParsedMarkers } from '../markers/index.js';
import type { EnvValueNode, N, P, t } from '../js/ast.js';

/** A node of a parsed file or a .env value (URL literals can be either), or where a finding points (rules/plan.ts). */
type AnyNode = Anchor;
import { nodeIndex, type NodeIndex } from '../js/node-index.js';
import { finding, type Anchor, type PlannedFinding, type RequestPlan } from '../rules/plan.js';
import { blockReason, needsPerson, planRequest } from '../rules/request.js';
import { isBaseRule, MARKED_REASON, needsTodo, todoText } from '../plan/policy.js';
import { statementStartingLine } from '../js/statements.js';
import { isTestFile } from '../scan/test-files.js';
import { planLiteral, type LiteralPlan } from '../rules/literals.js';
import { planResponseFile } from '../rules/response.js';
import { settleResponseTypes } from '../rules/response-types.js';
import { RULES } from '../rules/registry.js';
import { uncoveredUse } from '../js/coverage.js';
import { shapeOf } from '../url/shape.js';
import { isCompleteShape, isSchemaUrl } from '../url/plan.js';
import { pushTo } from '../util/multimap.js';
import { attachFixes, toFixEdit, type FixOwner } from '../fixes.js';
import { lineIndex } from '../util/lines.js';
import { ADAPTER_BASENAME, adapterImports, type AdapterNeed } from '../js/body/adapter.js';

export interface MigrateOptions {
  bases: Bases;
  /**
   * How the run resolved imports: importing file → specifier → imported file (tsconfig paths,
   * workspace packages, … as src/scan/resolve.ts reads them). Without it, no import is followed.
   */
  imports?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Wrappers declared in the config (config `wrappers`). */
  wrappers?: readonly DeclaredWrapper[];
  /** GPU type name → v2 serverless pool id (config `gpuPools`), over RunPod's documented pool table. */
  gpuPools?: Readonly<Record<string, string>>;
  /** Write v1 defaults out on creates instead of warning (config `preserveV1Defaults`). */
  preserveV1Defaults?: boolean;
  /** Run-time body adapters (config `adapters`): off, or the file to put them in (null: next to the code). */
  adapters?: false | { file: string | null };
  /** The quote new strings are written with (default: the one most string literals of the files use). */
  quote?: string;
  /** Rules set to "off" in the config: their findings are not reported (by the runner) and their fixes not made. */
  offRules?: readonly string[];
}

export interface MigrateResult {
  /** The migrated source, or null when nothing changes. */
  output: string | null;
  findings: Finding[];
  /**
   * For a .env file: variables whose v1 base must stay, because code this run does not migrate reads
   * them (name → where that code is). The text engine, which plans the file, holds them.
   */
  heldVars?: Record<string, string>;
  /** For a file whose requests now call generated body adapters: the adapter file and what it must export. */
  adapter?: AdapterNeed;
  /**
   * Other files whose changes come from the same requests as this file's (a base literal and the paths
   * built on it, a wrapper and its callers): applied together or not at all. Absent when none.
   */
  changesWith?: string[];
  /** The file's markers, when the engine parsed them (the runner reuses them). */
  markers?: ParsedMarkers;
}

/**
 * Requests that share code must agree: an edit to a node is kept only if every request that reads
 * that node asks for exactly the same edit. Otherwise the requests involved keep only their
 * universal edits and report instead.
 */
function arbitrate(plans: RequestPlan[]): void {
  for (const plan of plans) for (const e of plan.specific) plan.touched.add(e.node);
  for (;;) {
    const requests = new Map<AnyNode, Map<RequestPlan, string>>();
    for (const plan of plans) {
      const byNode = new Map<AnyNode, string[]>();
      for (const e of plan.specific) pushTo(byNode, e.node, `${e.start}:${e.end}:${e.text}`);
      for (const [n, sigs] of byNode) requests.set(n, (requests.get(n) ?? new Map()).set(plan, sigs.sort().join('|')));
    }
    // Who reads each edited node (plans read far more nodes than they edit; only edited ones matter).
    const touchers = new Map<AnyNode, Set<RequestPlan>>();
    for (const plan of plans) for (const n of plan.touched) if (requests.has(n)) touchers.set(n, (touchers.get(n) ?? new Set()).add(plan));
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
        if (!f.fixable || isBaseRule(f.ruleId)) continue;
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
  const project = new Project(inputs, options.imports);
  return withProject(project, () => analyzeProject(project, options));
}

function analyzeProject(project: Project, options: MigrateOptions): Map<string, MigrateResult> {
  const source = project.combined;
  const jsFiles = project.files.filter((f) => f.parsed);
  const literalsOf = new Map<ProjectFile, P[]>();
  for (const f of jsFiles) literalsOf.set(f, nodeIndex(f.parsed!).strings);
  const literals = [...literalsOf.values()].flat();
  const quote = options.quote ?? preferredQuote(source, literals.map((p) => p.node));
  const env = { source, bases: options.bases, quote, gpuPools: withDocumentedPools(options.gpuPools), preserveV1Defaults: options.preserveV1Defaults ?? false, adapters: options.adapters !== false };

  const instances = collectSites(jsFiles.map((f) => f.parsed!), options.bases, options.wrappers ?? []);
  const touchedByAny = new Set<AnyNode>();
  const plans: RequestPlan[] = [];
  for (const inst of instances) {
    const plan = planRequest(inst, env);
    const nodes = plan?.touched ?? new Set<AnyNode>(inst.site.touched);
    for (const piece of inst.site.url) if (piece.kind === 'text') touchedByAny.add(piece.origin.path.node);
    for (const n of nodes) touchedByAny.add(n);
    if (plan) plans.push(plan);
  }
  // Declared response types several requests meet are renamed for all of them, or for none.
  settleResponseTypes(env, plans);
  const off = new Set(options.offRules ?? []);
  const isOff = (f: PlannedFinding): boolean => off.has(f.ruleId);
  const markers = markerLookup(project);
  const isMarked = markers.isMarked;
  const frozen = freezeMarked(plans, isMarked);
  leaveOffRulesAlone(plans, isOff);
  project.noteEdits(plans.flatMap((p) => [...p.universal, ...p.specific, ...p.ifRewritten]));
  arbitrate(plans);
  const literalPlans = planLiterals(jsFiles, literalsOf, touchedByAny, source, options.bases);
  const pins = pinBlockedRequests(plans.filter((p) => !p.findings.some(isMarked)), env);
  const understanding = understoodNodes(plans, literalPlans, new Set(pins.map((pin) => pin.plan)));
  const isHeld = heldBases(project, options.bases, understanding.ok);
  const where = placeFrom(project);
  holdRequestsOnHeldBases(plans, isHeld, where);
  const keeps = (f: PlannedFinding): boolean => isMarked(f) || isOff(f);
  leaveTodos(movingRequests(plans, isHeld, keeps), project);
  keepBlockedAsIs(plans, pins, project);
  const findings: PlannedFinding[] = plans.flatMap((p) => p.findings);
  const edits: SourceEdit[] = collectEdits(plans).filter((e) => !frozen.has(e.node) || !e.universal);
  releaseFrozenFindings(findings, frozen);
  const leftOnV1 = filesLeftOnV1(plans, isHeld, project);
  for (const lp of literalPlans) {
    holdLiteralPlan(lp, isHeld, where);
    if (lp.inTest && testsCodeLeftOnV1(lp, project, leftOnV1)) holdTestLiteral(lp);
    if (lp.plan.findings.some(keeps)) continue;
    // A URL value that moves (its base with it) keeps what a person must still do as TODOs, like a request.
    if (lp.plan.edits.length) leaveTodos([{ findings: lp.plan.findings, edits: lp.plan.edits }], project);
    edits.push(...lp.plan.edits);
  }
  for (const lp of literalPlans) findings.push(...lp.plan.findings);
  for (const f of jsFiles) {
    findings.push(...planResponseFile(f.parsed!.root, instances, plans, env));
    nodeIndex(f.parsed!).jsxTexts.forEach((p) => {
      const hit = options.bases.legacy.find((b) => p.node.value.includes(b));
      if (hit) findings.push(finding('embedded-url', p.node, `A REST v1 URL (${hit}) appears in rendered text; update it by hand if it documents an API call.`));
    });
  }
  const kept = holdEdits(edits, findings, isHeld, where, understanding.heldBy);
  const adapters = adapterImports(kept, source, quote, options.adapters ? options.adapters.file : null);
  const keptSet = new Set(kept);
  const following = followingText(project, kept, leftOnV1, options.bases);
  const owners = [...plans.map((p) => ({ findings: p.findings, edits: planEdits(p) })), ...literalPlans.map((lp) => ({ findings: lp.plan.findings, edits: lp.plan.edits }))];
  attachFindingFixes(project, withFollowingText(project, owners.map((o) => ({ findings: o.findings, edits: o.edits.filter((e) => keptSet.has(e)) })), following), [...kept, ...following]);
  const results = splitByFile(project, [...kept, ...following, ...adapters.imports], findings);
  linkChanges(results, project, owners.map((o) => o.edits), keptSet);
  // A change that goes with other files' changes (or with the generated adapter file) is no fix of this file alone.
  for (const [file, r] of results) if (r.changesWith || adapters.needs.has(file)) for (const f of r.findings) delete f.fix;
  for (const [file, need] of adapters.needs) {
    const result = results.get(file);
    if (result?.output !== null && result) result.adapter = need;
    // Name the adapter file where the findings of this file say where the adapter is.
    const rel = relativeFrom(file, need.file);
    for (const f of result?.findings ?? []) f.message = f.message.replace(`${ADAPTER_BASENAME} next to this code`, rel.startsWith('.') ? rel : `./${rel}`);
  }
  for (const r of results.values()) for (const f of r.findings) f.message = f.message.replace(` (${ADAPTER_BASENAME} next to this code)`, '');
  // The runner takes markers out of the gate with the index parsed here, not parsing the file again.
  for (const f of project.files) {
    const parsed = f.original === undefined ? markers.parsedOf(f) : undefined;
    const result = results.get(f.file);
    if (parsed && result) result.markers = parsed;
  }
  for (const e of project.envValues()) {
    const use = isHeld(e.node);
    const result = results.get(e.file);
    if (use && result) (result.heldVars ??= {})[e.name] = where(use, e.node);
  }
  return results;
}

/** A literal plan and what its evaluation read (interpolated constants). */
interface LiteralPlanned {
  plan: LiteralPlan;
  visited: Set<N | EnvValueNode>;
  /** A test's URL (test-files.ts): it follows the client it tests, and never holds it. */
  inTest: boolean;
  /** The literal (or template, or `+` chain) the URL is written as. */
  node: N;
}

/** v1 URLs written in literals that no understood request uses (route tables, test expectations, constants). */
function planLiterals(jsFiles: readonly ProjectFile[], literalsOf: ReadonlyMap<ProjectFile, P[]>, touchedByAny: ReadonlySet<AnyNode>, source: string, bases: Bases): LiteralPlanned[] {
  const out: LiteralPlanned[] = [];
  for (const f of jsFiles) {
    const fileLiterals = literalsOf.get(f) ?? [];
    const planned: AnyNode[] = [];
    for (const path of stringExpressions(nodeIndex(f.parsed!), fileLiterals)) {
      const node = path.node;
      if (literalParts(node).some((q) => touchedByAny.has(q))) continue;
      if (planned.some((outer) => node.start! >= outer.start! && node.end! <= outer.end!)) continue;
      const visited = new Set<N | EnvValueNode>();
      const inTest = isTestFile(f.file);
      const plan = recordVisits(visited, () => planLiteral(path, source, bases, inTest));
      if (!plan) continue;
      planned.push(node);
      out.push({ plan, visited, inTest, node });
    }
  }
  return out;
}

/** The files with a request that stays on v1 this run (blocked, or its base held). */
function filesLeftOnV1(plans: readonly RequestPlan[], isHeld: (node: AnyNode) => AnyNode | null, project: Project): Set<ProjectFile> {
  const out = new Set<ProjectFile>();
  for (const p of plans) if (blockReason(p) || [...p.touched].some((n) => isHeld(n))) out.add(project.fileAt(p.instance.root.node.start!));
  return out;
}

/**
 * The comment and test-path edits of a file (followingText) go with the fix of the first request that
 * changes that file: they follow its requests, and none is made on its own.
 */
function withFollowingText(project: Project, owners: Array<FixOwner<PlannedFinding, SourceEdit>>, following: readonly SourceEdit[]): Array<FixOwner<PlannedFinding, SourceEdit>> {
  const byFile = new Map<ProjectFile, SourceEdit[]>();
  for (const e of following) pushTo(byFile, project.fileAt(e.start), e);
  const out = owners.map((o) => ({ findings: o.findings, edits: [...o.edits] }));
  for (const [file, edits] of byFile) {
    const owner = out.find((o) => o.findings.some((f) => f.fixable) && o.edits.some((e) => project.fileAt(e.start) === file));
    if (owner) owner.edits.push(...edits);
    else out.push({ findings: [], edits });
  }
  return out;
}

/**
 * Text that quotes a request follows it (doc-comments.ts): comments in files this run rewrites and
 * leaves nothing of on v1, and the paths a test expects when the clients it imports moved that way.
 */
function followingText(project: Project, kept: readonly SourceEdit[], leftOnV1: ReadonlySet<ProjectFile>, bases: Bases): SourceEdit[] {
  const rewritten = new Set(kept.map((e) => project.fileAt(e.start)));
  const edits: SourceEdit[] = [];
  for (const f of project.files) {
    if (!f.parsed || leftOnV1.has(f)) continue;
    if (rewritten.has(f)) edits.push(...commentEdits(f.parsed.root.node.comments ?? [], project.combined, bases, f.parsed.root.node));
    const tested = isTestFile(f.file) ? project.importsOf(f) : [];
    if (tested.some((c) => rewritten.has(c)) && !tested.some((c) => leftOnV1.has(c))) edits.push(...testPathEdits(nodeIndex(f.parsed).strings, project.combined, bases));
  }
  // A literal a request of the run already rewrites keeps that rewrite.
  return edits.filter((e) => !kept.some((k) => k.start < e.end && e.start < k.end));
}

/** Whether the test holding a URL tests code that stays on v1: its own file or a file it imports has such a request. */
function testsCodeLeftOnV1(lp: LiteralPlanned, project: Project, leftOnV1: ReadonlySet<ProjectFile>): boolean {
  const file = project.fileAt(lp.node.start!);
  return leftOnV1.has(file) || project.importsOf(file).some((f) => leftOnV1.has(f));
}

/** A test's URL whose client stays on v1 this run stays too: tests move with what they test, and only then. */
function holdTestLiteral(lp: LiteralPlanned): void {
  if (!lp.plan.edits.length) return;
  lp.plan.edits = [];
  for (const f of lp.plan.findings) {
    if (!f.fixable) continue;
    f.fixable = false;
    f.message += ' Not rewritten: a request on this base stays on v1 in this run, and a test\'s URL moves with the client it tests.';
  }
}

/** A literal plan that reads a base which must stay is not applied either: the URL moves as a whole. */
function holdLiteralPlan(lp: LiteralPlanned, isHeld: (node: AnyNode) => AnyNode | null, where: Place): void {
  const base = lp.plan.edits.map((e) => e.node).find((n) => isHeld(n)) ?? [...lp.visited].find((n) => isHeld(n));
  if (!base) return;
  lp.plan.edits = [];
  holdFindings(lp.plan.findings, base, where);
}

/** The findings of a request or literal whose base must stay: not fixable, and why. */
function holdFindings(findings: readonly PlannedFinding[], base: AnyNode, where: Place): void {
  for (const f of findings) {
    if (!f.fixable || f.anchor === base) continue;
    f.fixable = false;
    f.message += ` Not rewritten: its base URL (${where(base, f.anchor)}) cannot move yet, and the path must move with it.`;
  }
}

/**
 * Which v1 base literals (in code or .env) must stay: some code uses them outside any request this
 * run fully migrates, and moving such a base alone would send that code's v1 paths to the v2 host.
 * A complete URL written inline (a test expectation) stands alone and is never held. Returns, for a
 * node, the first such use (or null).
 */
function heldBases(project: Project, bases: Bases, understood: ReadonlySet<N | EnvValueNode>): (node: AnyNode) => AnyNode | null {
  const verdict = new Map<AnyNode, AnyNode | null>();
  return (node: AnyNode): AnyNode | null => {
    if (verdict.has(node)) return verdict.get(node)!;
    let use: AnyNode | null = null;
    const value = (node as { value?: unknown }).value; // a string literal's or a .env value's text
    const text = node.type === 'TemplateElement' ? (node.value.cooked as string | undefined) : typeof value === 'string' ? value : undefined;
    if (text && bases.legacy.some((b) => text.includes(b))) {
      const path = pathOfLiteral(project, node);
      const complete = !!path && isCompleteUrl(text, bases) && (!boundToName(path) || isSchemaLiteral(text, bases));
      use = path && !complete ? uncoveredUse(path, understood, project, bases) : null;
    }
    verdict.set(node, use);
    return use;
  };
}

/** Where a node is, said in a finding about another: its line, and its file when that is another one. */
type Place = (node: AnyNode, from: AnyNode) => string;

function placeFrom(project: Project): Place {
  return (node, from) => {
    const line = `line ${node.loc?.start.line ?? '?'}`;
    const file = project.fileAt(node.start!).file;
    const here = project.fileAt(from.start!).file;
    return file === here ? line : `${line} of ${relativeFrom(here, file)}`;
  };
}

/** Requests whose base must stay keep their path, method and body too: base and paths move together. */
function holdRequestsOnHeldBases(plans: RequestPlan[], isHeld: (node: AnyNode) => AnyNode | null, where: Place): void {
  for (const plan of plans) {
    const base = [...plan.touched].find((n) => isHeld(n));
    if (!base) continue;
    // A request with nothing else to report still gets a finding of its own: the gate must show every call left on v1.
    const root = plan.instance.root.node;
    const stmt = statementAround(plan.instance.root);
    const inside = (n: AnyNode): boolean => n.start! >= stmt.start! && n.end! <= stmt.end!;
    if (!plan.findings.some((f) => inside(f.anchor)) && !inside(base)) {
      plan.findings.push(finding('base-url', root, `This request still goes to REST v1: its base URL (${where(base, root)}) cannot move yet (see the finding there); it moves with the base.`, false));
    }
    if (!plan.specific.length && !plan.ifRewritten.length) continue;
    plan.specific = [];
    plan.ifRewritten = [];
    holdFindings(plan.findings, base, where);
  }
}

/**
 * A request that must not go to v2 as it is (blockReason) makes none of its own changes: its path,
 * body and response reads stay v1-shaped, and what it shares with requests that move (a base constant)
 * moves with them. Pinned to v1 (pin-v1.ts), it writes the v1 base in place of its read of the shared
 * one and says so, with a TODO, on the finding that blocks it.
 */
function keepBlockedAsIs(plans: readonly RequestPlan[], pins: readonly Pin[], project: Project): void {
  const shared: ReadonlySet<AnyNode> = movingNodes(plans);
  const pinOf = new Map(pins.map((pin) => [pin.plan, pin.edit]));
  for (const plan of plans) {
    if (plan.onV2 || !blockReason(plan)) continue;
    plan.specific = [];
    plan.ifRewritten = [];
    plan.universal = plan.universal.filter((e) => shared.has(e.node));
    const root = plan.instance.root.node;
    const own = (n: AnyNode): boolean => (n.start ?? -1) >= (root.start ?? 0) && (n.end ?? Infinity) <= (root.end ?? 0);
    // The finding that says why it cannot move, before the others join it among the unfixable.
    const blocking = plan.findings.find((f) => !f.fixable && own(f.anchor));
    for (const f of plan.findings) {
      // A base literal's finding is the hold's to word (holdEdits names the request that keeps it).
      if (!f.fixable || shared.has(f.anchor) || f.ruleId === 'base-url') continue;
      f.fixable = false;
      f.message += ' Not rewritten: this request stays on REST v1 until it is settled.';
    }
    const pin = pinOf.get(plan);
    if (!pin) continue;
    plan.universal.push(pin);
    const why = ` It stays on REST v1 alone, with its own copy of the v1 base (v1 answers 410, so it fails loudly rather than sending v2 a request whose answer nobody decided), while the other requests on its base move to v2; settle it, then point it at the v2 base.`;
    const said = blocking ?? finding('base-url', root, `This request cannot move to v2 as it is (${holdReason(plan)}).`, false);
    said.message += why;
    if (!blocking) plan.findings.push(said);
    // Its other findings come back on the v1 code it keeps: only the decision gets a TODO.
    leaveTodos([{ findings: [said], edits: plan.universal }], project);
  }
}

/** What moves to v2 in this run with findings a person must settle: its findings, and the edits its TODOs join. */
interface Mover {
  findings: readonly PlannedFinding[];
  edits: SourceEdit[];
}

/**
 * A request (or a URL value) that moves to v2 unfinished — v2 refuses what is left: a v1-only path, a v1
 * body field — gets, for each finding that needs a person and has no TODO yet, a
 * `// TODO(v2-migrate <rule>)` line above the statement the finding points into, so lint still reports it,
 * under its rule, once the code is written.
 */
function leaveTodos(movers: readonly Mover[], project: Project): void {
  for (const mover of movers) {
    const written = new Map<string, number>();
    for (const e of mover.edits) {
      const rule = /TODO\(v2-migrate ([a-z0-9-]+)\)/.exec(e.text)?.[1];
      if (rule) written.set(rule, (written.get(rule) ?? 0) + 1);
    }
    // TODOs already above a statement (an earlier run's) count once per finding of their rule there.
    const seen = new Map<string, number>();
    for (const f of mover.findings) {
      if (!needsTodo(f) || f.anchor.type === 'EnvValue') continue;
      const left = written.get(f.ruleId) ?? 0;
      if (left > 0) {
        written.set(f.ruleId, left - 1);
        continue;
      }
      // An earlier run's TODO right above the finding's own line (a body property's) is its TODO.
      if (todosAbove(project.combined, f.anchor, f.ruleId) > 0) continue;
      const file = project.fileAt(f.anchor.start!);
      const stmt = file.parsed ? statementStartingLine(file.parsed.root, project.combined, f.anchor.start!, f.anchor.end!) : null;
      if (!stmt) continue;
      const key = `${stmt.start}:${f.ruleId}`;
      const nth = seen.get(key) ?? 0;
      seen.set(key, nth + 1);
      if (nth < todosAbove(project.combined, stmt, f.ruleId)) continue;
      const todo = todoEdit(project.combined, stmt, f.ruleId, todoText(f.message));
      if (todo) mover.edits.push(todo);
    }
  }
}

/** The requests that move to v2 in this run: not already there, not kept on v1 (blocked, marked, a rule off) and not on a base that stays. */
function movingRequests(plans: readonly RequestPlan[], isHeld: (node: AnyNode) => AnyNode | null, keeps: (f: PlannedFinding) => boolean): Mover[] {
  return plans.filter((p) => !p.onV2 && !blockReason(p) && !p.findings.some(keeps) && ![...p.touched].some((n) => isHeld(n))).map((p) => ({ findings: p.findings, edits: p.universal }));
}

/** The statement a call is part of (where its findings anchor: the call, its declaration, its result). */
function statementAround(path: P): N {
  let p: P | null = path;
  while (p && !/Statement|Declaration$/.test(p.value?.type ?? '')) p = p.parentPath;
  return p?.value ?? path.node;
}

/** Drop edits of held base literals, and say why on their findings. */
function holdEdits(edits: SourceEdit[], findings: PlannedFinding[], isHeld: (node: AnyNode) => AnyNode | null, where: Place, heldBy: ReadonlyMap<AnyNode, Holder>): SourceEdit[] {
  for (const f of findings) {
    const use = f.fixable ? isHeld(f.anchor) : null;
    if (!use) continue;
    f.fixable = false;
    // Name the request that holds the base (the caller, not the wrapper line they share) when there is one.
    const by = heldBy.get(use);
    f.message += by
      ? ` Not rewritten: a request on this base cannot move to v2 as it is (${where(by.plan.instance.root.node, f.anchor)}, ${by.reason}); the base and every request on it move together. Settle that request, then run again.`
      : ` Not rewritten: this base is also used by code v2-migrate cannot follow (${use === f.anchor ? 'it is handed on where it stands, and no request the tool understands reads it' : where(use, f.anchor)}); moving it alone would send that code's v1 paths to the v2 host. Migrate that code (or declare its wrapper in the config's "wrappers"), then run again.`;
  }
  return edits.filter((e) => !isHeld(e.node));
}

/** A full v1 URL (a documented path, or the schema) rather than a base other code appends to. */
function isCompleteUrl(text: string, bases: Bases): boolean {
  return isCompleteShape(shapeOf([{ kind: 'text', text, origin: null }], bases));
}

/** The v1 schema URL is only ever fetched whole: it moves with or without the code around it. */
function isSchemaLiteral(text: string, bases: Bases): boolean {
  const shape = shapeOf([{ kind: 'text', text, origin: null }], bases);
  return shape.base === 'legacy' && isSchemaUrl(shape) && shape.query === null;
}

function boundToName(path: P): boolean {
  let q: P = path;
  while (q.parentPath && ['LogicalExpression', 'TSAsExpression', 'ParenthesizedExpression'].includes(q.parentPath.value?.type)) q = q.parentPath;
  const holder = q.parentPath?.value?.type;
  return holder === 'VariableDeclarator' || holder === 'ClassProperty' || holder === 'AssignmentExpression';
}

/** The path of a string literal, template quasi or .env value node. */
function pathOfLiteral(project: Project, node: AnyNode): P | null {
  if (node.type === 'EnvValue') return { node, value: node, parentPath: null } as unknown as P;
  if (node.type === 'QueryParameter') return null; // a finding's anchor, never a literal
  const file = project.fileAt(node.start!);
  if (!file.parsed) return null;
  return nodeIndex(file.parsed).literalPath(node);
}

/**
 * Whether a finding is covered by a `v2-migrate-ignore` / `v2-migrate-keep-v1` marker in its file, and
 * the markers of the files that needed asking (each file parsed once).
 */
function markerLookup(project: Project): { isMarked: (f: PlannedFinding) => boolean; parsedOf: (file: ProjectFile) => ParsedMarkers | undefined } {
  const indexes = new Map<ProjectFile, MarkerIndex>();
  const indexOf = (file: ProjectFile): MarkerIndex => {
    const known = indexes.get(file);
    if (known) return known;
    const index = parseMarkers(file.source, file.file);
    indexes.set(file, index);
    return index;
  };
  return {
    isMarked: (f) => isSuppressed(indexOf(project.fileAt(f.anchor.start ?? 0)), f.line, f.ruleId),
    // Only an index with something in it: a file without marker words costs the runner nothing to check.
    parsedOf: (file) => {
      const parsed = indexes.get(file)?.parsed;
      return parsed && (parsed.markers.length || parsed.problems.length) ? parsed : undefined;
    },
  };
}

/**
 * A request whose finding is marked (kept on purpose, or a false positive) is not rewritten at all, not
 * even with a TODO, and stays where it is: its code counts as used by a request that wants nothing
 * changed, so arbitration keeps other requests from editing what it shares, and a shared base it reads
 * stays as it is (the marker is the user's word; the base's finding says which request keeps it).
 * Returns the nodes such requests read.
 */
function freezeMarked(plans: RequestPlan[], isMarked: (f: PlannedFinding) => boolean): Set<AnyNode> {
  const frozen = new Set<AnyNode>();
  for (const plan of plans) {
    if (!plan.findings.some((f) => (f.fixable || needsPerson(f)) && isMarked(f))) continue;
    plan.blocks = MARKED_REASON;
    plan.specific = [];
    plan.universal = [];
    plan.ifRewritten = [];
    for (const n of plan.touched) frozen.add(n);
  }
  return frozen;
}

/**
 * A rule set to "off" neither reports nor fixes: a request with a finding of such a rule is left as it is
 * (no path, method or body change, no TODO), so it never goes half-migrated. Like any request a person
 * must finish, it moves with its base where v2 refuses what is left (a v1 path: 404), and keeps the base
 * on v1 where v2 would answer it with another meaning (a list left unwrapped).
 */
function leaveOffRulesAlone(plans: RequestPlan[], isOff: (f: PlannedFinding) => boolean): void {
  for (const plan of plans) {
    const offRule = plan.findings.find(isOff)?.ruleId;
    if (!offRule) continue;
    plan.specific = [];
    plan.ifRewritten = [];
    // Its base moves only through the requests that may move it (with base-url off, none do).
    plan.universal = [];
    for (const f of plan.findings) {
      if (!f.fixable || isBaseRule(f.ruleId)) continue;
      f.fixable = false;
      // The off finding itself is never reported; unfixed, it decides whether the request can move (blockReason).
      if (!isOff(f)) f.message += ` Not rewritten: the rule ${offRule}, which this request also needs, is "off" in the config.`;
    }
  }
}

/** Findings whose fix was held back because a marked request shares the code. */
function releaseFrozenFindings(findings: PlannedFinding[], frozen: ReadonlySet<AnyNode>): void {
  for (const f of findings) {
    if (!f.fixable || !frozen.has(f.anchor)) continue;
    f.fixable = false;
    f.message += ' Not rewritten: a request marked v2-migrate-keep-v1 / v2-migrate-ignore (or whose rule is turned off) uses the same code.';
  }
}

/**
 * Nodes read only by requests that can move to v2 in this run (migrated, or unfinished where v2 refuses
 * them loudly: see blockReason), and for each other node the first request that holds it. A node also
 * read by any other request does not count: moving a base it holds could have v2 answer that request
 * with another meaning.
 */
interface Understanding {
  ok: Set<N | EnvValueNode>;
  /** For a node a request holds: that request and why, said before other holds add to its findings. */
  heldBy: Map<AnyNode, Holder>;
}

interface Holder {
  plan: RequestPlan;
  reason: string;
}

function understoodNodes(plans: readonly RequestPlan[], literalPlans: readonly LiteralPlanned[], pinned: ReadonlySet<RequestPlan>): Understanding {
  const ok = new Set<N | EnvValueNode>();
  const heldBy = new Map<AnyNode, Holder>();
  const not = new Set<N | EnvValueNode>();
  for (const plan of plans) {
    // A request pinned to v1 by its own copy of the base no longer reads the shared one.
    const migrated = blockReason(plan) === null || pinned.has(plan);
    const holder = migrated ? null : { plan, reason: holdReason(plan) };
    for (const set of [plan.touched, plan.instance.site.visited]) {
      for (const n of set) {
        (migrated ? ok : not).add(n);
        if (holder && !heldBy.has(n)) heldBy.set(n, holder);
      }
    }
  }
  // A literal whose whole URL this run rewrites (a route table entry) is a use that moves with its base.
  for (const lp of literalPlans) {
    // A test's expectation never holds the code it tests.
    const migrated = lp.inTest || lp.plan.findings.every((f) => f.fixable);
    for (const n of lp.visited) (migrated ? ok : not).add(n);
  }
  for (const n of not) ok.delete(n);
  return { ok, heldBy };
}


/** Why a request holds the base it reads, for the base's finding. */
function holdReason(plan: RequestPlan): string {
  return blockReason(plan) ?? 'its URL is not a v1 operation the tool knows';
}

function collectEdits(plans: readonly RequestPlan[]): SourceEdit[] {
  return plans.flatMap(planEdits);
}

/** The edits one request's plan makes. */
const planEdits = (p: RequestPlan): SourceEdit[] => [...p.universal, ...p.specific, ...(p.specific.length ? p.ifRewritten : [])];

/**
 * `changesWith` of each changed file: the files that the kept edits of one request (or literal) span,
 * joined transitively (two requests on one base literal join their files too).
 */
function linkChanges(results: Map<string, MigrateResult>, project: Project, editGroups: ReadonlyArray<readonly SourceEdit[]>, kept: ReadonlySet<SourceEdit>): void {
  const parent = new Map<string, string>();
  const find = (f: string): string => {
    while (parent.has(f) && parent.get(f) !== f) f = parent.get(f)!;
    return f;
  };
  for (const group of editGroups) {
    const files = [...new Set(group.filter((e) => kept.has(e)).map((e) => project.fileAt(e.start).file))];
    for (const f of files) if (!parent.has(f)) parent.set(f, f);
    for (const f of files.slice(1)) parent.set(find(f), find(files[0]!));
  }
  const changed = [...results].filter(([f, r]) => r.output !== null && parent.has(f)).map(([f]) => f);
  for (const f of changed) {
    const others = changed.filter((g) => g !== f && find(g) === find(f));
    if (others.length) results.get(f)!.changesWith = others;
  }
}

/**
 * Each fixable finding's fix: the kept edits of its request (or URL literal) in the finding's own file,
 * in that file's offsets, one combined fix where requests share an edit (fixes.ts).
 */
function attachFindingFixes(project: Project, owners: ReadonlyArray<FixOwner<PlannedFinding, SourceEdit>>, kept: readonly SourceEdit[]): void {
  // Edits at one point apply in the order the run made them.
  const order = new Map(kept.map((e, i) => [e, i]));
  // The findings of one group in one file share one fix (a base read by many requests is one fix).
  const made = new Map<readonly SourceEdit[], Map<ProjectFile, FixEdit[]>>();
  attachFixes(owners, (f, edits) => {
    const at = f.anchor.start;
    if (typeof at !== 'number') return [];
    const file = project.fileAt(at);
    const byFile = made.get(edits) ?? new Map<ProjectFile, FixEdit[]>();
    made.set(edits, byFile);
    const known = byFile.get(file);
    if (known) return known;
    const fix = fixOfFile(project, file, edits, order);
    byFile.set(file, fix);
    return fix;
  });
}

/** A group's edits in one file, in that file's offsets, folded as the engine applies them. */
function fixOfFile(project: Project, file: ProjectFile, edits: readonly SourceEdit[], order: ReadonlyMap<SourceEdit, number>): FixEdit[] {
  const mine = edits
    .filter((e) => project.fileAt(e.start) === file)
    .sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0))
    .map((e) => ({ ...e, start: e.start - file.start, end: e.end - file.start, text: fitLineEnds(file, e.text) }));
  try {
    return foldEdits(file.original ?? file.source, mine).map(toFixEdit);
  } catch (error) {
    // Edits that cannot be made together: the file is not rewritten (applyFileEdits says why).
    if (error instanceof EditError) return [];
    throw error;
  }
}

/** Inserted lines follow the file's line endings. */
function fitLineEnds(f: ProjectFile, text: string): string {
  return f.source.includes('\r\n') ? text.replace(/\r?\n/g, '\r\n') : text;
}

/** Characters JavaScript treats as line breaks but git, editors and diffs do not. */
const LINE_BREAKS_JS_ONLY = /[\u2028\u2029]|\r(?!\n)/;

/** Apply each file's edits to that file, check it still parses, and attach each finding to its file. */
function splitByFile(project: Project, edits: readonly SourceEdit[], findings: readonly PlannedFinding[]): Map<string, MigrateResult> {
  const editsOf = new Map<ProjectFile, SourceEdit[]>();
  const findingsOf = new Map<ProjectFile, PlannedFinding[]>();
  for (const e of edits) {
    const f = project.fileAt(e.start);
    pushTo(editsOf, f, { ...e, start: e.start - f.start, end: e.end - f.start });
  }
  for (const x of findings) {
    const f = project.fileAt(x.anchor.start!);
    pushTo(findingsOf, f, LINE_BREAKS_JS_ONLY.test(f.source) ? { ...x, ...lineIndex(f.source)(x.anchor.start! - f.start) } : x);
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
  const fitted = edits.map((e) => ({ ...e, text: fitLineEnds(f, e.text) }));
  // A component's edits fall in its code, which its view keeps at the same offsets: they apply to its own text.
  const text = f.original ?? f.source;
  let output: string;
  try {
    output = applyEdits(text, fitted);
  } catch (error) {
    if (!(error instanceof EditError)) throw error;
    return { output: null, findings: [...findings, internalError(`conflicting edits (${error.message})`)] };
  }
  const broken = f.kind === 'js' ? syntaxError(f.original === undefined ? output : codeView(output, f.file), f.file) : null;
  if (broken) return { output: null, findings: [...findings, internalError(`the rewritten file would not parse (${broken})`)] };
  return { output: output === text ? null : output, findings };
}

const isConcat = (n: N | null | undefined): n is t.BinaryExpression => n?.type === 'BinaryExpression' && n.operator === '+';

/**
 * String-valued expressions a URL can be written as, outermost only: string and template literals,
 * and `+` concatenations (`API + '/pods/' + id + '/stop'` is judged as a whole, not literal by literal).
 * In document order, so an enclosing expression comes before the ones inside it.
 */
function stringExpressions(index: NodeIndex, literals: readonly P[]): P[] {
  const out: P[] = [];
  const add = (p: P): void => {
    if (!isConcat(p.parentPath?.node)) out.push(p);
  };
  literals.forEach(add);
  index.templates.forEach(add);
  index.concats.forEach(add);
  return out.sort((a, b) => a.node.start! - b.node.start! || b.node.end! - a.node.end!);
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
