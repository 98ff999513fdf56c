/**
 * The text engine's side of the planner: a URL found in any language (as literal text pieces and holes,
 * like the JS engine's) becomes findings and, where the change is certain, splice edits. A request goes
 * through the one request flow (plan/flow.ts) with the file's Collector as its sink; bare URL values
 * (planValue, planEmbedded) are planned here. Messages and rule ids are the JS engine's, so the same
 * fact reads the same in every file type.
 */
import type { Finding } from '../findings.js';
import type { HttpMethod } from '../map/operations.js';
import { HOLE, type Piece } from '../url/pieces.js';
import { isCompleteShape, isSchemaUrl, planUrlChanges, templateOf, URL_RULES, type UrlChange } from '../url/plan.js';
import { displayPath, shapeOf, type Bases, type UrlShape } from '../url/shape.js';
import { RULES, type RuleId } from '../rules/registry.js';
import { applyEdits, lineEndAt, overlaps, type Edit } from './source.js';
import { lastStartingBy, Lines } from '../util/lines.js';
import { pushTo } from '../util/multimap.js';
import { attachFixes } from '../fixes.js';
import { V2_OPENAPI_URL } from '../map/hosts.js';
import { isSuppressed, parseMarkers, type MarkerIndex } from '../markers/index.js';
import { queryParams, type QueryParam } from './fields.js';
import { planQueryParams } from './query-filter.js';
import { decideValue, valueChangeMessage } from '../plan/decide.js';
import { baseChangeMessage, embeddedMessage, notInPlaceMessage, schemaMessage } from '../plan/messages.js';
import { planRequestFlow, type FlowOutcome, type RequestSink } from '../plan/flow.js';
import type { CallSite, EditsOrReason as Parts, JsonBodyWriter, ListFilterWriter, MethodWriter } from '../plan/site.js';
import type { TodoSyntax } from './todo-lines.js';
import { blockingFinding, isBaseRule, MARKED_REASON, needsTodo, READS, todoText } from '../plan/policy.js';

/** Where a piece of URL text came from in the file. */
export interface TextOrigin {
  /** Offset of the piece's first character (for a hole: of the hole's source). */
  start: number;
  /** The piece is the file's text verbatim from `start`, so it can be edited in place. */
  editable: boolean;
  /** Offset of the literal (string token, scalar, word) the piece belongs to: findings are anchored there. */
  literal: number;
  /** The piece is written at the request itself (its arguments), not in code other requests share. */
  local: boolean;
  /** The environment variable whose default this text is. */
  envVar?: string;
  /**
   * The text is written in another file (a sourced script, an imported module): its `literal` is then
   * an id from text/project.ts, and it is never edited here (that file moves it, or holds it).
   */
  foreign?: { file: string; line: number };
}
export type TPiece = Piece<TextOrigin>;

export function textPiece(text: string, start: number, opts: Partial<TextOrigin> = {}): TPiece {
  return { kind: 'text', text, origin: { start, editable: true, literal: start, local: false, ...opts } };
}

export function holePiece(label: string, start: number, unboundParam = false): TPiece {
  return { kind: 'hole', label, origin: { start, editable: false, literal: start, local: false }, ...(unboundParam ? { unboundParam } : {}) };
}

export function flatText(pieces: readonly TPiece[]): string {
  return pieces.map((p) => (p.kind === 'text' ? p.text : HOLE)).join('');
}

/** `shapeOf`, with a leading hole always read as the base (`${base}/pods` has the path `/pods`). */
export function shapeFor(pieces: readonly TPiece[], bases: Bases): UrlShape {
  const shape = shapeOf(pieces, bases);
  if (shape.base === 'unknown' && shape.baseEnd === 0 && shape.segments[0]?.from === 0 && shape.segments[0].to === 1) {
    return { ...shape, baseEnd: 1, segments: shape.segments.slice(1) };
  }
  return shape;
}

/** A whole v1 URL (a documented path, or the schema) rather than a base that other code appends paths to. */
export function isCompleteUrl(pieces: readonly TPiece[], bases: Bases): boolean {
  return isCompleteShape(shapeFor(pieces, bases));
}

/** Why a literal stays on v1: where the code that holds it is, and whether it is a request that needs a person. */
/** Why a literal stays on v1: where the code that holds it is, what it is, and (a blocked request) why it cannot move. */
type Hold = { where: string; why: 'uncovered' | 'request'; reason?: string };

/** What other files decided about the literals this file shares with them (text/project.ts). */
export interface CrossFileHolds {
  /** This file's literals (offset) that code in other files holds on v1: where that code is, and why. */
  here: ReadonlyMap<number, { where: string; why: 'uncovered' | 'request' }>;
  /** Other files' literals (foreign ids) held in their own file: where (`line 7 of ../lib/common.sh`). */
  there: ReadonlyMap<number, string>;
}

/** The findings and edits of one file. Edits are accepted all-or-nothing per fact and never overlap. */
export class Collector {
  readonly lines: Lines;
  readonly findings: Finding[] = [];
  private readonly edits: Edit[] = [];
  /** Accepted edits by 4 KiB bucket of the text they touch (overlap checks stay local in big files). */
  private readonly buckets = new Map<number, Edit[]>();
  private readonly editKeys = new Set<string>();
  /** Literal offsets that an understood request used: the plain literal pass leaves them alone. */
  readonly consumed = new Set<number>();
  /** The file talks to RunPod REST (a legacy or v2 base URL was seen in a request or value). */
  talksRest = false;
  /** The file sends requests to RunPod REST paths on a base it cannot see (`_url("pods", id)`). */
  looksRest = false;
  /** In-source markers (`v2-migrate-keep-v1`, `v2-migrate-ignore`): marked code is never rewritten. */
  private readonly markers: MarkerIndex;
  /** Literals read by a marked request: they stay as they are, whoever else reads them (as in the JS engine). */
  readonly frozen = new Map<number, number>();
  /** Accepted fixes; `dependent`: right only once its request goes to v2 (fixWith). */
  private readonly applied: Array<{ finding: Finding; edits: readonly Edit[]; request: PlannedRequest | null; dependent?: boolean }> = [];
  /** Every request planned, in order, and the one being planned now. */
  readonly requests: PlannedRequest[] = [];
  private current: PlannedRequest | null = null;
  /** Blocked requests whose URL now spells the v1 base out, with that edit (releaseBlocked). */
  private readonly pins: Array<{ finding: Finding; edits: readonly Edit[]; request: PlannedRequest }> = [];
  /** Findings reported with reportDetail: they never keep a request on v1. */
  private readonly details = new Set<Finding>();
  /** TODO comments written (leaveTodos), with the request each was written for. */
  private readonly todoEdits: Array<{ edits: readonly Edit[]; request: PlannedRequest | null }> = [];
  /**
   * Base literals that must stay on v1 (as in the JS engine, bases move with their paths): some code
   * uses them that this run does not fully migrate. Value: where that use is (`line 7`, or a line of
   * another file), and what it is.
   */
  private readonly holds = new Map<number, Hold>();
  /** Literals written away from the request that reads them (a constant, a variable): the ones a hold applies to. */
  readonly bound = new Set<number>();

  constructor(
    readonly text: string,
    readonly bases: Bases,
    file = '',
    /** Variables this file sets that code elsewhere reads and this run does not migrate (name → where). */
    readonly heldVars: Readonly<Record<string, string>> = {},
    cross: CrossFileHolds | null = null,
    /** The file's markers, when the caller has parsed them already. */
    markers: MarkerIndex = parseMarkers(text, file),
    /**
     * How a TODO is written and where it can go, or null where the file has no place the tool can write
     * one safely: there a request that needs a person stays on v1 with its base, as it is.
     */
    private readonly todos: TodoSyntax | null = null,
  ) {
    this.lines = new Lines(text);
    this.markers = markers;
    for (const [literal, h] of cross?.here ?? []) this.holds.set(literal, h);
    this.external = cross?.there ?? new Map();
  }

  /** Foreign literals held in their own file: where they are. */
  private readonly external: ReadonlyMap<number, string>;

  /**
   * After result(): the literals this file's own code holds on v1, by id (own offsets and foreign
   * ids), with the line here of the code that holds them.
   */
  heldLiterals(): Map<number, Hold> {
    return new Map(this.ownHolds);
  }

  private ownHolds = new Map<number, Hold>();

  /** A marker takes a finding of `ruleId` at offset `at` out of the gate: its code must not be rewritten. */
  marked(at: number, ruleId: RuleId): boolean {
    return isSuppressed(this.markers, this.lines.pos(at).line, ruleId);
  }

  /** A marker naming any rule of a request's findings covers offset `at`: the request there is marked. */
  requestMarked(at: number): boolean {
    return REQUEST_RULES.some((r) => this.marked(at, r));
  }

  reportDetail(ruleId: RuleId, at: number, message: string): void {
    this.report(ruleId, at, message);
    const f = this.findings[this.findings.length - 1];
    if (f) this.details.add(f);
  }

  /** The findings a request's planning must not count as reasons to keep it on v1 (reportDetail). */
  private blocking(findings: readonly Finding[]): string | null {
    return blockingFinding(findings.filter((f) => !this.details.has(f)));
  }

  report(ruleId: RuleId, at: number, message: string, fixable = false): void {
    const f: Finding = { ruleId, severity: RULES[ruleId].severity, ...this.lines.pos(at), message, fixable };
    this.findings.push(f);
    this.current?.findings.push(f);
  }

  /** Start and end planning one request (its findings and fixes are attributed to it). */
  beginRequest(at: number, value = false): PlannedRequest {
    const req: PlannedRequest = { at, line: this.lines.pos(at).line, literals: new Set(), findings: [], migrated: true, value };
    this.requests.push(req);
    this.current = req;
    return req;
  }

  endRequest(req: PlannedRequest): void {
    const blocked = req.onV2 ? null : this.blocking(req.findings);
    if (blocked) req.blocked = blocked;
    // Without a TODO to carry what a person must do, a request left unfinished keeps its base, as it is.
    req.migrated = this.todos === null ? !req.findings.some((f) => !f.fixable && URL_RULES.has(f.ruleId)) : !blocked;
    this.current = null;
  }

  /** Whether unfinished requests move to v2 with a TODO in this file (else they keep their base). */
  get writesTodos(): boolean {
    return this.todos !== null;
  }

  /** Code this run does not migrate uses the base literal at `literal` (the use is on `line`, or `where`): it stays v1. */
  hold(literal: number, line: number | string): void {
    if (!this.holds.has(literal)) this.holds.set(literal, { where: typeof line === 'number' ? `line ${line}` : line, why: 'uncovered' });
  }

  private near(e: Edit): Edit[] {
    const out: Edit[] = [];
    for (let b = Math.floor(e.start / 4096) - 1; b <= Math.floor(e.end / 4096) + 1; b++) out.push(...(this.buckets.get(b) ?? []));
    return out;
  }

  /** Accept `edits` if none conflicts with an accepted edit (identical edits are merged). */
  tryEdits(edits: readonly Edit[]): boolean {
    const key = (e: Edit): string => `${e.start}:${e.end}:${e.text}`;
    const fresh = edits.filter((e, i) => !this.editKeys.has(key(e)) && edits.findIndex((x) => key(x) === key(e)) === i);
    for (let i = 0; i < fresh.length; i++) {
      const e = fresh[i]!;
      if (this.near(e).some((a) => overlaps(a, e))) return false;
      if (fresh.slice(0, i).some((b) => overlaps(b, e))) return false;
    }
    for (const e of fresh) {
      this.editKeys.add(key(e));
      this.edits.push(e);
      for (let b = Math.floor(e.start / 4096); b <= Math.floor(e.end / 4096); b++) pushTo(this.buckets, b, e);
    }
    return true;
  }

  /** Report a fact whose fix is `edits`; when they cannot be applied, the finding says so and is not fixable. */
  fix(ruleId: RuleId, at: number, message: string, edits: readonly Edit[]): boolean {
    if (this.marked(at, ruleId)) {
      this.report(ruleId, at, message, false);
      return false;
    }
    if (this.tryEdits(edits)) {
      this.report(ruleId, at, message, true);
      this.applied.push({ finding: this.findings[this.findings.length - 1]!, edits, request: this.current });
      return true;
    }
    this.report(ruleId, at, `${message} Not rewritten: it overlaps another change in this file; migrate it by hand.`, false);
    return false;
  }

  /**
   * Fix a fact of a planned request that is right only once the request goes to v2 (a read of its list
   * response): made only when its URL moves in this run, and taken back with it (a held base, a marker).
   * `edits` carry the request's first literal, so a marker that freezes that literal takes them back too.
   */
  fixWith(req: PlannedRequest, ruleId: RuleId, at: number, message: string, edits: readonly Edit[]): boolean {
    const loud = (f: Finding): boolean => f.fixable || (f.ruleId !== 'base-url' && (this.writesTodos || !URL_RULES.has(f.ruleId)));
    const moves = req.migrated && !this.requestMarked(req.at) && movesHere(req) && req.findings.every(loud);
    if (!moves) return false;
    const literal = req.literals.values().next().value;
    const previous = this.current;
    this.current = req;
    const done = this.fix(ruleId, at, message, edits.map((e) => ({ ...e, literal })));
    const last = this.applied[this.applied.length - 1];
    if (done && last) last.dependent = true;
    this.current = previous;
    return done;
  }

  /** Findings made elsewhere (a JS fence, by the JS engine) whose fixable ones `edits`, already accepted, make together. */
  adopt(findings: readonly Finding[], edits: readonly Edit[]): void {
    for (const f of findings) {
      this.findings.push(f);
      if (f.fixable) this.applied.push({ finding: f, edits, request: null });
    }
  }

  /** Report another fact fixed by the edits of the last accepted fix (it stands or falls with them). */
  alsoFixed(ruleId: RuleId, at: number, message: string): void {
    const last = this.applied[this.applied.length - 1];
    this.report(ruleId, at, message, !!last);
    if (last) this.applied.push({ finding: this.findings[this.findings.length - 1]!, edits: last.edits, request: this.current });
  }

  /** Held literals and stuck requests, from this file's holds and the foreign literals held in their own file. */
  private propagate(external: ReadonlyMap<number, string>): { holds: Map<number, Hold>; stuck: Map<PlannedRequest, string>; migrated: Map<PlannedRequest, boolean> } {
    const holds = new Map(this.holds);
    const migrated = new Map(this.requests.map((r) => [r, r.migrated]));
    const stuck = new Map<PlannedRequest, string>();
    for (let changed = true; changed; ) {
      changed = false;
      for (const req of this.requests) {
        if (migrated.get(req)) continue;
        for (const lit of req.literals) {
          if (this.bound.has(lit) && !holds.has(lit)) {
            holds.set(lit, { where: `line ${req.line}`, why: 'request', ...(req.blocked ? { reason: req.blocked } : {}) });
            changed = true;
          }
        }
      }
      for (const req of this.requests) {
        if (!migrated.get(req)) continue;
        const held = [...req.literals].find((l) => holds.has(l) || external.has(l));
        if (held === undefined) continue;
        migrated.set(req, false);
        stuck.set(req, external.get(held) ?? `line ${this.lines.pos(held).line}`);
        changed = true;
      }
    }
    return { holds, stuck, migrated };
  }

  /**
   * A blocked request stays on v1 as it is written: the fixes of its own text (the literals written at it)
   * are taken back. What it shares with other requests is held by holdBases, unless the request was
   * pinned to the v1 base (it then no longer reads it).
   */
  private releaseBlocked(): void {
    const key = (e: Edit): string => `${e.start}:${e.end}:${e.text}`;
    const dropped = new Set<string>();
    for (const a of this.applied) {
      const why = a.request?.blocked;
      // A marked request's code is taken back by unfreeze, which names the marker.
      if (!why || why === MARKED_REASON || !a.finding.fixable) continue;
      if (!a.dependent && a.edits.some((e) => e.literal !== undefined && this.bound.has(e.literal))) continue;
      a.finding.fixable = false;
      a.finding.message += ` Not rewritten: this request cannot move to v2 as it is (${why}).`;
      for (const e of a.edits) dropped.add(key(e));
    }
    if (!dropped.size) return;
    const keep = this.edits.filter((e) => !dropped.has(key(e)));
    this.edits.length = 0;
    this.edits.push(...keep);
  }

  /**
   * A blocked request that reads a base other requests share keeps a v1 URL of its own (`pin`: the site's
   * edits that spell the base out at the request), so that the shared base moves without it.
   */
  pinToV1(req: PlannedRequest, pin: () => Parts<Edit>): void {
    const shared = [...req.literals].filter((l) => this.bound.has(l));
    if (!req.blocked || !shared.length || this.requestMarked(req.at)) return;
    const edits = pin();
    if (typeof edits === 'string' || !this.tryEdits(edits)) return;
    for (const l of shared) req.literals.delete(l);
    this.report(
      'base-url',
      req.at,
      `This request stays on REST v1: it cannot move to v2 as it is (${req.blocked}). Its URL now spells out the v1 base, so the base it shared moves to v2 without it; settle it, then point it at the v2 base.`,
      true,
    );
    // Its fix is the pin (--rule and ESLint make it as one); made after the holds, it is none of theirs.
    const pinned = this.findings[this.findings.length - 1];
    if (pinned) this.pins.push({ finding: pinned, edits, request: req });
  }

  /**
   * Every request that moves to v2 unfinished (v2 refuses what is left: a v1-only path, a v1 body field)
   * gets, for each finding that needs a person, a `# TODO(v2-migrate <rule>): …` line above its statement,
   * so lint still reports it, under its rule, once the code is written (rules/todo-comments.ts).
   */
  private leaveTodos(owners: ReadonlyMap<Finding, PlannedRequest>): void {
    const syntax = this.todos;
    if (syntax === null) return;
    const movers = new Set(this.requests.filter((r) => !r.value && !r.onV2 && r.migrated && !r.blocked && !this.requestMarked(r.at) && movesHere(r)));
    if (!movers.size) return;
    const wanted: Array<{ from: number; todo: string; req: PlannedRequest }> = [];
    for (const f of this.findings) {
      if (!needsTodo(f) || READS.has(f.ruleId)) continue;
      const req = owners.get(f);
      if (!req || !movers.has(req)) continue;
      wanted.push({ from: this.lines.lineStart(f.line), todo: `${syntax.comment} TODO(v2-migrate ${f.ruleId}): ${todoText(f.message)}`, req });
    }
    if (!wanted.length) return;
    const places = syntax.place(this.text, wanted.map((w) => w.from));
    const byPlace = new Map<number, { todos: string[]; req: PlannedRequest }>();
    for (const w of wanted) {
      const at = places.get(w.from) ?? w.from;
      const place = byPlace.get(at) ?? { todos: [], req: w.req };
      if (!place.todos.includes(w.todo)) place.todos.push(w.todo);
      byPlace.set(at, place);
    }
    for (const [at, { todos, req }] of byPlace) {
      const blanks = /[ \t]*/y;
      blanks.lastIndex = at;
      const indent = blanks.exec(this.text)?.[0] ?? '';
      const edit = { start: at, end: at, text: todos.map((t) => `${indent}${t}\n`).join('') };
      this.edits.push(edit);
      // A TODO goes with the fix of its request (fixOwners).
      this.todoEdits.push({ edits: [edit], request: req });
    }
  }

  /** The request each finding belongs to: the one it was reported for, else the last request sent at or before its line (a body or a read reported after it). */
  private owners(): Map<Finding, PlannedRequest> {
    const out = new Map<Finding, PlannedRequest>();
    for (const r of this.requests) for (const f of r.findings) out.set(f, r);
    const sent = this.requests.filter((r) => !r.value).sort((a, b) => a.line - b.line);
    for (const f of this.findings) {
      if (out.has(f) || !sent.length) continue;
      const last = sent[lastStartingBy(sent.length, (i) => sent[i]?.line ?? 0, f.line)];
      if (last && last.line <= f.line) out.set(f, last);
    }
    return out;
  }

  /**
   * Which requests stay on v1: those a finding blocks (plan/policy.ts), their body's and their reads'
   * findings included. A blocked request that shares its base with others is pinned to the v1 base.
   */
  private settleRequests(owners: ReadonlyMap<Finding, PlannedRequest>): void {
    if (!this.writesTodos) return;
    // Reads and query parameters checked after the request was planned are its own; other findings
    // near it (a path a helper builds) are not, and never block it.
    const byRequest = new Map<PlannedRequest, Finding[]>();
    const own = new Set(this.requests.flatMap((r) => r.findings));
    for (const [f, r] of owners) if (own.has(f) || LATER_FINDINGS.has(f.ruleId)) pushTo(byRequest, r, f);
    for (const req of this.requests) {
      if (req.value || req.onV2) continue;
      if (this.requestMarked(req.at)) {
        req.blocked = MARKED_REASON;
        req.migrated = false;
        continue;
      }
      const blocked = this.blocking(byRequest.get(req) ?? []);
      if (!blocked) continue;
      req.blocked = blocked;
      req.migrated = false;
      if (req.pin) this.pinToV1(req, req.pin);
    }
  }

  /** Take back every applied fix that touches a frozen literal (and, with it, fixes sharing its edits). */
  private unfreeze(): void {
    if (!this.frozen.size) return;
    const key = (e: Edit): string => `${e.start}:${e.end}:${e.text}`;
    const dropped = new Map<string, number>();
    for (let changed = true; changed; ) {
      changed = false;
      for (const a of this.applied) {
        if (!a.finding.fixable) continue;
        const hit = a.edits.map((e) => (e.literal !== undefined ? this.frozen.get(e.literal) : undefined) ?? dropped.get(key(e))).find((x) => x !== undefined);
        if (hit === undefined) continue;
        a.finding.fixable = false;
        a.finding.message += ` Not rewritten: the request marked on line ${hit} reads the same code.`;
        for (const e of a.edits) dropped.set(key(e), hit);
        changed = true;
      }
    }
    const keep = this.edits.filter((e) => !dropped.has(key(e)));
    this.edits.length = 0;
    this.edits.push(...keep);
  }

  /**
   * Bases move with their paths: a base literal read by a request that still needs a person, or by code
   * the engine cannot follow, stays v1, and so do the paths of every request that reads it.
   */
  private holdBases(): void {
    this.releaseBlocked();
    // What this file's own code holds, whatever other files hold: that is what it tells them (a request
    // stuck only because another file keeps its base must not keep that base held in turn).
    this.ownHolds = this.propagate(new Map()).holds;
    const { holds, stuck, migrated } = this.propagate(this.external);
    for (const [lit, h] of holds) this.holds.set(lit, h);
    for (const req of this.requests) req.migrated = migrated.get(req)!;
    if (!this.holds.size && !stuck.size) return;
    const key = (e: Edit): string => `${e.start}:${e.end}:${e.text}`;
    const dropped = new Set<string>();
    for (const a of this.applied) {
      if (!a.finding.fixable) continue;
      const heldLit = a.edits.map((e) => e.literal).find((l) => l !== undefined && this.holds.has(l));
      const h = heldLit !== undefined ? this.holds.get(heldLit)! : undefined;
      // A literal held only because its own request is stuck behind a base: say what holds the base.
      const stuckHere = !!a.request && stuck.has(a.request) && (!h || (h.why === 'request' && h.where === `line ${a.request.line}`));
      if (stuckHere) {
        a.finding.message += ` Not rewritten: its base URL (${stuck.get(a.request!)}) cannot move yet, and the path must move with it.`;
      } else if (h) {
        a.finding.message +=
          h.why === 'uncovered'
            ? ` Not rewritten: this base is also used by code v2-migrate cannot follow (${h.where}); moving it alone would send that code's v1 paths to the v2 host. Migrate that code, then run again.`
            : h.reason
              ? ` Not rewritten: the request on ${h.where} cannot move to v2 as it is (${h.reason}); the base and every request on it move together. Settle that request, then run again.`
              : ` Not rewritten: the request on ${h.where} still needs a person, and moving the base alone would send its v1 path to the v2 host; migrate it, then run again.`;
      } else continue;
      a.finding.fixable = false;
      for (const e of a.edits) dropped.add(key(e));
    }
    const keep = this.edits.filter((e) => !dropped.has(key(e)));
    this.edits.length = 0;
    this.edits.push(...keep);
    // Every request left on v1 by a held base says so where it is sent, also when only its base changes.
    this.current = null;
    for (const [req, where] of stuck) {
      if (req.value || this.requestMarked(req.at) || this.findings.some((f) => f.line === req.line)) continue;
      this.report('base-url', req.at, `This request still goes to REST v1: its base URL (${where}) cannot move yet (see the finding there); it moves with the base.`);
    }
  }

  /** The facts fixed, with the edits made for them: a request's facts go together (its base moves only with its path). */
  private fixOwners(): Array<{ findings: Finding[]; edits: Edit[] }> {
    const made = new Set(this.edits.map(editKey));
    const byRequest = new Map<PlannedRequest, { findings: Finding[]; edits: Edit[] }>();
    const owners: Array<{ findings: Finding[]; edits: Edit[] }> = [];
    for (const a of [...this.applied, ...this.pins]) {
      const edits = a.edits.filter((e) => made.has(editKey(e)));
      const known = a.request ? byRequest.get(a.request) : undefined;
      if (known) {
        known.findings.push(a.finding);
        known.edits.push(...edits);
        continue;
      }
      const owner = { findings: [a.finding], edits };
      owners.push(owner);
      if (a.request) byRequest.set(a.request, owner);
    }
    for (const todo of this.todoEdits) {
      const at = todo.edits[0]?.start ?? 0;
      const distance = (o: { edits: Edit[] }): number => Math.min(...o.edits.map((e) => Math.abs(e.start - at)));
      const owner = (todo.request ? byRequest.get(todo.request) : undefined) ?? [...owners].sort((a, b) => distance(a) - distance(b))[0];
      if (owner) owner.edits.push(...todo.edits);
      else owners.push({ findings: [], edits: [...todo.edits] });
    }
    return owners;
  }

  result(): { findings: Finding[]; output: string | null } {
    // Only files that get TODOs need each finding's request.
    const owners = this.writesTodos ? this.owners() : new Map<Finding, PlannedRequest>();
    this.settleRequests(owners);
    this.holdBases();
    this.unfreeze();
    this.leaveTodos(owners);
    const seen = new Set<string>();
    const findings: Finding[] = [];
    // One base literal reached by several requests: keep the fullest base message (the one naming its env var).
    const longest = new Map<string, number>();
    for (const f of this.findings) {
      if (f.ruleId !== 'base-url') continue;
      const k = `${f.line}|${f.column}|${f.fixable}`;
      longest.set(k, Math.max(longest.get(k) ?? 0, f.message.length));
    }
    for (const f of this.findings) {
      if (f.ruleId === 'base-url' && f.message.length < longest.get(`${f.line}|${f.column}|${f.fixable}`)!) continue;
      const key = `${f.ruleId}|${f.line}|${f.column}|${f.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push(f);
    }
    // A fact found both fixable and not (two requests over one literal) is reported once, as not fixable.
    const unfixed = new Map<string, Finding[]>();
    for (const f of findings) if (!f.fixable) pushTo(unfixed, `${f.ruleId}|${f.line}|${f.column}`, f);
    const out = findings.filter((f) => !(f.fixable && (unfixed.get(`${f.ruleId}|${f.line}|${f.column}`) ?? []).some((g) => g.message.startsWith(f.message))));
    out.sort((a, b) => a.line - b.line || a.column - b.column || a.ruleId.localeCompare(b.ruleId) || a.message.localeCompare(b.message));
    attachFixes(this.fixOwners());
    const output = this.edits.length ? applyEdits(this.text, this.edits) : null;
    return { findings: out, output: output === this.text ? null : output };
  }
}

const editKey = (e: Edit): string => `${e.start}:${e.end}:${e.text}`;

/**
 * A request whose URL this run moves: this file rewrites part of it, or it reads a base another file
 * moves (a foreign literal id, < 0; if that file holds it after all, the request is stuck and its
 * fixes are taken back, holdBases).
 */
const movesHere = (r: PlannedRequest): boolean => r.findings.some((f) => f.fixable) || [...r.literals].some((l) => l < 0);

/** One request as planned: what it read and whether its URL is fully migrated by this run. */
export interface PlannedRequest {
  /** Where it is (offset) and its line. */
  at: number;
  line: number;
  /** A URL value rather than a request seen being sent (a setting, a documented URL). */
  value: boolean;
  /** Literals (by offset) its URL was built from. */
  literals: Set<number>;
  findings: Finding[];
  /** Moves to v2 in this run (with TODOs for what a person must still do), or stays on v1. */
  migrated: boolean;
  /** Why it must stay on v1 (plan/policy.ts blockingFinding): v2 would answer it with another meaning. */
  blocked?: string;
  /** Already sent to the v2 base. */
  onV2?: boolean;
  /** The site's writer that spells its shared base out at the request (RequestSite.pinV1Base). */
  pin?: () => Parts<Edit>;
}


/** File edits for piece edits, or null when a piece is not editable (or, with `local`, not written at the request). */
export function toEdits(pieces: readonly TPiece[], change: UrlChange, local = false): Edit[] | null {
  const out: Edit[] = [];
  for (const e of change.edits) {
    const p = pieces[e.piece];
    if (!p || p.kind !== 'text' || !p.origin.editable) return null;
    if (local && !p.origin.local) return null;
    out.push({ start: p.origin.start + e.start, end: p.origin.start + e.end, text: e.text, literal: p.origin.literal });
  }
  return out;
}

function pieceOf(pieces: readonly TPiece[], change: UrlChange): TPiece | undefined {
  return pieces[change.edits[0]?.piece ?? -1];
}

/**
 * Apply base (and schema) changes, each its own fix at its literal (`at` where it has none); one that
 * cannot be written here says why. `note`: a sentence added to each message.
 */
function applyBase(c: Collector, pieces: readonly TPiece[], shape: UrlShape, changes: readonly UrlChange[], { reason = 'the URL is not written as plain text here; change it by hand', note = '', at: fallback = 0 }: { reason?: string | undefined; note?: string; at?: number } = {}): void {
  for (const ch of changes) {
    const piece = pieceOf(pieces, ch);
    // A base written in another file is that file's to move (or hold): reported there.
    if (piece?.origin.foreign) continue;
    const at = piece?.origin.literal ?? fallback;
    const message = baseChangeMessage(ch, shape.matchedBase, c.bases.target, piece?.origin.envVar) + note;
    const edits = toEdits(pieces, ch);
    if (!edits) c.report(ch.ruleId, at, `${message} Not rewritten: ${reason}.`);
    else c.fix(ch.ruleId, at, message, edits);
  }
}

export interface ValueOptions {
  /** Where findings go (default: the literal of the first text piece). */
  anchor?: number;
  /** A sentence added to the base-url message (an OpenAPI document: regenerate it). */
  baseNote?: string;
  /**
   * The offsets the value is written in. A URL inside a longer text is only this value's business if
   * its text is written there (not just read from a variable that is planned where it is assigned).
   */
  own?: readonly [number, number];
}

/**
 * A v1 URL written as a value no understood request uses (a constant, a config entry, a Dockerfile
 * ENV): rewrite what holds whatever the request is (base and path renames), report what depends on
 * the request (actions, /update, reset) and URLs inside longer text.
 */
export function planValue(c: Collector, pieces: readonly TPiece[], opts: ValueOptions = {}): void {
  const flat = flatText(pieces);
  const hit = c.bases.legacy.find((b) => flat.includes(b));
  if (!hit) return;
  const firstText = pieces.find((p) => p.kind === 'text');
  const anchor = opts.anchor ?? firstText?.origin.literal ?? 0;
  // The value is a use of what it reads from elsewhere (a variable holding the base): it moves with that
  // base only if every fact here is rewritten (as a request would).
  const own = opts.own ?? [anchor, lineEndAt(c.text, anchor)];
  const req = c.beginRequest(anchor, true);
  // A URL inside a longer text (a message, a command) is not a use of the base it mentions through a variable.
  const shape0 = shapeFor(pieces, c.bases);
  const embedded = shape0.base !== 'legacy' || /\s/.test(flat.slice(shape0.baseEnd));
  for (const p of pieces) {
    if (p.kind !== 'text') continue;
    if (embedded && (p.origin.start < own[0] || p.origin.start >= own[1])) continue;
    req.literals.add(p.origin.literal);
    if (p.origin.start < own[0] || p.origin.start >= own[1]) c.bound.add(p.origin.literal);
  }
  planValueInner(c, pieces, opts, { flat, hit, anchor });
  c.endRequest(req);
  req.migrated = req.findings.every((f) => f.fixable);
}

function planValueInner(c: Collector, pieces: readonly TPiece[], opts: ValueOptions, v: { flat: string; hit: string; anchor: number }): void {
  const { flat, hit, anchor } = v;
  const shape = shapeFor(pieces, c.bases);
  if (shape.base !== 'legacy' || /\s/.test(flat.slice(shape.baseEnd))) {
    const own = opts.own;
    planEmbedded(c, own ? pieces.filter((p) => p.origin.start >= own[0] && p.origin.start < own[1]) : pieces, anchor, hit);
    return;
  }
  c.talksRest = true;
  const template = templateOf(shape);
  const rewrite = (withPath: boolean): void => {
    const changes = planUrlChanges(shape, withPath ? template : undefined, c.bases);
    if (!changes) {
      c.report('unresolved-url', anchor, notInPlaceMessage(displayPath(shape)));
      return;
    }
    const base = changes.filter((ch) => isBaseRule(ch.ruleId));
    applyBase(c, pieces, shape, base, { note: opts.baseNote ? ` ${opts.baseNote}` : '', at: anchor });
    for (const ch of changes.filter((x) => !base.includes(x))) {
      const edits = toEdits(pieces, ch);
      const message = valueChangeMessage(template!, ch, 'text');
      if (!edits) c.report(ch.ruleId, anchor, `${message} Not rewritten: the path is not written as plain text here; change it by hand.`);
      else c.fix(ch.ruleId, anchor, message, edits);
    }
  };
  const d = decideValue(shape, template, isSchemaUrl(shape), 'text');
  switch (d.kind) {
    case 'rewrite':
      return rewrite(d.withPath);
    case 'report':
      return c.report(d.ruleId, anchor, d.message);
    default: {
      const unknown: never = d;
      return unknown;
    }
  }
}

/**
 * A v1 URL inside a longer text (a command in a string, a message): reported. The schema URL alone is
 * rewritten even there: its v2 form does not depend on any request.
 */
export function planEmbedded(c: Collector, pieces: readonly TPiece[], anchor: number, hit: string): void {
  // Once per line: a URL on a later line of a multi-line text is reported where it is written.
  const reported = new Set<number>();
  for (const p of pieces) {
    if (p.kind !== 'text') continue;
    for (const legacy of c.bases.legacy) {
      const schema = `${legacy}/openapi.json`;
      for (let i = p.text.indexOf(legacy); i >= 0; i = p.text.indexOf(legacy, i + legacy.length)) {
        const isSchema = p.text.startsWith(schema, i) && !/[\w\-./?#%]/.test(p.text.charAt(i + schema.length));
        if (isSchema && p.origin.editable) {
          c.fix('openapi-url', p.origin.start + i, schemaMessage(c.bases.target), [{ start: p.origin.start + i, end: p.origin.start + i + schema.length, text: `${c.bases.target}/openapi.json` }]);
          continue;
        }
        const own = p.origin.editable ? p.origin.start + i : anchor;
        const line = c.lines.pos(own).line;
        if (reported.has(line)) continue;
        reported.add(line);
        const at = line === c.lines.pos(anchor).line ? anchor : own;
        c.report('embedded-url', at, embeddedMessage(hit));
      }
    }
  }
}

/** How a request can be given a JSON body or a new method: edits, or the reason it cannot. */
export type EditsOrReason = Parts<Edit>;

/**
 * One HTTP request found in a file (the call-site record of plan/site.ts): its URL, and what the
 * engine knows about its method and body.
 */
export interface RequestSite extends CallSite<TextOrigin, HttpMethod | undefined> {
  /** Where findings about the request go (the call, the `curl` word, the request line). */
  anchor: number;
  /** The method, when the request shows it; undefined when it is not knowable here. */
  method: HttpMethod | undefined;
  /** Turn the request's method into `to` (update alias): edits or the reason it cannot be done. */
  setMethod?: MethodWriter<Edit>;
  /** Give the request this JSON body (pod actions): edits or the reason it cannot be done. */
  setJsonBody?: JsonBodyWriter<Edit>;
  /** Why the request's body cannot be given, when `setJsonBody` is absent. */
  bodyReason?: string;
  /** Why the URL cannot be edited where it is not plain text (default: it is not written as plain text). */
  pathReason?: string;
  /** Query parameters the request sends besides its URL's query string (a params dict, `curl -G -d`). */
  query?: readonly QueryParam[];
  /**
   * Spell the URL's shared base out at the request (`"$API/pods?x=1"` → `"https://rest.runpod.io/v1/pods?x=1"`),
   * for a blocked request that must stay on v1 while the base it shares moves: edits or the reason it cannot.
   */
  pinV1Base?: () => EditsOrReason;
  /** Move ignored v1 list filters to the client (else the request is blocked on v1). */
  filterList?: ListFilterWriter<Edit>;
}

export interface RequestOutcome extends FlowOutcome {
  /** The request as planned: a fix that depends on its URL moving to v2 is made with `Collector.fixWith`. */
  request: PlannedRequest;
}

/** Plan one request; returns what it turned out to be, for the engine's body and response checks. */
export function planRequest(c: Collector, site: RequestSite): RequestOutcome {
  // A path that is one of a few known values (`case` branches: `pod) path=/pods ;; volume) path=/networkvolumes`):
  // one request per value, each planned (and its value rewritten where it is written) as if sent alone.
  const choice = site.url.findIndex((p, i) => i > 0 && p.kind === 'hole' && !!p.either?.length);
  const hole = choice > 0 ? site.url[choice] : undefined;
  const alternatives = hole?.kind === 'hole' ? hole.either : undefined;
  if (alternatives) {
    const outcomes = alternatives.map((alt) => planRequest(c, { ...site, url: [...site.url.slice(0, choice), ...alt, ...site.url.slice(choice + 1)] }));
    return outcomes.find((o) => o.op) ?? outcomes[0] ?? planOne(c, site);
  }
  return planOne(c, site);
}

function planOne(c: Collector, site: RequestSite): RequestOutcome {
  const req = c.beginRequest(site.anchor);
  for (const p of site.url) {
    if (p.kind !== 'text') continue;
    req.literals.add(p.origin.literal);
    // Written away from the request (a constant, a variable, a default): other code may read it too.
    if (!p.origin.local) c.bound.add(p.origin.literal);
  }
  const outcome: RequestOutcome = { ...planRequestUrl(c, site), request: req };
  if (outcome.to === 'v2') req.onV2 = true;
  // v1 query parameters (`?computeType=GPU`, `params={…}`, `curl -G -d …`): part of the request, so a
  // renamed billing parameter moves with its path (or stays with it).
  if (outcome.op && (outcome.shape.base === 'legacy' || outcome.shape.base === 'target')) {
    planQueryParams(c, req, outcome.op, site, [...queryParams(site.url), ...(site.query ?? [])]);
  }
  c.endRequest(req);
  if (site.pinV1Base && outcome.shape.base === 'legacy') req.pin = site.pinV1Base;
  return outcome;
}

/**
 * A base that is one of several known values (`V1_BASE if USE_V1 else V2_BASE`), each the v2 base or a
 * v1 base marked to stay: the request is v2 with a kept v1 fallback, nothing to report here (the v1 side
 * is reported, and kept, where it is written).
 */
function keptOrV2(c: Collector, base: TPiece | undefined): boolean {
  if (base?.kind !== 'hole' || !base.either) return false;
  return base.either.every((alt) => {
    const flat = flatText(alt);
    if (flat.startsWith(c.bases.target)) return true;
    const texts = alt.filter((p) => p.kind === 'text');
    return c.bases.legacy.some((b) => flat.startsWith(b)) && texts.length > 0 && texts.every((p) => c.marked(p.origin.literal, 'base-url'));
  });
}

/** Findings about a request that its engine makes after planning it (its list reads, its query). */
const LATER_FINDINGS: ReadonlySet<string> = new Set(['list-envelope', 'billing-records', 'query-filter']);

/** Rules a request's findings use: a marker naming any of them on the request's line freezes the request. */
const REQUEST_RULES: readonly RuleId[] = ['base-url', 'openapi-url', 'resource-path', 'pod-action', 'update-alias', 'path-param', 'pod-reset', 'unknown-path', 'unresolved-url'];

function planRequestUrl(c: Collector, site: RequestSite): FlowOutcome {
  const pieces = site.url;
  for (const p of pieces) if (p.kind === 'text') c.consumed.add(p.origin.literal);
  // A marked request is not rewritten at all, and the literals it reads stay as they are.
  if (c.requestMarked(site.anchor)) for (const p of pieces) if (p.kind === 'text') c.frozen.set(p.origin.literal, c.lines.pos(site.anchor).line);
  const outcome = planRequestFlow({ url: pieces, shape: shapeFor(pieces, c.bases), method: site.method }, requestSink(c, site));
  if (outcome.to === 'unknown-base') c.looksRest = true;
  if (outcome.to === 'v1' || outcome.to === 'v2') c.talksRest = true;
  return outcome;
}

/** How the request flow (plan/flow.ts) writes a request's edits and findings in this file: splices, through the Collector. */
function requestSink(c: Collector, site: RequestSite): RequestSink<Edit> {
  const { anchor: at, url: pieces } = site;
  return {
    engine: 'text',
    bases: c.bases,
    report: (ruleId, message) => c.report(ruleId, at, message),
    fix: (ruleId, message, edits) => c.fix(ruleId, at, message, edits),
    // A URL change written at the request itself goes all or nothing with its method or body.
    path: (change, atRequest) =>
      toEdits(pieces, change, atRequest) ?? site.pathReason ?? (atRequest ? 'the path is not written at the request as plain text' : 'the path is not written as plain text here; change it by hand'),
    method: (to) => (site.setMethod ? site.setMethod(to) : 'the request method is not visible here'),
    jsonBody: (body) => (site.setJsonBody ? site.setJsonBody(body) : (site.bodyReason ?? 'the request body is not visible here')),
    moveBase: (shape, base, path) => {
      // Base edits go to the base's own literal; a literal that also holds an action path moves only with it.
      const pathLiterals = new Set(path.flatMap((ch) => ch.edits.map((e) => pieces[e.piece]?.origin.literal)));
      return (rewritten) => {
        const moves = rewritten || c.writesTodos;
        applyBase(c, pieces, shape, moves ? base : base.filter((ch) => !pathLiterals.has(pieceOf(pieces, ch)?.origin.literal ?? -1)), { reason: site.pathReason });
      };
    },
    alsoFixed: (ruleId, message) => c.alsoFixed(ruleId, at, message),
    keptOrV2Base: () => keptOrV2(c, pieces[0]),
  };
}

/** The sentence an OpenAPI document's v1 server gets: the whole document must be regenerated. */
export const REGENERATE_NOTE = `This is a REST v1 OpenAPI document: regenerate it from the v2 spec (${V2_OPENAPI_URL}) rather than editing its paths and schemas by hand.`;
