/**
 * Response rules (MIGRATION.md §5–§6): list envelopes and billing records unwrapped where the body is
 * parsed, v1-only response fields renamed on provable responses (reported where only likely), v1 error
 * bodies (`.message` → `.detail`), and query parameters v2 ignores, dropped or renamed.
 *
 * `planResponse` runs per request (from planRequest, for legacy-base requests whose operation is known);
 * `planResponseFile` runs once per file, for reads that only look like v1 response fields.
 */
import path from 'node:path';
import type { SiteInstance } from '../js/analyze.js';
import { buildSite, classifyCallee } from '../js/clients/index.js';
import { EMPTY_CTX } from '../js/context.js';
import { isResolved, resolveExpr } from '../js/values.js';
import type { SourceEdit } from '../js/edits.js';
import { bindingOf, isFunction, keyName, unwrap } from '../js/scope.js';
import type { N, P, t } from '../js/ast.js';
import { pathsMatching } from '../js/walk.js';
import { nestMember, renameMember, renamePatternKey, unwrapExpression, unwrapPatternProperty } from '../js/responses/edits.js';
import { isErrorAt, requestValue, Tracer, type FollowedStyle, type Read, type Value, type Walk } from '../js/responses/flow.js';
import { planNest, planRename, planUnwrap } from '../js/responses/read-forms.js';
import { ANY, awaited, elementOf, frameBindings, promiseOf, typeOf, UNKNOWN, type StaticType } from '../js/responses/static-type.js';
import { opaqueQueryCarriers, queryParamsOf, removeQueryParams, type QueryParam } from '../js/responses/query.js';
import { hasListGuard, LIST_QUERY_NAME } from '../adapters/list-query.js';
import { ADAPTER_BASENAME, wrapInListQuery } from '../js/body/adapter.js';
import { currentProject } from '../js/project.js';
import { callTypeArgument, typesAt, wrapTypeArgument } from '../js/responses/types.js';
import { bareExpression, climb, enclosingFunctions, findPaths, isAssignmentTarget, parentOf, programOf, propertyName } from '../js/responses/tree.js';
import {
  BILLING_PARAMS,
  BILLING,
  changesAnswer,
  ERROR_SHAPE,
  IGNORED_QUERY_PARAMS,
  ITEM_NAMES,
  LIST_ENVELOPES,
  NESTING_FIELDS,
  RESPONSE_FIELDS,
  SINGLE_RESPONSES,
  V1_TYPE_NAMES,
  responseField,
  responseFieldsNamed,
  type ItemKind,
  type IgnoredParam,
} from '../map/responses.js';
import type { V1Operation } from '../map/operations.js';
import { shapeOf } from '../url/shape.js';
import { fateText, fieldMessage } from './field-messages.js';
import { finding, type Anchor, type PlanEnv, type PlannedFinding, type RequestPlan } from './plan.js';
import { renameKey, ResponseTypes } from './response-types.js';
import { settleFallbacks, type ErrorRead } from './error-fallbacks.js';
import type { RuleId } from './registry.js';
import { listShape, listTail } from '../plan/messages.js';
import { planTypedResponse } from './typed-response.js';
import { answerOf, passedOnFinding } from './passed-on.js';

export interface ResponsePlan {
  /** Edits specific to this request (unwraps, field renames, query renames): dropped with its other edits on conflict. */
  specific: SourceEdit[];
  /** Edits right for every request through the code (error-body reads). */
  universal: SourceEdit[];
  findings: PlannedFinding[];
  /** Why the request must not go to v2 as it is: a query parameter v2 ignores would change its answer. */
  blocks?: string;
}

type Shared = (p: P, w: Walk) => boolean;

/** Every v1 response field name the map knows (a cheap filter before looking closer). */
const FIELD_NAMES = new Set(RESPONSE_FIELDS.map((r) => r.field));

type Member = t.MemberExpression | t.OptionalMemberExpression;
const isMember = (n: N | null | undefined): n is Member => n?.type === 'MemberExpression' || n?.type === 'OptionalMemberExpression';

const isMemberPath = (p: P): p is P<Member> => isMember(p.value);

/**
 * The v1 field a member read names: its property, or, where v1 nested the field in another one the
 * map knows, both (`pod.gpu!.displayName` → "gpu.displayName"; `gpu.displayName` on a variable is not).
 */
function fieldNameOf(m: Member): string | null {
  const name = propertyName(m);
  if (name === null) return null;
  const object = bareExpression(m.object);
  const outer = isMember(object) ? propertyName(object) : null;
  return outer !== null && NESTING_FIELDS.has(outer) && FIELD_NAMES.has(`${outer}.${name}`) ? `${outer}.${name}` : name;
}

/** The read of a nested v1 field through the read `p` of the field it is nested in (`.gpu` → `.gpu.displayName`). */
function nestedRead(p: Read, outer: string): { read: P<Member>; name: string } | null {
  if (isPatternProperty(p)) return null;
  const parent = parentOf(climb(p));
  if (!parent || !isMemberPath(parent) || bareExpression(parent.value.object) !== p.value) return null;
  const name = fieldNameOf(parent.value);
  return name?.startsWith(`${outer}.`) ? { read: parent, name } : null;
}

const BILLING_ITEMS: ReadonlySet<ItemKind> = new Set(BILLING);

const v2Path = (op: V1Operation): string => `/v2${op.v2?.path ?? op.path}`;

/**
 * Code that other requests share: inside a wrapper of this request's call chain (a function with a
 * frame that does not contain the chain's root call), inside a named helper the value was handed to
 * that has other callers, or inside a helper called from such code. Nothing request-specific is written there.
 */
function sharedCode(inst: SiteInstance): Shared {
  const root = inst.root.value;
  const shared: Shared = (p, w) =>
    enclosingFunctions(p).some((f) => {
      if (w.shared.has(f.value)) return true;
      if (w.ctx.has(f.value)) return !holds(f.value, root);
      // A helper the value was handed to from shared code (a wrapper's `parse(res)`) serves every request of that code.
      const from = w.returnTo.get(f.value)?.call;
      return !!from && !holds(f.value, from.value) && shared(from, w);
    });
  return shared;
}

/** Does the source range of `outer` hold that of `inner`? */
function holds(outer: N, inner: N): boolean {
  const { start: from, end: to } = outer;
  return from != null && to != null && inner.start != null && inner.end != null && from <= inner.start && inner.end <= to;
}

/** Is the value at `p` (a promise) awaited right there? */
function awaitedHere(p: P): boolean {
  return parentOf(climb(p))?.value.type === 'AwaitExpression';
}

/** Is the value at `p` what an inline `.then` callback returns (so the `.then(…)` call is the better place)? */
function returnedFromThen(p: P, w: Walk): boolean {
  const q = climb(p);
  const parent = parentOf(q);
  if (!parent) return false;
  let fn: N | null = null;
  if (parent.value.type === 'ArrowFunctionExpression' && parent.value.body === q.value) fn = parent.value;
  else if (parent.value.type === 'ReturnStatement') fn = enclosingFunctions(parent)[0]?.value ?? null;
  return !!fn && w.returnTo.get(fn)?.then === true;
}

/**
 * Does the generic function called at `p` return its first type argument whole (`api<T>(…): Promise<T>`
 * or `: T`, or an undeclared return type)? Then `api<Pod[]>` can become `api<{ pods: Pod[] }>`.
 */
function returnsTypeArgument(p: P): boolean {
  const call = unwrap(p);
  const r = 'callee' in call.value && call.value.callee ? resolveExpr(call.get('callee'), EMPTY_CTX) : null;
  if (!r || !isResolved(r) || !isFunction(r.path.value)) return true;
  const fn = r.path.value;
  const first = fn.typeParameters && fn.typeParameters.type !== 'Noop' ? fn.typeParameters.params[0]?.name : undefined;
  let type: N | undefined = fn.returnType && fn.returnType.type !== 'Noop' ? fn.returnType.typeAnnotation : undefined;
  if (!type) return true;
  const named = (n: N | undefined, name: string | undefined): n is t.TSTypeReference => n?.type === 'TSTypeReference' && n.typeName.type === 'Identifier' && n.typeName.name === name;
  // `typeArguments`: the name later parsers give `typeParameters` here.
  if (named(type, 'Promise')) type = (type.typeParameters ?? (type as { typeArguments?: t.TSTypeParameterInstantiation }).typeArguments)?.params?.[0];
  return !!first && named(type, first);
}

/** Is `p` what an async function returns (so `(await p).key` keeps the function's result a promise)? */
function returnedFromAsync(p: P): boolean {
  const q = climb(p);
  const parent = parentOf(q);
  if (parent?.value.type === 'ReturnStatement') return !!enclosingFunctions(parent)[0]?.value.async;
  return parent?.value.type === 'ArrowFunctionExpression' && parent.value.body === q.value && !!parent.value.async;
}

/** The request's v1 base is written in the code that makes it, not passed in by a caller. */
function baseIsOwn(inst: SiteInstance, env: PlanEnv): boolean {
  const callee = classifyCallee(inst.site.call, env.bases);
  const site = callee?.kind === 'client' ? buildSite(inst.site.call, callee, EMPTY_CTX, inst.site.call, env.bases) : null;
  return !!site && shapeOf(site.url, env.bases).base === 'legacy';
}

/** The literal the request's v1 base is written in. */
function baseLiteral(inst: SiteInstance, env: PlanEnv): N | null {
  const shape = shapeOf(inst.site.url, env.bases);
  if (shape.base !== 'legacy') return null;
  const piece = inst.site.url[shape.flat.at(0).piece];
  return piece?.kind === 'text' ? piece.origin.path.node : null;
}

/** A point or read that is the property of a destructuring pattern (`const { pods } = …`), not an expression. */
const isPatternProperty = (p: P): p is P<t.ObjectProperty> => p.value.type === 'ObjectProperty';

/** The node a finding about a value position points at. */
function anchorOf(p: P): N {
  return p.value.type === 'ObjectProperty' ? p.value.key : p.value;
}

const w0 = (inst: SiteInstance): Walk => ({ ctx: inst.ctx, returnTo: new Map(), shared: new Set(), depth: 0 });

/**
 * What the request's call hands back (flow.ts), its body typed by the call's type argument (else `any`),
 * or as its client's types parse it (node-fetch's `unknown`).
 */
function typedRequestValue(inst: SiteInstance, style: FollowedStyle): Value {
  const call = inst.site.call;
  const arg = (call.value.typeParameters ?? call.value.typeArguments)?.params?.[0];
  return requestValue(style, arg ? typeOf(arg, call, frameBindings(call, inst.ctx)) : ANY, inst.site.parsedBody === 'unknown' ? UNKNOWN : undefined);
}

/**
 * A request already on v2 (or moved there unfinished): the query parameters it still sends that v2
 * ignores, reported where lint sees the code, so a filter left behind is never silent.
 */
export function planV2Query(inst: SiteInstance, op: V1Operation, env: PlanEnv): ResponsePlan | null {
  const plan: ResponsePlan = { specific: [], universal: [], findings: [] };
  planQuery(plan, inst, op, env, true);
  // Findings only: v2 code is not rewritten, and whatever it sends, it sends to v2 already.
  return plan.findings.length ? { specific: [], universal: [], findings: plan.findings } : null;
}

/** Why nothing is rewritten in the responses of a request already on v2 (it stays as the code wrote it). */
const ON_V2 = 'the request already goes to REST v2, and the code around it is left as it is';

/**
 * Plan the response side of one v1 request, or (`onV2`) report what the code around a request already
 * on v2 still reads or declares in v1's shape: what a person must still change after the write.
 */
export function planResponse(inst: SiteInstance, op: V1Operation, env: PlanEnv, onV2 = false): ResponsePlan | null {
  const plan: ResponsePlan = { specific: [], universal: [], findings: [] };
  // openapi-fetch returns { data, error } typed by the generated paths: its list data and error reads
  // are handled by typed-response.ts, the rest surfaces as type errors once the types are regenerated
  // from the v2 spec (the openapi-types finding). Its query parameters are checked like any other.
  if (inst.site.response === 'typed') {
    if (onV2) return null;
    const filter = planQuery(plan, inst, op, env);
    const typed = planTypedResponse(inst.site, op, inst.root, env, filter?.suffix ?? '');
    if (typed) {
      plan.specific.push(...typed.specific);
      plan.findings.push(...typed.findings);
    }
    if (filter) applyFilter(plan, filter, !!typed?.filtered);
    return plan.findings.length || plan.specific.length ? plan : null;
  }
  const shared = sharedCode(inst);
  const held = onV2 ? ON_V2 : null;
  // A request already on v2 sends what it sends: its query is checked by planV2Query, nothing rewritten.
  const filter = onV2 ? null : planQuery(plan, inst, op, env);
  const filtered = planBodyFlow(plan, inst, op, env, shared, held, filter?.suffix ?? null);
  if (filter) applyFilter(plan, filter, filtered);
  planErrors(plan, inst, env, shared, held);
  return plan.findings.length || plan.specific.length || plan.universal.length ? plan : null;
}

interface Point {
  p: P;
  v: Value;
  w: Walk;
}

/**
 * List envelopes and billing records: unwrap where the body is parsed; then follow items for field reads,
 * and report where the answer is passed on as it is. `held`: why nothing is rewritten (a request already
 * on v2, whose body already is the envelope, and whose passed-on answer is already v2's). `filter`
 * (`.filter((pod) => …)`) goes right after each unwrap; true when every place the list is read got it.
 */
function planBodyFlow(plan: ResponsePlan, inst: SiteInstance, op: V1Operation, env: PlanEnv, shared: Shared, held: string | null, filter: string | null): boolean {
  const envelope = LIST_ENVELOPES[op.id];
  const answer = answerOf(op);
  if (!answer) return false;
  const item = answer.item;
  if (held && (declaredWrapper(inst) || inst.site.response === 'typed' || inst.site.response === 'unknown')) return false;
  if (declaredWrapper(inst)) {
    // A wrapper declared in the config: its code is not in the run, so what it returns is unknown.
    if (envelope) {
      const f = finding(envelope.rule, inst.root.value, `GET ${op.path} returns ${listShape(envelope.key)} in v2 (GET ${v2Path(op)}) instead of a bare array; ${calleeName(inst)} is declared in the config, so what it returns is not visible here: if it hands back the parsed body, read .${envelope.key} from it.`, false);
      plan.findings.push({ ...f, severity: 'info' });
    }
    return false;
  }
  const style = inst.site.response;
  if (style === 'typed' || style === 'unknown') {
    if (envelope) {
      const why = inst.site.unclear ?? 'the tool does not know how this client hands back its response';
      const f = finding(envelope.rule, inst.root.value, `GET ${op.path} returns ${listShape(envelope.key)} in v2 (GET ${v2Path(op)}) instead of a bare array, but ${why}: read .${envelope.key} where the body is parsed.`, false);
      plan.findings.push({ ...f, severity: 'warning' });
    }
    return false;
  }
  const points: Point[] = [];
  const escapes: Array<{ p: P; why: string }> = [];
  let handlesBoth = false;
  new Tracer({
    at(p, v, w) {
      if (v.kind !== 'json' || v.error) return false;
      if (v.promise && (awaitedHere(p) || returnedFromThen(p, w))) return false;
      if (shared(p, w)) return false;
      points.push({ p, v, w });
      return true;
    },
    member(_p, name, v) {
      if (envelope && v.kind === 'json' && !v.error && name === envelope.key) handlesBoth = true;
      return null;
    },
    escape(p, v, why) {
      if (!isErrorAt(p, v) && (v.kind === 'response' || v.kind === 'text' || v.kind === 'json')) escapes.push({ p, why });
    },
    shown(p, v, why) {
      if (!isErrorAt(p, v) && (v.kind === 'text' || v.kind === 'json')) escapes.push({ p, why });
    },
  }).follow(inst.site.call, typedRequestValue(inst, style), w0(inst));

  // Passed on in the function that makes the request, the answer is this request's business: said at
  // its call, where a reader of the request looks (naming the line it leaves at); elsewhere, where it leaves.
  // Code already on v2 passes on v2's answer: nothing to say.
  const requestFn = enclosingFunctions(inst.root)[0]?.value ?? null;
  const passOn: PassOn = (p, why) => {
    if (held) return;
    const here = requestFn !== null && enclosingFunctions(p)[0]?.value === requestFn && p.value.loc && inst.root.value.loc;
    const line = p.value.loc?.start.line;
    const f = here ? passedOnFinding(answer, op, inst.root.value, `${why}, at line ${line}`) : passedOnFinding(answer, op, anchorOf(p), why);
    if (f) plan.findings.push(f);
  };
  // Types the response is declared with: their members are renamed together with the reads through them.
  const types = new ResponseTypes(item, env, held !== null);
  let filteredPoints = 0;
  for (const point of points) {
    if (answer.kind === 'empty-in-v1') {
      followPassOns(point, passOn);
      continue;
    }
    const isPattern = isPatternProperty(point.p);
    if (!isPattern) for (const declared of typesAt(point.p)) types.describe(itemOf(typeOf(declared, point.p, frameBindings(point.p, point.w.ctx)), !!envelope));
    // `api<Pod[]>('GET', '/pods')` will return the envelope: `api<{ pods: Pod[] }>`.
    const typeArg = isPattern ? null : callTypeArgument(point.p);
    const body = point.v.type && awaited(point.v.type);
    // Only where the type argument is the whole body (`api<T>(…): Promise<T>`, not `Promise<T[]>`).
    const wrapsTypeArg = !!typeArg && typeArg.type !== 'TSAnyKeyword' && typeArg.type !== 'TSTypeLiteral' && returnsTypeArgument(point.p);
    const unwrap = envelope ? planUnwrap(body, envelope.key, point.p.value, wrapsTypeArg) : null;
    const listType = unwrap?.ok ? unwrap.list : body;
    const both = followItems(plan, point, item, envelope?.key ?? null, listType, env, shared, types, held, passOn);
    if (held || !envelope || !unwrap || both || handlesBoth) continue;
    const cast = unwrap.ok && unwrap.cast;
    const why = !unwrap.ok ? unwrap.why : isPattern && cast ? 'the destructured body is typed unknown' : null;
    const expression = !why && !isPatternProperty(point.p);
    const edits = why ? null : isPatternProperty(point.p) ? unwrapPatternProperty(env.source, point.p, envelope.key) : unwrapExpression(env.source, point.p, envelope.key, point.v.promise, returnedFromAsync(point.p), cast, filter ?? '');
    plan.findings.push(finding(envelope.rule, anchorOf(point.p), envelopeMessage(op, envelope.key, edits ? 'unwrapped' : 'by hand', why), !!edits));
    if (!edits) continue;
    if (expression) filteredPoints++;
    plan.specific.push(...edits);
    if (wrapsTypeArg) plan.specific.push(wrapTypeArgument(env.source, typeArg, envelope.key));
  }
  types.commit(plan);
  if (!held && envelope && !points.length && escapes.length) {
    const { p, why } = escapes[0]!;
    const f = finding(envelope.rule, anchorOf(p), `GET ${op.path} returns ${listShape(envelope.key)} in v2 (GET ${v2Path(op)}) instead of a bare array, but its response leaves what v2-migrate can follow here (${why}): read .${envelope.key} where the body is parsed.`, false);
    plan.findings.push({ ...f, severity: 'warning' });
  }
  // A response passed on before it is parsed (returned as it is): whoever parses it gets the v2 resource.
  // (A pod action's `{}` was never read for fields: its passing on is followed from the parsed points.)
  const [first] = escapes;
  if (!points.length && first && answer.kind !== 'empty-in-v1') passOn(first.p, first.why);
  return points.length > 0 && filteredPoints === points.length;
}

function envelopeMessage(op: V1Operation, key: string, how: 'unwrapped' | 'by hand', why: string | null = null): string {
  const head = `GET ${op.path} returned a bare array in v1; GET ${v2Path(op)} returns ${listShape(key)}`;
  const tail = listTail(key);
  return how === 'unwrapped'
    ? `${head}: unwrapped with .${key} where the body is parsed, so the code still sees an array${tail}.`
    : `${head}: read .${key} where the body is parsed${tail}. Not rewritten: ${why ?? 'the destructuring is not simple enough to edit'}.`;
}

/** The type of one object of the response, from a type declared for the value (a promise, a list, or the object). */
function itemOf(t: StaticType, list: boolean): StaticType {
  return list ? elementOf(awaited(t)) : awaited(t);
}

/** Where an answer leaves the code the tool follows as it is: `p` the value there, `why` how. */
type PassOn = (p: P, why: string) => void;

/** The list or one of its items (not a value read from it, nor an error body) leaves at `p`. */
function passAnswerOn(passOn: PassOn, p: P, v: Value, why: string): void {
  if ((v.kind === 'list' || v.kind === 'item') && !isErrorAt(p, v)) passOn(p, why);
}

/**
 * Follow the (unwrapped) body from a point to the reads of its items; rename v1 fields where provable;
 * tell `passOn` where the list or an item leaves the code the tool follows. Returns true when the code
 * already reads the envelope key (it handles both shapes).
 */
function followItems(plan: ResponsePlan, point: Point, item: ItemKind, key: string | null, type: StaticType | undefined, env: PlanEnv, shared: Shared, types: ResponseTypes, held: string | null, passOn: PassOn): boolean {
  let both = false;
  const tracer = new Tracer({
    escape: (p, v, why) => passAnswerOn(passOn, p, v, why),
    shown: (p, v, why) => passAnswerOn(passOn, p, v, why),
    member(p, name, v, w) {
      if (v.kind === 'list') {
        if (key !== null && name === key) {
          both = true;
          return v;
        }
        return null;
      }
      if (v.kind !== 'item' || name === null) return null;
      // `pod.gpu.displayName`: a field v1 nested in another (the read of `gpu` itself changed nothing).
      const nested = NESTING_FIELDS.has(name) ? nestedRead(p, name) : null;
      if (nested) fieldRead(plan, nested.read, nested.name, item, v, w, env, shared, types, held);
      else fieldRead(plan, p, name, item, v, w, env, shared, types, held);
      return null;
    },
    declared(v) {
      if (v.type && (v.kind === 'list' || v.kind === 'item')) types.describe(itemOf(v.type, v.kind === 'list'));
    },
  });
  // `parsedFrom`: where a test says the response failed, the body is an error body, not the answer.
  const from = point.v.parsedFrom ? { parsedFrom: point.v.parsedFrom } : {};
  const value: Value = { kind: key === null ? 'item' : 'list', promise: point.v.promise, client: point.v.client, ...from, ...(type ? { type: point.v.promise ? promiseOf(type) : type } : {}) };
  if (isPatternProperty(point.p)) tracer.bind(point.p.get('value'), value, point.w);
  else tracer.follow(point.p, value, point.w);
  return both;
}

/** An answer v1 sent as `{}` (a pod action's): only where it is passed on matters. */
function followPassOns(point: Point, passOn: PassOn): void {
  const value: Value = { kind: 'item', promise: point.v.promise, client: point.v.client };
  const tracer = new Tracer({ escape: (p, v, why) => passAnswerOn(passOn, p, v, why), shown: (p, v, why) => passAnswerOn(passOn, p, v, why) });
  if (isPatternProperty(point.p)) tracer.bind(point.p.get('value'), value, point.w);
  else tracer.follow(point.p, value, point.w);
}

function fieldRead(plan: ResponsePlan, p: Read, name: string, item: ItemKind, v: Value, w: Walk, env: PlanEnv, shared: Shared, types: ResponseTypes, held: string | null): void {
  // The type the object is read through declares it too (a destructured `axios.get<T>` body, a helper's parameter).
  types.describe(v.type);
  const row = responseField(name, item);
  if (!row) return;
  const rule: RuleId = BILLING_ITEMS.has(item) ? 'billing-records' : 'response-field';
  const anchor = anchorOf(isPatternProperty(p) ? p : p.get('property'));
  types.reached(anchor);
  let message = fieldMessage(row, item, name);
  let edits: SourceEdit[] | null = null;
  if (row.fate.kind === 'rename' || row.fate.kind === 'nest') {
    const planned = held ?? (shared(p, w) ? 'this code is shared with other callers; change it by hand' : readEdits(p, name, row.fate, v.type, env, types.renaming));
    // A read through a member renamed in its type: both change, or neither.
    const member = row.fate.kind === 'rename' ? types.through(v.type, name) : null;
    if (member) return types.read(member, anchor, message, planned);
    if (typeof planned === 'string') message += ` Not rewritten: ${planned}.`;
    else edits = planned;
  }
  if (edits) plan.specific.push(...edits);
  plan.findings.push(finding(rule, anchor, message, !!edits));
}

/**
 * The edits of one renamed or nested read, in a form the value's declared type allows (read-forms.ts),
 * or why it is left for a person.
 */
function readEdits(p: Read, name: string, fate: { kind: 'rename' | 'nest'; to: string }, type: StaticType | undefined, env: PlanEnv, renamed: ReadonlySet<N>): SourceEdit[] | string {
  const plain = 'the property is not written as a plain name; change it by hand';
  if (fate.kind === 'nest') {
    if (isPatternProperty(p)) return 'a nested field cannot be renamed inside a destructuring; change it by hand';
    const form = planNest(type, name, fate.to, p.value, isAssignmentTarget(p));
    if (!form.ok) return form.why;
    return nestMember(env.source, p, fate.to, form.form) ?? plain;
  }
  const r = planRename(type, name, fate.to, p.value, renamed);
  if (!r.ok) return r.why;
  // Inline types are renamed with their reads (ResponseTypes); one left here has a key the tool cannot edit.
  if (r.literalKey) return 'its inline type names the field in a way the tool cannot edit; change both by hand';
  return (isPatternProperty(p) ? renamePatternKey(env.source, p.value, fate.to) : renameMember(env.source, p.value, fate.to)) ?? plain;
}

/** A call to a config-declared wrapper (its code is not part of the run). */
function declaredWrapper(inst: SiteInstance): boolean {
  const first = inst.site.url[0];
  return first?.kind === 'text' && first.origin.declared === true;
}

function calleeName(inst: SiteInstance): string {
  const callee = unwrap(inst.site.call.get('callee')).value;
  return callee.type === 'Identifier' ? `${callee.name}()` : callee.type === 'MemberExpression' && callee.property.type === 'Identifier' ? `${callee.property.name}()` : 'the wrapper';
}

/** v1 error bodies: `.message` → `.detail`, `.error` reported, error bodies passed on reported (`held`: why none is rewritten). */
function planErrors(plan: ResponsePlan, inst: SiteInstance, env: PlanEnv, shared: Shared, held: string | null): void {
  const style = inst.site.response;
  if (declaredWrapper(inst) || style === 'typed' || style === 'unknown') return;
  const reads: Array<{ p: Read; name: string; v: Value; w: Walk }> = [];
  const escapes: Array<{ p: P; why: string }> = [];
  new Tracer({
    member(p, name, v, w) {
      if (v.kind !== 'json' || name === null) return null;
      // A body parsed before the code tests the response is an error body where the test says it failed.
      const error = isErrorAt(p, v);
      if (error || ERROR_SHAPE.v1Only.includes(name)) reads.push({ p, name, v: { ...v, error }, w });
      return null;
    },
    escape(p, v, why) {
      if (v.kind === 'json' && isErrorAt(p, v)) escapes.push({ p, why });
    },
  }).follow(inst.site.call, typedRequestValue(inst, style), w0(inst));
  if (!reads.length && !escapes.length) return;
  const own = baseIsOwn(inst, env);
  const renamed: ErrorRead[] = [];
  for (const { p, name, v, w } of reads) {
    const anchor = anchorOf(isPatternProperty(p) ? p : p.get('property'));
    const to = v.error ? ERROR_SHAPE.renames[name] : undefined;
    if (to) {
      const typed = planRename(v.type, name, to, p.value, new Set());
      const literal = typed.ok && typed.literalKey ? renameKey(env.source, typed.literalKey, to) : null;
      const edits = isPatternProperty(p) ? renamePatternKey(env.source, p.value, to) : renameMember(env.source, p.value, to);
      if (edits && literal) edits.push(literal);
      const doubt = held ?? v.doubt ?? (shared(p, w) && !own ? 'this code is shared with requests whose base URL the tool cannot see' : !typed.ok ? typed.why : null);
      renamed.push({ name, to, anchor, fallbacks: v.fallbacks ?? [], edits, doubt, standIns: [] });
    } else if (ERROR_SHAPE.v1Only.includes(name) && v.error) {
      plan.findings.push(finding('error-shape', anchor, `v1 also answered { error, status }; v2 errors are ${ERROR_SHAPE.description}: read .detail instead of .${name}.`, false));
    } else if (ERROR_SHAPE.v1Only.includes(name)) {
      plan.findings.push(finding('error-shape', anchor, `This reads .${name} of a RunPod response body to detect an error, as v1's { error, status } bodies allowed; v2 errors are ${ERROR_SHAPE.description} with an error HTTP status, so check res.ok (or the status) before using the body and read .detail.`, false));
    }
  }
  settleFallbacks(renamed, env.source);
  // Right for every request through this code, but only once the base moves: tie the edits to the
  // base literal, so they stay out when that base is held on v1 (or marked keep-v1).
  const base = baseLiteral(inst, env);
  for (const { name, to, anchor, edits, doubt, standIns } of renamed) {
    const message = `RunPod v2 errors are RFC 9457 problems ({ title, status, detail, errors }); the v1 "${name}" is "${to}".`;
    const along = standIns.length ? ` The stand-in it may hold instead (line ${[...new Set(standIns)].join(', ')}) says "${to}" too.` : '';
    if (edits) plan.universal.push(...edits.map((e) => ({ ...e, node: base ?? e.node, universal: true })));
    plan.findings.push(finding('error-shape', anchor, edits ? message + along : `${message} Not rewritten: ${doubt}; change it by hand if this is a RunPod error.`, !!edits));
  }
  for (const { p, why } of escapes) {
    plan.findings.push(finding('error-shape', anchorOf(p), `This RunPod error body is passed on (${why}); v1 sent { message }, v2 sends ${ERROR_SHAPE.description}: code that reads .message from it must read .detail.`, false));
  }
}

/** A list filter v2 ignores, rewritten as a filter on the unwrapped list. */
interface ClientFilter {
  /** `.filter((pod) => …)`, appended where the list is unwrapped. */
  suffix: string;
  /** Edits that take the filter's parameters out of the request; null when they cannot be. */
  removals: SourceEdit[] | null;
  /** The parameters' findings, and what each says once the filter is written. */
  findings: Array<{ f: PlannedFinding; written: string }>;
  /** Why the request cannot go to v2 unless the filter is written. */
  blocks: string;
  /**
   * Without the filter: the run-time guard wrapped around each expression the filters come through
   * (v2ListQuery throws when the request carries one), or null when one is written in the URL itself.
   */
  guard: { edits: SourceEdit[]; finding: PlannedFinding } | null;
}

/** Names for the item a list filter tests, by kind of list. */
const FILTER_ITEM: Partial<Record<ItemKind, string>> = { pod: 'pod', template: 'template', endpoint: 'endpoint', networkVolume: 'volume' };

/**
 * Query parameters v2 ignores (list filters) or dropped/renamed (billing). A filter that changes what v2
 * answers (a narrowing filter, a flag that added items) is rewritten as a filter on the unwrapped list
 * where the tool can (returned for planBodyFlow); otherwise the request must not go to v2 as it is.
 */
function planQuery(plan: ResponsePlan, inst: SiteInstance, op: V1Operation, env: PlanEnv, v2 = false): ClientFilter | null {
  const ignored = IGNORED_QUERY_PARAMS[op.id];
  const billing = BILLING_PARAMS[op.id];
  if (!ignored && !billing?.length) return null;
  const envelope = LIST_ENVELOPES[op.id];
  const list = envelope?.key ?? 'items';
  const what = ITEM_NAMES[envelope?.item ?? SINGLE_RESPONSES[op.id] ?? 'pod'];
  const params = queryParamsOf(inst, env.bases, env.source);
  const changing: Array<{ qp: QueryParam; ig: IgnoredParam; f: PlannedFinding }> = [];
  for (const qp of params) {
    const ig = ignored?.find((x) => x.param === qp.name);
    if (ig) {
      const shown = qp.value === null ? qp.name : `${qp.name}=${qp.value}`;
      const effect = op.id.startsWith('List') ? ` and returns every ${what}` : '';
      const f = finding('query-filter', qp.anchor, `GET ${v2Path(op)} silently ignores the v1 query parameter ${shown}${effect}: ${ig.recipe(list, qp.expr)}.`, false);
      plan.findings.push(f);
      if (changesAnswer(ig, qp.value)) changing.push({ qp, ig, f });
    }
    const bp = billing?.find((x) => x.param === qp.name);
    if (!bp) continue;
    if (bp.renamed) {
      const edits = qp.rename(bp.renamed);
      const message = `The billing query parameter ${qp.name} is ${bp.renamed} in GET ${v2Path(op)}: ${bp.note}.${edits ? '' : ' Not rewritten: the name is not written where it can be edited; change it by hand.'}`;
      if (edits) plan.specific.push(...edits);
      plan.findings.push(finding('billing-records', qp.anchor, message, !!edits));
    } else {
      plan.findings.push(finding('billing-records', qp.anchor, `GET ${v2Path(op)} has no ${qp.name} query parameter (v1 ${op.path} did; v2 silently ignores it): ${bp.note}.`, false));
      plan.blocks ??= `billing-records: v2 ignores its v1 query parameter ${qp.name}, so it would answer other records`;
    }
  }
  if (!changing.length) {
    if (hasListGuard(op.id)) guardOpaqueQuery(plan, inst, op, env, v2);
    return null;
  }
  if (v2) {
    // Guarded by an earlier run: the guard is still what makes the request fail loudly, and a person still owes a filter.
    if (changing.some((c) => isGuarded(c.qp.carrier ?? null))) plan.findings.push(guardFinding(inst, op, changing.map((c) => c.qp)));
    return null;
  }
  const names = changing.map((c) => c.qp.name).join(', ');
  const blocks = `query-filter: v2 ignores its v1 query parameter${changing.length > 1 ? 's' : ''} ${names} and would answer ${changing.some((c) => c.ig.effect === 'widen') ? `other ${what}s` : `every ${what}`}`;
  const item = FILTER_ITEM[envelope?.item ?? 'pod'] ?? 'item';
  const name = [item, 'item', 'entry'].find((n) => changing.every((c) => !new RegExp(`\\b${n}\\b`).test(c.qp.expr ?? ''))) ?? item;
  const tests = changing.map(({ qp, ig }) => {
    if (!qp.expr) return null;
    const test = ig.test?.(name, qp.expr, qp.value);
    // A value only known at run time may be absent, and then a client leaves the parameter out.
    return test ? (qp.value === null ? `(${qp.expr} == null || ${test})` : test) : null;
  });
  const guard = guardEdits(inst, op, env, changing.map((c) => c.qp));
  const findings = changing.map(({ f, ig, qp }) => ({ f, ig, qp }));
  if (!envelope || tests.some((t) => t === null)) return { suffix: '', removals: null, findings: findings.map(({ f }) => ({ f, written: f.message })), blocks, guard };
  const suffix = `.filter((${name}) => ${tests.join(' && ')})`;
  const written = findings.map(({ f, ig, qp }) => ({ f, written: `GET ${v2Path(op)} ignores the v1 query parameter ${qp.name}: it is taken out of the request and the unwrapped list is filtered on the client instead (${suffix.slice(1)})${ig.caveat ? `; note that ${ig.caveat}` : ''}.` }));
  return { suffix, removals: removeQueryParams(inst, env.bases, env.source, changing.map((c) => c.qp)), findings: written, blocks, guard };
}

/** The list-query guard around every carrier of `params`, or null when one of them is written in the URL itself. */
function guardEdits(inst: SiteInstance, op: V1Operation, env: PlanEnv, params: readonly QueryParam[]): ClientFilter['guard'] {
  if (!hasListGuard(op.id) || !env.adapters) return null;
  const carriers = [...new Set(params.map((q) => q.carrier))];
  if (carriers.some((c) => !c)) return null;
  const edits: SourceEdit[] = [];
  for (const carrier of carriers) {
    const file = carrier && currentProject()?.fileAt(carrier.node.start!).file;
    const edit = carrier && file ? wrapInListQuery(env.source, carrier, op.id, file) : null;
    if (!edit) return null;
    edits.push(edit);
  }
  return { edits, finding: guardFinding(inst, op, params) };
}

/** The request's finding once its list query goes through the guard. */
function guardFinding(inst: SiteInstance, op: V1Operation, params: readonly QueryParam[]): PlannedFinding {
  const names = [...new Set(params.map((q) => q.name))];
  const message = `GET ${v2Path(op)} would ignore the v1 list filter${names.length > 1 ? 's' : ''} ${names.join(', ')} this request may send, and answer the unfiltered list: its query goes through ${LIST_QUERY_NAME}(…), a generated guard (${ADAPTER_BASENAME} next to this code) that throws before the request is sent when it carries one; filter the list on the client instead.`;
  return finding('query-filter', inst.root.value, message, false);
}

/** Whether the expression is a guard call, or the query one wraps (`v2ListQuery('ListPods', <it>)`). */
function isGuarded(p: P | null): boolean {
  if (!p) return false;
  if (adapterCallNamed(p.value, LIST_QUERY_NAME)) return true;
  const call = p.parent?.value;
  return !!call && call.type === 'CallExpression' && adapterCallNamed(call, LIST_QUERY_NAME) && call.arguments[1] === p.value;
}

/** A list query only known at run time (`{ params: filters }`): guarded, since v2 would ignore any v1 filter in it. */
function guardOpaqueQuery(plan: ResponsePlan, inst: SiteInstance, op: V1Operation, env: PlanEnv, v2: boolean): void {
  const [carrier] = opaqueQueryCarriers(inst);
  if (!carrier) return;
  if (adapterCallNamed(carrier.node, LIST_QUERY_NAME)) {
    plan.findings.push(finding('query-filter', inst.root.value, `GET ${v2Path(op)} takes none of v1's list filters, and this request's query is built at run time: ${LIST_QUERY_NAME}(…) throws before the request is sent if it carries one; filter the list on the client, then remove the guard.`, false));
    return;
  }
  // Code already on v2 that passes its own query is v2 code: nothing to say.
  if (v2) return;
  const file = currentProject()?.fileAt(carrier.node.start!).file;
  const edit = file && env.adapters ? wrapInListQuery(env.source, carrier, op.id, file) : null;
  const head = `GET ${v2Path(op)} takes none of v1's list filters (v2 ignores them and answers the whole list), and this request's query is built where v2-migrate cannot read it`;
  if (edit) plan.specific.push(edit);
  plan.findings.push(finding('query-filter', inst.root.value, edit ? `${head}: it is wrapped in ${LIST_QUERY_NAME}(…), a generated guard (${ADAPTER_BASENAME} next to this code) that throws before the request is sent if it carries one; filter the list on the client instead.` : `${head}: make sure it carries none (filter the list on the client instead).`, false));
  if (!edit) plan.blocks ??= 'query-filter: its query is built at run time and v2 would ignore a v1 filter in it';
}

/** Whether `n` is a call to the named generated function (a query guarded by an earlier run). */
function adapterCallNamed(n: N, name: string): boolean {
  return n.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === name;
}

/**
 * Write a client-side filter where every read of the list got it; otherwise the request must not go to v2
 * as it is (its edits, the unwraps with the filter among them, are then dropped with its hold).
 */
function applyFilter(plan: ResponsePlan, filter: ClientFilter, filtered: boolean): void {
  if (!filtered || !filter.removals || !filter.suffix) {
    if (!filter.guard) {
      plan.blocks ??= filter.blocks;
      return;
    }
    // The unwraps keep their filter out: the request moves with the guard instead.
    plan.specific = plan.specific.map((e) => (filter.suffix && e.text.includes(filter.suffix) ? { ...e, text: e.text.replace(filter.suffix, '') } : e));
    plan.specific.push(...filter.guard.edits);
    plan.findings.push(filter.guard.finding);
    return;
  }
  plan.specific.push(...filter.removals);
  for (const { f, written } of filter.findings) Object.assign(f, { message: written, fixable: true });
}

/** The v1 type a value is declared with (`p: Pod`, `x as Pod`), when it is one of the known v1 type names. */
function declaredItem(obj: P): { item: ItemKind; typeName: string } | null {
  const typeName = (annotation: N | null | undefined): string | null => {
    const type = annotation?.type === 'TSTypeAnnotation' ? annotation.typeAnnotation : annotation;
    return type?.type === 'TSTypeReference' && type.typeName.type === 'Identifier' ? type.typeName.name : null;
  };
  const known = (name: string | null): { item: ItemKind; typeName: string } | null => {
    const item = name ? V1_TYPE_NAMES[name] : undefined;
    return item && name ? { item, typeName: name } : null;
  };
  const n = obj.value;
  if (n.type === 'TSAsExpression') return known(typeName(n.typeAnnotation));
  if (n.type !== 'Identifier') return null;
  const b = bindingOf(obj);
  let id: N | null | undefined = null;
  if (b.kind === 'param' && !b.keyPath.length) {
    const param = b.fn.value.params[b.index];
    id = param?.type === 'AssignmentPattern' ? param.left : param?.type === 'TSParameterProperty' ? param.parameter : param;
  } else if (b.kind === 'var' && !b.keyPath.length) id = b.declarator.value.id;
  return id?.type === 'Identifier' ? known(typeName(id.typeAnnotation)) : null;
}

/** Members of TypeScript interfaces and type aliases: `{ declaration name, member key node, name }`. */
function typeMembers(program: P): Array<{ typeName: string; key: N; name: string }> {
  const out: Array<{ typeName: string; key: N; name: string }> = [];
  const members = (typeName: string, body: readonly t.TSTypeElement[]): void => {
    for (const m of body) if (m.type === 'TSPropertySignature' && !m.computed) {
      const name = keyName(m.key);
      if (name) out.push({ typeName, key: m.key, name });
    }
  };
  const declarations = pathsMatching(program, (n): n is t.TSInterfaceDeclaration | (t.TSTypeAliasDeclaration & { typeAnnotation: t.TSTypeLiteral }) => n.type === 'TSInterfaceDeclaration' || (n.type === 'TSTypeAliasDeclaration' && n.typeAnnotation.type === 'TSTypeLiteral'));
  for (const { node } of declarations) members(node.id.name, node.type === 'TSInterfaceDeclaration' ? node.body.body : node.typeAnnotation.members);
  return out;
}

// Asked once per file of a project with the same instances and plans: worked out once (a project of
// thousands of files would otherwise go through every request for each file).
const restProgramsOf = new WeakMap<readonly SiteInstance[], Set<N>>();
const handledOf = new WeakMap<readonly RequestPlan[], Set<Anchor>>();

/** The programs holding a request (or the call that starts one) on a RunPod REST base. */
function restPrograms(instances: readonly SiteInstance[], env: PlanEnv): Set<N> {
  let out = restProgramsOf.get(instances);
  if (out) return out;
  restProgramsOf.set(instances, (out = new Set()));
  for (const i of instances) {
    const base = shapeOf(i.site.url, env.bases).base;
    if (base === 'legacy' || base === 'target') out.add(programOf(i.root).value).add(programOf(i.site.call).value);
  }
  return out;
}

/** The first module `program` imports that calls the RunPod REST API (its path as imported), or null. */
function restModuleImported(program: N, rest: ReadonlySet<N>): string | null {
  const project = currentProject();
  if (!project || program.start == null) return null;
  const file = project.fileAt(program.start);
  const used = project.importsOf(file).find((f) => f.parsed && rest.has(f.parsed.root.value.program));
  return used ? path.basename(used.file) : null;
}

/** Response reads a request's plan already reported. */
function handledAnchors(plans: readonly RequestPlan[]): Set<Anchor> {
  let out = handledOf.get(plans);
  if (out) return out;
  handledOf.set(plans, (out = new Set()));
  for (const plan of plans) for (const f of plan.findings) if (f.ruleId === 'response-field' || f.ruleId === 'billing-records' || f.ruleId === 'error-shape') out.add(f.anchor);
  return out;
}

/**
 * Reads that only look like v1 response fields: a distinctive v1 field name read in a file that talks
 * to RunPod REST, or any v1 field of a value declared with a v1 type name (`p: Pod`); and members of
 * TypeScript types that describe v1 responses. Reported, never rewritten; reads a request's plan
 * already covered are skipped.
 */
export function planResponseFile(rootPath: P, instances: readonly SiteInstance[], plans: readonly RequestPlan[], env: PlanEnv): PlannedFinding[] {
  const program = programOf(rootPath).value;
  const rest = restPrograms(instances, env);
  // A file that calls RunPod itself, or uses a module of the run that does (a client class, its helpers).
  const client = rest.has(program) ? null : restModuleImported(program, rest);
  const talksRest = rest.has(program) || client !== null;
  const handled = handledAnchors(plans);
  const out: PlannedFinding[] = [];
  const typed = Object.keys(V1_TYPE_NAMES).some((t) => env.source.slice(program.start!, program.end!).includes(t));
  if (!talksRest && !typed) return out;
  const members = findPaths(programOf(rootPath), (n): n is Member => isMember(n) && FIELD_NAMES.has(fieldNameOf(n) ?? ''));
  for (const member of members) {
    const m = member.value;
    const name = fieldNameOf(m);
    if (name === null || handled.has(m.property)) continue;
    const rows = responseFieldsNamed(name);
    if (!rows.length) continue;
    const parent = parentOf(member);
    if (parent && (parent.value.type === 'CallExpression' || parent.value.type === 'OptionalCallExpression') && parent.value.callee === m) continue;
    if (parent?.value.type === 'AssignmentExpression' && parent.value.left === m) continue;
    // An object literal written here (a request body, a config) is not a response.
    const obj = resolveExpr(member.get('object'), EMPTY_CTX);
    if (isResolved(obj) && obj.path.value.type === 'ObjectExpression') continue;
    const declared = typed ? declaredItem(member.get('object')) : null;
    const row = declared ? rows.find((r) => r.items.includes(declared.item)) : talksRest ? rows.find((r) => r.distinctive) : undefined;
    if (!row) continue;
    const item = declared?.item ?? row.items[0]!;
    const why = declared ? `it is declared with the v1 type ${declared.typeName}` : client ? `this file uses ${client}, which calls the RunPod REST API` : 'this file calls the RunPod REST API';
    out.push(finding('response-field', m.property, `${fieldMessage(row, item, name)} This object looks like a REST v1 response (${why}) but the tool cannot prove it, so it was not rewritten.`, false));
  }
  for (const { typeName, key, name } of typeMembers(programOf(rootPath))) {
    if (handled.has(key)) continue;
    const item = V1_TYPE_NAMES[typeName];
    const row = item ? responseField(name, item) : talksRest ? responseFieldsNamed(name).find((r) => r.distinctive) : undefined;
    if (!row) continue;
    const to = fateText(row.fate);
    out.push(finding('response-field', key, `Type ${typeName} describes the REST v1 ${ITEM_NAMES[item ?? row.items[0]!]} field "${name}", which is ${to} in v2: ${row.note}. Update the type (or generate types from the v2 schema), or code that reads the v2 field will not type-check.`, false));
  }
  return out;
}
