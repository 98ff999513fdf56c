import type { PathTemplate, V1Operation } from '../map/index.js';
import { isSchemaUrl, type UrlChange } from '../url/plan.js';
import type { PieceEdit } from '../url/pieces.js';
import { literalTypeEdits } from '../js/literal-types.js';
import { pushTo } from '../util/multimap.js';
import { shapeOf, type UrlShape } from '../url/shape.js';
import type { SiteInstance } from '../js/analyze.js';
import { insertProperty, pieceEditsToSource, replaceNode, setArgument, todoEdit, type SourceEdit } from '../js/edits.js';
import type { BodySlot, HttpSite, Insertion } from '../js/clients/model.js';
import { keyName } from '../js/scope.js';
import type { N, P, t } from '../js/ast.js';
import { opaqueWritesTo, writesTo } from '../js/body/props.js';
import { unhandled } from '../js/exhaustive.js';
import { isParam } from '../map/match.js';
import type { UrlPiece } from '../js/values.js';
import { finding, type Anchor, type PlanEnv, type RequestPlan } from './plan.js';
import { planBody, type BodyPlan } from './body.js';
import { planResponse, planV2Query } from './response.js';
import { planRequestFlow, type RequestSink } from '../plan/flow.js';
import { baseChangeMessage } from '../plan/messages.js';

function literalNodes(pieces: readonly UrlPiece[]): N[] {
  return pieces.filter((p) => p.kind === 'text').map((p) => p.origin.path.node);
}

/** The statement that contains a node: where a TODO comment goes. */
export function statementOf(path: P): P {
  let p = path;
  while (p.parentPath && !/Statement|Declaration$/.test(p.value.type ?? '')) p = p.parentPath;
  while (p.parentPath?.value.type === 'ExportNamedDeclaration') p = p.parentPath;
  return p;
}

function insertionEdits(env: PlanEnv, insert: Insertion, objectText: string): SourceEdit[] {
  const valueText = insert.form === 'string' ? `JSON.stringify(${objectText})` : objectText;
  switch (insert.kind) {
    case 'prop':
      return insertProperty(env.source, insert.object, `${insert.key}: ${valueText}`);
    case 'arg':
      return setArgument(env.source, insert.call, insert.index, insert.wrapIn ? `{ ${insert.wrapIn}: ${valueText} }` : valueText);
    case 'replace':
      return [replaceNode(insert.path, valueText)];
    default:
      return unhandled(insert);
  }
}

/** Edits that give a request the JSON body `body`, or the reason it cannot be done. */
function bodyEdits(env: PlanEnv, slot: BodySlot, body: Record<string, string>, plan: RequestPlan): SourceEdit[] | string {
  const q = env.quote;
  const entries = Object.entries(body).map(([k, v]) => `${k}: ${q}${v}${q}`);
  const objectText = `{ ${entries.join(', ')} }`;
  if (slot.kind === 'absent') return slot.insert ? insertionEdits(env, slot.insert, objectText) : 'the request has no place for a body';
  if (slot.kind === 'opaque') return slot.why ?? 'its body is built where the tool cannot follow it';
  const n = slot.value.path.node;
  const emptyString = n.type === 'StringLiteral' && /^\s*(\{\s*\})?\s*$/.test(n.value);
  if (emptyString) return [replaceNode(slot.value.path, slot.form === 'string' ? `JSON.stringify(${objectText})` : objectText)];
  if (n.type !== 'ObjectExpression') return 'the call already sends a body';
  const object = slot.value.path as P<t.ObjectExpression>;
  if (object.node.properties.some((p) => p.type === 'ObjectProperty' && Object.keys(body).includes(keyName(p.key, p.computed) ?? ''))) return 'its body already sets the action';
  // Whatever else the body carries (a gpuCount, fields written later) stays: v2 refuses it next to the
  // action (422) and a finding says so, rather than the tool dropping what the code asked for.
  for (const extra of actionExtras(object)) plan.findings.push(finding('removed-field', extra.node, `${extra.what} is sent next to the action, and POST /v2/pods/{id}/action takes only { action }: v2 rejects the request (422) while it is there. Remove it (a v2 pod starts with the GPUs it was created with; change them by creating a pod with the count you need).`, false));
  return object.node.properties.length ? insertProperty(env.source, object, entries.join(', '), { beforeSpreads: true }) : [replaceNode(object, objectText)];
}

/** What a pod action's body object carries besides the action: its own properties and fields written into it later. */
function actionExtras(object: P<t.ObjectExpression>): Array<{ node: N; what: string }> {
  const out: Array<{ node: N; what: string }> = [];
  for (const p of object.node.properties) out.push({ node: p, what: p.type === 'SpreadElement' ? 'A spread' : `${keyName(p.key, p.computed) ?? 'A field'}` });
  const holder = object.parentPath?.value;
  if (holder?.type !== 'VariableDeclarator' || holder.id.type !== 'Identifier' || holder.init !== object.node) return out;
  const id = object.parentPath.get('id') as P<t.Identifier>;
  for (const w of writesTo(id, new Map())) out.push({ node: w.property.node, what: w.key });
  for (const w of opaqueWritesTo(id)) out.push({ node: w.node, what: `What ${w.node.type === 'CallExpression' ? 'Object.assign adds' : 'is written'} to ${id.node.name} at run time` });
  return out;
}

/** Edits that change the request's method to `to`, or the reason it cannot be done. */
function methodEdits(env: PlanEnv, site: HttpSite, to: string): SourceEdit[] | string {
  const m = site.method;
  if (m.kind === 'member') {
    // `api.post(…)`, or computed with a string (`api['post'](…)`, whose quotes stay as written).
    const node = m.member.node;
    const name = node.type === 'Identifier' ? node.name : node.type === 'StringLiteral' ? node.value : null;
    if (name === null || !name.toLowerCase().startsWith(m.value.toLowerCase())) return 'the method name is not a plain HTTP method';
    const upper = name.slice(0, m.value.length) === m.value.toUpperCase();
    const renamed = (upper ? to.toUpperCase() : to.toLowerCase()) + name.slice(m.value.length);
    const quote = node.type === 'StringLiteral' ? env.source[node.start!]! : '';
    return [replaceNode(m.member, quote + renamed + quote)];
  }
  if (m.kind !== 'pieces' || m.pieces.length !== 1 || m.pieces[0]!.kind !== 'text') return 'its method is not a literal the tool can see';
  const text = m.pieces[0].text;
  const replacement = text === text.toLowerCase() ? to.toLowerCase() : to;
  return pieceEditsToSource(m.pieces, [{ piece: 0, start: 0, end: text.length, text: replacement }], env.source) ?? 'its method literal cannot be edited in place';
}

function urlEdits(env: PlanEnv, site: HttpSite, change: UrlChange, universal = false): SourceEdit[] | null {
  return pieceEditsToSource(site.url, change.edits, env.source, universal);
}

export { needsPerson } from '../plan/policy.js';

/**
 * Why this request must not be sent to v2 as its plan leaves it, or null. v1 answers 410 to everything,
 * so a request left on v1 is broken anyway: an unfinished request moves with its base whenever v2 will
 * refuse it loudly — a v1-only path answers 404, a v1 body field kept answers 422 (every v2 request
 * schema has `unevaluatedProperties: false`), a generated adapter throws. What stays on v1 is only what
 * v2 could answer with 200 and another meaning: a path built at run time, the /billing/endpoints trap
 * left unrewritten, a list filter v2 ignores, a list read as an array where the tool cannot unwrap it.
 */
export function blockReason(plan: RequestPlan): string | null {
  if (plan.blocks) return plan.blocks;
  for (const f of plan.findings) {
    if (f.fixable) continue;
    switch (f.ruleId) {
      case 'dynamic-path':
        return `dynamic-path: its path is built at run time, so what v2 would answer cannot be known`;
      case 'list-envelope':
        if (f.severity === 'error') return 'list-envelope: its list is read as a bare array where the tool cannot unwrap it';
        break;
      default:
        break;
    }
  }
  if (!plan.understood && !plan.findings.some((f) => f.ruleId === 'unknown-path')) return 'its URL is not a v1 operation the tool knows';
  return null;
}

/**
 * A path change's edits, with the literal types that must follow a rewritten string literal
 * (literal-types.ts), or why it waits. The plan touches those type members, so requests that would
 * leave the old value there (held or marked ones) keep the others from changing them.
 */
function pathEdits(plan: RequestPlan, env: PlanEnv, site: HttpSite, change: UrlChange): SourceEdit[] | string | null {
  const edits = urlEdits(env, site, change);
  if (!edits) return null;
  const byPiece = new Map<number, PieceEdit[]>();
  for (const e of change.edits) pushTo(byPiece, e.piece, e);
  for (const [index, pieceEdits] of byPiece) {
    const piece = site.url[index];
    if (piece?.kind !== 'text' || piece.origin.path.node?.type !== 'StringLiteral') continue;
    let value = piece.text;
    for (const e of [...pieceEdits].sort((a, b) => b.start - a.start)) value = value.slice(0, e.start) + e.text + value.slice(e.end);
    const typed = literalTypeEdits(piece.origin.path as P<t.StringLiteral>, value, env.source);
    if (typeof typed === 'string') return `${JSON.stringify(piece.text)} cannot simply become ${JSON.stringify(value)}: ${typed}`;
    if (!typed) continue;
    edits.push(...typed.edits);
    for (const n of typed.touched) plan.touched.add(n);
  }
  return edits;
}

/** Plan one request: findings, plus the edits that migrate it where that is certain. */
export function planRequest(inst: SiteInstance, env: PlanEnv): RequestPlan | null {
  const plan = planParts(inst, env);
  // A request v2 could answer with another meaning keeps the base written in its own URL too (a shared
  // base constant is held by the coverage check instead).
  const blocked = plan && blockReason(plan);
  if (plan && blocked) holdInlineBase(plan, `this request cannot move to v2 as it is (${blocked})`);
  return plan;
}

function planParts(inst: SiteInstance, env: PlanEnv): RequestPlan | null {
  const { site, root } = inst;
  const touched = new Set<N>([...site.touched, ...literalNodes(site.url), ...(site.method.kind === 'pieces' ? literalNodes(site.method.pieces) : [])]);
  const plan: RequestPlan = { instance: inst, universal: [], specific: [], ifRewritten: [], understood: false, findings: [], touched };
  const declared = site.url[0]?.kind === 'text' && site.url[0].origin.declared === true;
  const request = { url: site.url, shape: shapeOf(site.url, env.bases), method: methodOf(site), declared };
  const { shape, template, op, to } = planRequestFlow(request, requestSink(plan, env, inst));
  if (to === 'other' || to === 'unknown-base') return plan.findings.length ? plan : null;
  plan.understood = !!template || shape.base === 'target' || isSchemaUrl(shape);
  if (to === 'v2') {
    plan.onV2 = true;
    // What still reads or declares v1's response shape around it (after the write: what was left for a person).
    if (op) addBody(plan, planResponse(inst, op, env, true));
    return plan.findings.length || plan.specific.length || plan.universal.length ? plan : null;
  }
  if (op) addBody(plan, planBody(site, op, root, env, false));
  if (op) addBody(plan, planResponse(inst, op, env));
  return plan;
}

/** How the request flow (plan/flow.ts) writes a JS request's edits and findings: Babel source edits into its plan. */
function requestSink(plan: RequestPlan, env: PlanEnv, inst: SiteInstance): RequestSink<SourceEdit> {
  const { site, root } = inst;
  // fetch sends a string body as text/plain unless the headers say otherwise; v2 wants JSON.
  const h = site.headers;
  const addContentType = site.contentTypeByHand && h.kind === 'object' && h.contentType === false;
  const contentTypeUnseen = site.contentTypeByHand && !addContentType && !(h.kind === 'object' && h.contentType === true);
  return {
    engine: 'js',
    bases: env.bases,
    report: (ruleId, message) => void plan.findings.push(finding(ruleId, root.node, message, false)),
    fix: (ruleId, message, edits) => {
      plan.specific.push(...edits);
      plan.findings.push(finding(ruleId, root.node, message));
      return true;
    },
    path: (change) => pathEdits(plan, env, site, change),
    method: (to) => methodEdits(env, site, to),
    jsonBody: (body) => bodyEdits(env, site.body, body, plan),
    // The base moves at once, as a universal edit: the pipeline settles a base shared between requests.
    moveBase: (shape, base) => {
      for (const c of base) addBaseChange(plan, env, site, shape, c);
      return () => undefined;
    },
    writeTodo: (ruleId, todo) => {
      const edit = todoEdit(env.source, statementOf(root).node, ruleId, todo);
      if (edit) plan.universal.push(edit);
    },
    pathParams: (template) => typedClientParamEdits(env, site, template),
    actionNote: contentTypeUnseen ? ' Make sure it sends Content-Type: application/json (the tool cannot see its headers).' : '',
    afterAction: () => {
      if (!addContentType || !plan.specific.length) return;
      const q = env.quote;
      plan.ifRewritten.push(...insertProperty(env.source, h.objects[0]!, `${q}Content-Type${q}: ${q}application/json${q}`, { beforeSpreads: true }).map((e) => ({ ...e, universal: true })));
    },
    checkOnV2: (op) => {
      addBody(plan, planBody(site, op, root, env, true));
      addBody(plan, planV2Query(inst, op, env));
    },
  };
}

function methodOf(site: HttpSite): V1Operation['method'] | undefined {
  return (site.method.value ?? undefined) as V1Operation['method'] | undefined;
}

/** A base written in the request's own call (not a shared constant) stays on v1, with the reason on its finding. */
function holdInlineBase(plan: RequestPlan, reason: string): void {
  const root = plan.instance.root.node;
  const own = new Set<Anchor>(literalNodes(plan.instance.site.url).filter((n) => n.start! >= root.start! && n.end! <= root.end!));
  plan.universal = plan.universal.filter((e) => !own.has(e.node));
  for (const f of plan.findings) {
    if (!f.fixable || f.ruleId !== 'base-url' || !own.has(f.anchor)) continue;
    f.fixable = false;
    f.message += ` Not rewritten: ${reason}.`;
  }
}

function addBody(plan: RequestPlan, body: (BodyPlan & { blocks?: string }) | null): void {
  if (!body) return;
  if (body.blocks) plan.blocks ??= body.blocks;
  plan.specific.push(...body.specific);
  plan.universal.push(...body.universal);
  plan.findings.push(...body.findings);
}

function addBaseChange(plan: RequestPlan, env: PlanEnv, site: HttpSite, shape: UrlShape, change: UrlChange): void {
  if (site.client === 'openapi-fetch') return addTypedClientBase(plan, env, site, shape, change);
  const edits = urlEdits(env, site, change, true);
  const piece = site.url[change.edits[0]!.piece];
  if (!edits || !piece || piece.kind !== 'text') return;
  const anchor = piece.origin.path.node;
  plan.universal.push(...edits);
  plan.findings.push(finding(change.ruleId, anchor, baseChangeMessage(change, shape.matchedBase, env.bases.target, piece.origin.envVar)));
}

/**
 * openapi-fetch: the generated v2 types have paths starting with /v2 on the server https://api.runpod.io,
 * so the client's baseUrl becomes the origin and each path template gets the /v2 prefix.
 */
function addTypedClientBase(plan: RequestPlan, env: PlanEnv, site: HttpSite, shape: UrlShape, change: UrlChange): void {
  const origin = env.bases.target.replace(/\/v2\/?$/, '');
  const baseEdits = pieceEditsToSource(site.url, change.edits.map((e) => ({ ...e, text: origin })), env.source, true);
  const at = shape.flat.at(shape.baseEnd);
  const pathPiece = at ? site.url[at.piece] : undefined;
  const basePiece = site.url[change.edits[0]!.piece];
  if (!baseEdits || !at || at.offset < 0 || !pathPiece || pathPiece.kind !== 'text' || !basePiece || basePiece.kind !== 'text' || pathPiece.origin.path.node === basePiece.origin.path.node) return;
  const prefix = pieceEditsToSource(site.url, [{ piece: at.piece, start: at.offset, end: at.offset, text: '/v2' }], env.source);
  if (!prefix) return;
  plan.universal.push(...baseEdits);
  plan.specific.push(...prefix);
  const anchor = basePiece.origin.path.node;
  plan.findings.push(finding('base-url', anchor, `REST v1 base URL ${shape.matchedBase} becomes ${origin} for this openapi-fetch client: the v2 schema's paths start with /v2 (added to each path).`));
  plan.findings.push(finding('openapi-types', anchor, `This openapi-fetch client's types come from the v1 schema: regenerate them from ${env.bases.target}/openapi.json (paths are /v2/…, every path parameter is {id}, bodies and responses changed), then fix what the type checker reports.`));
}

/** openapi-fetch `params: { path: { podId } }` → `{ id: podId }`: the keys follow the template's {id}. */
function typedClientParamEdits(env: PlanEnv, site: HttpSite, template: PathTemplate): SourceEdit[] {
  if (site.client !== 'openapi-fetch') return [];
  const init = site.call.node.arguments[1];
  if (init?.type !== 'ObjectExpression') return [];
  const names = new Set(template.v1Segments.filter(isParam).map((s) => s.slice(1, -1)));
  const prop = (obj: t.ObjectExpression, key: string): t.ObjectProperty | undefined =>
    obj.properties.find((p): p is t.ObjectProperty => p.type === 'ObjectProperty' && keyName(p.key, p.computed) === key);
  const params = prop(init, 'params')?.value;
  const pathObj = params?.type === 'ObjectExpression' ? prop(params, 'path')?.value : undefined;
  if (pathObj?.type !== 'ObjectExpression') return [];
  const edits: SourceEdit[] = [];
  for (const p of pathObj.properties) {
    const key = p.type === 'ObjectProperty' ? keyName(p.key, p.computed) : null;
    if (p.type !== 'ObjectProperty' || !key || !names.has(key) || key === 'id') continue;
    const value = env.source.slice(p.value.start!, p.value.end!);
    // `{ podId }` → `{ id: podId }`; `{ networkVolumeId: id }` → `{ id }`; otherwise only the key changes.
    if (p.shorthand || value === 'id') edits.push({ start: p.start!, end: p.end!, text: value === 'id' ? 'id' : `id: ${value}`, node: pathObj });
    else edits.push({ start: p.key.start!, end: p.key.end!, text: 'id', node: pathObj });
  }
  return edits;
}
