import type { HttpMethod, V1Operation } from '../map/operations.js';
import { bodyMappingFor, type BodyMapping } from '../map/bodies.js';
import { bodyChecklist } from '../plan/messages.js';
import { v2BodySchemas, type V2BodySchemaName } from '../map/schemas.js';
import { BUILDERS } from '../js/body/builders.js';
import { readBody, type BodyObject } from '../js/body/props.js';
import { UNKNOWN, isKnown, type Static } from '../js/body/static.js';
import { objectEdits, toSource, type PropChange } from '../js/body/text.js';
import { todoEdit, type SourceEdit } from '../js/edits.js';
import type { HttpSite } from '../js/clients/model.js';
import type { N, P, t } from '../js/ast.js';
import { finding, type PlanEnv, type PlannedFinding } from './plan.js';
import type { BodyOperationId } from '../map/bodies.js';
import { ADAPTER_BASENAME, adapterCallOf, wrapInAdapter } from '../js/body/adapter.js';
import { adapterName, needsAdapter } from '../adapters/generate.js';
import { currentProject } from '../js/project.js';
import { enclosingFunction } from '../js/scope.js';

export type BodyEnv = PlanEnv;

/** A body literal as planned: the v2 body it becomes (static values; fields left for a person are not in it). */
export interface PlannedBody {
  operation: string;
  schema: V2BodySchemaName;
  body: Record<string, Static>;
  line: number;
  /** The request already targeted v2. */
  v2: boolean;
}

/** Test seam: called for every complete body literal planBody judges (no spreads, no later writes). */
export const bodyAudit: { onBody?: (planned: PlannedBody) => void } = {};

export interface BodyPlan {
  /** Request-specific edits to the body object (subject to shared-code arbitration). */
  specific: SourceEdit[];
  /** TODO comments. */
  universal: SourceEdit[];
  findings: PlannedFinding[];
}

const label = (op: V1Operation): string => `${op.method} ${op.path} (${op.id})`;

/** Value at `path` in a built body, or UNKNOWN when any step is unknown. */
function at(value: Static, path: ReadonlyArray<PropertyKey>): Static {
  let cur = value;
  for (const k of path) {
    if (cur === UNKNOWN) return UNKNOWN;
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, Static>)[k];
  }
  return cur;
}

function schemaProblems(mapping: BodyMapping, body: Record<string, Static>, reported: ReadonlySet<string>): string[] {
  return v2BodyProblems(mapping.v2Schema, body, reported);
}

/**
 * Problems the v2 schema finds in a body given as static values (`UNKNOWN` where a value is only known
 * at run time: those paths are not judged). `reported` top-level keys already have a finding of their own.
 */
export function v2BodyProblems(schema: V2BodySchemaName, body: Record<string, Static>, reported: ReadonlySet<string> = new Set()): string[] {
  // A run judges a few bodies per schema: zod's generated fast path (new Function) costs more than it saves.
  const result = v2BodySchemas()[schema].safeParse(body, { jitless: true });
  if (result.success) return [];
  return result.error.issues
    .filter((i) => !(i.path.length > 0 && reported.has(String(i.path[0]))))
    .filter((i) => {
      for (let n = 0; n <= i.path.length; n++) if (at(body, i.path.slice(0, n)) === UNKNOWN) return false;
      return true;
    })
    .map((i) => `${i.path.length ? i.path.join('.') : 'body'}: ${i.message}`);
}

function bodyObjectOf(site: HttpSite): { object: P<t.ObjectExpression>; via: Array<P<t.Identifier>> } | null {
  if (site.body.kind !== 'value') return null;
  const object = site.body.value.path;
  if (object.node.type !== 'ObjectExpression') return null;
  const holder = object.parentPath?.value;
  const via = holder?.type === 'VariableDeclarator' && holder.id.type === 'Identifier' ? [object.parentPath.get('id') as P<t.Identifier>] : [];
  return { object: object as P<t.ObjectExpression>, via };
}

/**
 * Plan the body of a create/update request: renames and restructuring where certain, decisions left
 * in place with a TODO, v2-required fields inserted, v1 defaults reported (or written), and the result
 * checked against the v2 schema before anything is written.
 */
export function planBody(site: HttpSite, op: V1Operation, root: P, env: BodyEnv, v2: boolean): BodyPlan | null {
  const mapping = bodyMappingFor(op.id);
  if (!mapping) return null;
  const plan: BodyPlan = { specific: [], universal: [], findings: [] };
  const located = bodyObjectOf(site);
  if (!located) {
    if (site.body.kind !== 'absent') planUnseenBody(plan, carrierFor(site.body.carriers, site), op, root, env, v2);
    return plan.findings.length ? plan : null;
  }
  const body: BodyObject = readBody(located.object, site.body.kind === 'value' ? site.body.value.ctx : new Map(), located.via);
  const create = op.id.startsWith('Create');
  const input = { props: body.props, source: env.source, quote: env.quote, gpuPools: env.gpuPools, create, v2 };
  const changes = new Map<N, PropChange>();
  const notes: string[] = [];
  const built: Record<string, Static> = {};
  const consumed = new Set<string>();
  const decided = new Set<string>();

  // One TODO per decision (lint reports each after the write): above its property, or above the statement of a one-line object.
  const todos: Array<{ node: N; field: string; advice: string }> = [];
  const multiline = env.source.slice(located.object.node.start!, located.object.node.end!).includes('\n');
  /** `builder`: the field has a v2 place, but this body cannot be moved there automatically. */
  /** A decision no run-time value could settle (a field with no v2 place, a known fallback list, a clash). */
  let settledOnlyByAPerson = false;
  /** `runtime`: a builder could not decide because the field's value is only known at run time. */
  const decide = (field: string, advice: string, builder = false, runtime = false): void => {
    if (decided.has(field)) return;
    decided.add(field);
    const value = body.props.get(field)?.static;
    if (!runtime || value === undefined || isKnown(value)) settledOnlyByAPerson = true;
    const prop = body.props.get(field);
    if (!prop) return;
    const what = builder ? 'cannot be migrated automatically in' : 'has no v2 equivalent in';
    plan.findings.push(finding('removed-field', prop.prop.node, `${field} ${what} ${op.id}: ${advice}`));
    todos.push({ node: multiline ? prop.prop.node : statementNode(located.object), field, advice });
  };
  const flushTodos = (): void => {
    for (const t of todos.splice(0)) {
      const todo = todoEdit(env.source, t.node, 'removed-field', `${t.field}: ${t.advice}`);
      if (todo) plan.universal.push(todo);
    }
  };
  /** v1 fields of a builder that decided: they stay as written, covered by its decision (not checked against v2). */
  const pending = new Set<string>();

  for (const id of mapping.builders) {
    const out = BUILDERS[id](input);
    // A v2 field the body already sets (code half on v2) is not written twice: the v1 fields wait for a person.
    const clash = out.writes.find((w) => body.props.has(w.key) && !out.consumes.includes(w.key));
    if (clash) {
      out.decisions.push(...out.consumes.map((field) => ({ field, advice: `it belongs in ${clash.key}, which this body already sets: merge it into ${clash.key} by hand.` })));
      out.consumes = [];
      out.writes = [];
    }
    for (const d of out.decisions) decide(d.field, d.advice, true, !clash);
    if (out.decisions.length) {
      for (const [key, rule] of Object.entries(mapping.fields)) {
        if (rule.kind === 'build' && rule.builder === id && body.props.has(key) && !out.consumes.includes(key)) pending.add(key);
      }
    }
    if (!out.consumes.length && !out.writes.length) continue;
    const props = out.consumes.map((k) => body.props.get(k)!).sort((a, b) => a.prop.node.start! - b.prop.node.start!);
    const text = out.writes.map((w) => `${w.key}: ${w.text}`).join(', ');
    props.forEach((p, i) => changes.set(p.prop.node, i === 0 && text ? { kind: 'replace', text } : { kind: 'remove' }));
    for (const k of out.consumes) consumed.add(k);
    for (const w of out.writes) built[w.key] = w.value;
    notes.push(...out.notes);
  }
  for (const [key, prop] of body.props) {
    if (consumed.has(key) || decided.has(key) || pending.has(key)) continue;
    const rule = mapping.fields[key];
    if (!rule || rule.kind === 'keep' || rule.kind === 'build') {
      built[key] = prop.static;
      continue;
    }
    if (rule.kind === 'rename' && body.props.has(rule.to)) decide(key, `it is ${rule.to} in v2, which this body already sets: keep one.`, true);
    else if (rule.kind === 'rename') {
      changes.set(prop.prop.node, { kind: 'rename', to: rule.to });
      built[rule.to] = prop.static;
      notes.push(`${key} → ${rule.to}`);
    } else if (rule.kind === 'decision') decide(key, rule.advice);
    else if (rule.kind === 'drop') {
      changes.set(prop.prop.node, { kind: 'remove' });
      plan.findings.push(finding('dropped-field', prop.prop.node, `${key} was removed from ${op.id}: ${rule.advice}`));
    }
  }
  const append: string[] = [];
  const canInsert = !body.spreads.length && !body.writes.length;
  if (create && canInsert) {
    for (const r of mapping.required ?? []) {
      if (r.unlessPresent.some((k) => body.props.has(k)) || built[r.key] !== undefined) continue;
      append.push(`${r.key}: ${toSource(r.value, env.quote)}`);
      built[r.key] = r.value as Static;
      notes.push(`${r.key} ${JSON.stringify(r.value)} added (${r.why})`);
    }
  }
  // A missing v2-required field (name) that a v1-default warning already reports does not block the rest.
  const warned = create && canInsert && !v2 ? planDefaults(plan, mapping, body, env, root, op, append, built) : new Set<string>();
  planWrites(plan, body, mapping, op, decide, notes);

  // Fields only the values at run time can settle (a volume size, an argv built by a function), v1 fields
  // written into the object after it is built, or spread into it: the body goes through the run-time adapter where
  // it is used, instead of a partial rewrite that holds its request or misses the later writes.
  // A spread, or a write whose field is only known at run time (`body[key] = value`), brings fields the
  // tool cannot see (v1 ones among them, or nothing is v1 there): the same.
  const laterV1Writes = body.writes.some((w) => (mapping.fields[w.key]?.kind ?? 'keep') !== 'keep');
  if (!v2 && !settledOnlyByAPerson && (decided.size || laterV1Writes || body.spreads.length || body.opaqueWrites.length)) {
    const carriers = site.body.kind === 'value' && site.body.carriers.length ? site.body.carriers : [located.object];
    const adapted = adaptLiteral(carrierFor(carriers, site)!, op, root, env);
    if (adapted) return adapted;
  }
  flushTodos();
  if (canInsert) bodyAudit.onBody?.({ operation: op.id, schema: mapping.v2Schema, body: built, line: located.object.node.loc?.start.line ?? 0, v2 });
  const changed = changes.size > 0 || append.length > 0 || plan.specific.length > 0;
  if (!changed) return plan.findings.length || plan.universal.length ? plan : null;
  // A body v2 would still reject (a value below a minimum, a field the map does not know) is migrated as
  // far as the map goes all the same: v2 answers it with a 422 naming the problem, and a TODO says what.
  const problems = canInsert ? schemaProblems(mapping, built, warned) : [];
  if (problems.length) {
    const message = `The migrated ${op.id} body is still rejected by the v2 schema (${problems.join('; ')}): v2 answers 422 until it is fixed; the fields the map knows were migrated.`;
    plan.findings.push(finding('v2-schema', located.object.node, message));
  }
  plan.specific.push(...objectEdits(env.source, located.object, changes, append));
  if (notes.length) plan.findings.push(finding('body-field', located.object.node, `${op.id} body for v2: ${notes.join('; ')}.`));
  if (!v2) {
    for (const spread of body.spreads) {
      plan.findings.push(finding('opaque-body', spread.node, `The spread in this ${op.id} body is not verified: fields it brings in must be v2 fields too (${bodyChecklist(mapping)}).`));
    }
  }
  return plan;
}

/**
 * A body the tool cannot see into is unknown, never absent: wrapped in the operation's run-time adapter
 * where the file can import it, or the request is held on v1 with the fields to check. A body whose
 * fields v2 kept as they were (registries, volume updates) needs neither.
 */
function planUnseenBody(plan: BodyPlan, carrier: P | undefined, op: V1Operation, root: P, env: BodyEnv, v2: boolean): void {
  const id = op.id as BodyOperationId;
  const wrapped = carrier ? adapterCallOf(carrier.node) : null;
  if (wrapped) {
    plan.findings.push(finding('body-adapter', root.node, `The body of ${label(op)} is reshaped at run time by ${adapterName(wrapped ?? id)}(…): review the fields your code sends, then build the v2 body in the code and remove the adapter.`, false));
    return;
  }
  if (v2 || !needsAdapter(id)) return;
  const file = carrier ? currentProject()?.fileAt(carrier.node.start!).file : undefined;
  const edit = carrier && file && env.adapters ? wrapInAdapter(env.source, carrier, id, file) : null;
  if (edit) {
    plan.specific.push(edit);
    plan.findings.push(finding('body-adapter', root.node, `The body of ${label(op)} is built at run time, so its v1 fields cannot be rewritten in place: the fix wraps it in ${adapterName(id)}(…), a generated adapter (${ADAPTER_BASENAME} next to this code) that reshapes them for v2 when the request is sent and, before it is sent, throws on a field v2 has no place for or a value v2 would reject; review the fields your code sends.`));
    return;
  }
  const why = !env.adapters ? 'adapters are turned off in the config' : !carrier ? 'the tool cannot tell which expression holds it' : 'this file cannot import the generated adapter (CommonJS)';
  // Sent to v2 as it is: a v1 field in it makes v2 answer 422, which is louder than v1's 410 and says which field.
  const advice = `its body is built where v2-migrate cannot see it, and ${why}: build the v2 body by hand (${bodyChecklist(mappingOf(op))})`;
  plan.findings.push(finding('opaque-body', root.node, `The body of ${label(op)} is built where v2-migrate cannot see it, and ${why}; it goes to v2 as it is (v2 rejects a v1 field with 422): migrate it by hand, checking it against v2: ${bodyChecklist(mappingOf(op))}.`));
  const todo = todoEdit(env.source, statementNode(root), 'opaque-body', advice);
  if (todo) plan.universal.push(todo);
}

const mappingOf = (op: V1Operation): BodyMapping => bodyMappingFor(op.id)!;

/**
 * Where to wrap a body in its adapter: the innermost carrier in a function that also writes the
 * request's path (so only this operation's bodies pass there, and a typed parameter on the way keeps
 * its v1 type), else the outermost one (the caller's own expression).
 */
function carrierFor(carriers: readonly P[], site: HttpSite): P | undefined {
  const pathNodes = site.url.filter((piece) => piece.kind === 'text' && !piece.text.includes('://') && !piece.origin.declared).map((piece) => piece.origin.path.node);
  const within = (outer: N, inner: N): boolean => inner.start! >= outer.start! && inner.end! <= outer.end!;
  for (const c of carriers) {
    const fn = enclosingFunction(c);
    if (fn && pathNodes.some((n) => within(fn.node, n))) return c;
  }
  return carriers.at(-1);
}

/** A body literal wrapped in its operation's adapter, or null when this file cannot import one. */
function adaptLiteral(object: P, op: V1Operation, root: P, env: BodyEnv): BodyPlan | null {
  const id = op.id as BodyOperationId;
  const file = currentProject()?.fileAt(object.node.start!).file;
  const edit = file && env.adapters ? wrapInAdapter(env.source, object, id, file) : null;
  if (!edit) return null;
  const message = `The body of ${label(op)} is completed at run time (values or later writes only known then), so it is not rewritten in place: the fix wraps it in ${adapterName(id)}(…), a generated adapter (${ADAPTER_BASENAME} next to this code) that reshapes it for v2 when the request is sent and throws on a field v2 has no place for; review the fields your code sends.`;
  return { specific: [edit], universal: [], findings: [finding('body-adapter', root.node, message)] };
}

/** The statement holding a node (where a TODO goes when the object is on one line). */
function statementNode(at: P): N {
  let p = at;
  while (p.parentPath && !/Statement|Declaration$/.test(p.value.type ?? '')) p = p.parentPath;
  return p.value;
}

function planDefaults(plan: BodyPlan, mapping: BodyMapping, body: BodyObject, env: BodyEnv, root: P, op: V1Operation, append: string[], built: Record<string, Static>): Set<string> {
  const warned = new Set<string>();
  for (const d of mapping.v1Defaults ?? []) {
    if (d.absent.some((k) => body.props.has(k)) || d.unlessPresent?.some((k) => body.props.has(k))) continue;
    if (d.onlyWhen && !d.onlyWhen.values.includes(body.props.get(d.onlyWhen.field)?.static)) continue;
    if (env.preserveV1Defaults) {
      append.push(`${d.key}: ${toSource(d.value, env.quote)}`);
      built[d.key] = d.value as Static;
      plan.findings.push({ ...finding('v1-default', body.object.node, `${op.id} relied on the v1 default for ${d.what}; written out explicitly (preserveV1Defaults).`), fixable: true });
    } else {
      plan.findings.push(finding('v1-default', root.node, `${op.id} relies on the v1 default for ${d.what}, which v2 does not apply: set it explicitly, or set "preserveV1Defaults": true to have it written.`));
      warned.add(d.key);
    }
  }
  return warned;
}

/** `body.imageName = x`: renamed in place; restructured or removed fields need a person. */
function planWrites(plan: BodyPlan, body: BodyObject, mapping: BodyMapping, op: V1Operation, decide: (field: string, advice: string) => void, notes: string[]): void {
  for (const w of body.writes) {
    const rule = mapping.fields[w.key];
    if (!rule || rule.kind === 'keep') continue;
    if (rule.kind === 'rename' && body.props.has(rule.to)) {
      plan.findings.push(finding('removed-field', w.property.node, `${w.key} is ${rule.to} in v2, which this body already sets: keep one.`));
    } else if (rule.kind === 'rename') {
      plan.specific.push({ start: w.property.node.start!, end: w.property.node.end!, text: rule.to, node: body.object.node });
      notes.push(`${w.key} → ${rule.to} (assignment)`);
    } else if (rule.kind === 'decision') {
      decide(w.key, rule.advice);
      if (!body.props.has(w.key)) plan.findings.push(finding('removed-field', w.property.node, `${w.key} has no v2 equivalent in ${op.id}: ${rule.advice}`));
    } else if (rule.kind === 'drop') {
      plan.findings.push(finding('removed-field', w.property.node, `${w.key} is set by a later assignment, but ${op.id} has no such field in v2: remove the assignment.`));
    } else plan.findings.push(finding('opaque-body', w.property.node, `${op.id}: ${w.key} is set by a later assignment and moves into a nested v2 field: move it into the body literal or rewrite it by hand.`));
  }
}

export type { HttpMethod };
