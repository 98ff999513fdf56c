/**
 * The one request flow both engines run (issue 25): the ordered steps that decide a request's URL and
 * edit it — a base the tool cannot see, a request already on v2, the URL's changes, a path no operation
 * matches, then the operation's decision (path steps, a reset, an action body, an update's method) and
 * the base — each all-or-nothing group committed with its reason in the finding. An engine supplies a
 * RequestSink (how its edits are written, where its findings go) and decides nothing itself.
 */
import { V1_RESOURCES, type PathTemplate } from '../map/match.js';
import type { HttpMethod, V1Operation } from '../map/operations.js';
import { isV2Path, operationForV2 } from '../map/v2match.js';
import type { Piece } from '../url/pieces.js';
import { isSchemaUrl, planUrlChanges, templateOf, type UrlChange } from '../url/plan.js';
import { displayPath, type Bases, type UrlShape } from '../url/shape.js';
import type { RuleId } from '../rules/registry.js';
import { decideOnV2, decideOperation, decideUnmatched, type Engine, type OperationDecision, type PathStep } from './decide.js';
import { unassembledMessage, unknownBaseMessage } from './messages.js';
import { isBaseRule } from './policy.js';
import { reasonAmong, type EditsOrReason, type JsonBodyWriter, type MethodWriter } from './site.js';

/** The request the flow plans: its URL (pieces, and their shape as the engine reads it) and its method. */
interface FlowRequest<Origin> {
  url: readonly Piece<Origin>[];
  shape: UrlShape;
  /** Undefined when the request does not show it. */
  method: HttpMethod | undefined;
  /** The path comes from a wrapper declared in the config (no visible base; its v2 paths are v2 code). */
  declared?: boolean;
}

/** Where the request goes, as the flow found it. */
type Destination =
  /** A RunPod REST v1 base (or a v1 path on the v2 base): planned as a v1 request. */
  | 'v1'
  /** REST v2 already: only what v2 would still refuse was reported. */
  | 'v2'
  /** A v1 resource path on a base the tool cannot see: reported. */
  | 'unknown-base'
  /** Anything else (another host, a relative URL): nothing to do. */
  | 'other';

export interface FlowOutcome {
  /** The URL's shape (a declared wrapper's v2 path reads as on the v2 base). */
  shape: UrlShape;
  template?: PathTemplate;
  /** The v1 operation (for a request on v2: the one it corresponds to), for the engine's body and response checks. */
  op?: V1Operation;
  to: Destination;
}

/** How an engine carries out the flow's steps for one request. */
export interface RequestSink<Edit> {
  engine: Engine;
  bases: Bases;
  /** Report a finding at the request that no edit makes. */
  report(ruleId: RuleId, message: string): void;
  /** Report a fact at the request and make `edits` its fix; false when they cannot be made (the finding then says so). */
  fix(ruleId: RuleId, message: string, edits: readonly Edit[]): boolean;
  /**
   * A path change's edits (`atRequest`: written at the request itself, in a group with the method or body),
   * or why they cannot be made; null: the URL cannot be edited in place (a lone path step then says nothing).
   */
  path(change: UrlChange, atRequest: boolean): EditsOrReason<Edit> | null;
  method: MethodWriter<Edit>;
  jsonBody: JsonBodyWriter<Edit>;
  /**
   * Base and schema changes, handed over as soon as the URL's changes are known; returns the step that
   * places them once the flow knows whether the request's own edits were made (`rewritten`). The text
   * engine waits for it (a base literal that also holds the path stays with it); the JS engine moves the
   * base at once (its pipeline settles a base shared between requests).
   */
  moveBase(shape: UrlShape, base: readonly UrlChange[], path: readonly UrlChange[]): (rewritten: boolean) => void;
  /** JS only: a reset's TODO is written with its plan (the text engine writes TODOs once the file's requests are settled). */
  writeTodo?(ruleId: RuleId, todo: string): void;
  /** JS only: openapi-fetch names path parameters outside the URL (`params.path`); they follow the template's {id}. */
  pathParams?(template: PathTemplate): Edit[];
  /** JS only: what an action's finding adds (fetch's Content-Type it cannot see), and what runs after the action is planned (it adds the header when the action was committed). */
  actionNote?: string;
  afterAction?(): void;
  /**
   * Text only: an update's resource renames go with its method, all or nothing (its URL never ends
   * half-renamed), and are reported as fixed with it; without it (JS) each rename is fixed alone.
   */
  alsoFixed?(ruleId: RuleId, message: string): void;
  /** JS only: a request already on v2 has its body and query checked with its plan, before its path's finding. */
  checkOnV2?(op: V1Operation): void;
  /** Text only: a base that is one of several values (`V1 if USE_V1 else V2`), each v2 or a v1 base marked to stay. */
  keptOrV2Base?(): boolean;
}

/** What a request of this URL needs; findings and edits go to `sink`. */
export function planRequestFlow<Origin, Edit>(request: FlowRequest<Origin>, sink: RequestSink<Edit>): FlowOutcome {
  const { shape: read } = request;
  if (read.base === 'unknown' || read.base === 'relative') return unknownBase(request, sink);
  if (read.base !== 'legacy' && read.base !== 'target') return { shape: read, to: 'other' };
  const template = templateOf(read);
  const segments = read.segments.map((s) => s.text);
  // A config-declared wrapper has no visible base: a path already in its v2 form is v2 code.
  const shape: UrlShape = request.declared && !template && isV2Path(segments) ? { ...read, base: 'target' } : read;
  const found = { shape, ...(template ? { template } : {}) };
  const onV2 = shape.base === 'target' ? decideOnV2(shape, template, request.declared) : null;
  if (onV2?.kind === 'v2') {
    // Already on v2: a leftover reset (v2 has none) and a path v2 does not have need a person.
    if (onV2.reset) reset(sink, onV2.reset);
    const op = operationForV2(segments, request.method);
    if (op) sink.checkOnV2?.(op);
    if (onV2.unknown) sink.report(onV2.unknown.ruleId, onV2.unknown.message);
    return { ...found, ...(op ? { op } : {}), to: 'v2' };
  }
  // A v1 path on the v2 base (half migrated) migrates like a v1 call, all but the base.
  const changes = planUrlChanges(shape, template, sink.bases);
  if (!changes) {
    sink.report('unresolved-url', unassembledMessage(displayPath(shape)));
    return { ...found, to: 'v1' };
  }
  const isBase = (c: UrlChange): boolean => isBaseRule(c.ruleId);
  const pathChanges = changes.filter((c) => !isBase(c));
  const placeBase = sink.moveBase(shape, changes.filter(isBase), pathChanges);
  if (!template) {
    placeBase(true);
    if (!isSchemaUrl(shape)) unmatched(sink, shape);
    return { ...found, to: 'v1' };
  }
  const decision = decideOperation(template, request.method, pathChanges);
  if (decision.kind === 'not-an-operation') {
    placeBase(true);
    sink.report(decision.ruleId, decision.message);
    return { ...found, to: 'v1' };
  }
  carryOut(sink, template, decision, placeBase);
  return { ...found, ...(decision.op ? { op: decision.op } : {}), to: 'v1' };
}

function unknownBase<Origin, Edit>(request: FlowRequest<Origin>, sink: RequestSink<Edit>): FlowOutcome {
  const { shape } = request;
  const first = shape.segments[0]?.text;
  if (shape.base !== 'unknown' || !first || !V1_RESOURCES.has(first) || sink.keptOrV2Base?.()) return { shape, to: 'other' };
  const hole = request.url[0];
  sink.report('unresolved-url', unknownBaseMessage(displayPath(shape), hole?.kind === 'hole' ? hole.label : '?'));
  return { shape, to: 'unknown-base' };
}

/** Carry out the decision for a request on a v1 path template, placing the base as the request's own edits allow. */
function carryOut<Edit>(sink: RequestSink<Edit>, template: PathTemplate, d: Exclude<OperationDecision, { kind: 'not-an-operation' }>, placeBase: (rewritten: boolean) => void): void {
  switch (d.kind) {
    case 'path':
      placeBase(true);
      return pathSteps(sink, template, d.steps);
    case 'reset':
      placeBase(false);
      return reset(sink, d);
    case 'action': {
      const parts = [...d.url.map((c) => sink.path(c, true)), sink.jsonBody(d.body)];
      if (sink.pathParams) parts.push(sink.pathParams(template));
      const done = commit(sink, d.ruleId, d.message + (sink.actionNote ?? ''), parts);
      sink.afterAction?.();
      return placeBase(done);
    }
    case 'update-alias': {
      // Text: the renames go with the method, all or nothing; JS: each is a path step of its own.
      const together = sink.alsoFixed ? d.renames : [];
      if (!sink.alsoFixed) pathSteps(sink, template, d.renames);
      // A resource rename is the same for every request on its text (a shared base that ends in the
      // resource, `…/v1/endpoints`, is renamed for all of them); dropping `/update` is this request's alone.
      const parts = [...together.map((r) => sink.path(r.change, false)), ...d.drop.map((c) => sink.path(c, true))];
      parts.push(sink.method(d.method));
      const done = commit(sink, d.ruleId, d.message, parts);
      if (done) for (const r of together) sink.alsoFixed?.(r.ruleId, r.message);
      return placeBase(done);
    }
    default: {
      const unknown: never = d;
      return unknown;
    }
  }
}

/** Path splices, each its own fix (a path parameter renamed takes the client's parameter names with it). */
function pathSteps<Edit>(sink: RequestSink<Edit>, template: PathTemplate, steps: readonly PathStep[]): void {
  for (const { ruleId, message, change } of steps) {
    const edits = sink.path(change, false);
    if (edits === null) continue;
    if (typeof edits === 'string') sink.report(ruleId, `${message} Not rewritten: ${edits}.`);
    else sink.fix(ruleId, message, ruleId === 'path-param' && sink.pathParams ? [...edits, ...sink.pathParams(template)] : edits);
  }
}

function reset<Edit>(sink: RequestSink<Edit>, d: { ruleId: RuleId; message: string; todo: string }): void {
  sink.report(d.ruleId, d.message);
  sink.writeTodo?.(d.ruleId, d.todo);
}

/** Apply a group of request-specific edits all-or-nothing; on failure, report why. */
function commit<Edit>(sink: RequestSink<Edit>, ruleId: RuleId, message: string, parts: ReadonlyArray<EditsOrReason<Edit> | null>): boolean {
  const reason = reasonAmong(parts, 'the path cannot be edited in place');
  if (reason !== undefined) {
    sink.report(ruleId, `${message} Not rewritten: ${reason}.`);
    return false;
  }
  return sink.fix(ruleId, message, parts.flatMap((p) => (Array.isArray(p) ? p : [])));
}

function unmatched<Edit>(sink: RequestSink<Edit>, shape: UrlShape): void {
  const d = decideUnmatched(shape, sink.engine);
  switch (d.kind) {
    case 'report':
      return sink.report(d.ruleId, d.message);
    case 'none':
      return;
    default: {
      const unknown: never = d;
      return unknown;
    }
  }
}
