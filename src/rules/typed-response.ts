import { ERROR_SHAPE, LIST_ENVELOPES } from '../map/responses.js';
import type { V1Operation } from '../map/operations.js';
import type { SourceEdit } from '../js/edits.js';
import { keyName, lookupScope, memberName } from '../js/scope.js';
import type { P, t } from '../js/ast.js';
import { pathsMatching } from '../js/walk.js';
import type { HttpSite } from '../js/clients/model.js';
import { finding, type PlanEnv, type PlannedFinding } from './plan.js';

export interface TypedResponsePlan {
  specific: SourceEdit[];
  findings: PlannedFinding[];
  /** Every read of a list's data got `then` (a client-side filter). */
  filtered: boolean;
}

/** The `{ data, error }` result of an openapi-fetch call: where each part is read. */
function resultParts(call: P): { reads: Map<'data' | 'error', P[]>; followed: boolean } {
  const reads = new Map<'data' | 'error', P[]>([['data', []], ['error', []]]);
  let p: P = call;
  while (p.parentPath && ['AwaitExpression', 'ParenthesizedExpression', 'TSAsExpression'].includes(p.parentPath.value?.type)) p = p.parentPath;
  const parent = p.parentPath?.value;
  // (await client.GET(…)).data
  if ((parent?.type === 'MemberExpression' || parent?.type === 'OptionalMemberExpression') && p.name === 'object') {
    const name = memberName(parent);
    if (name === 'data' || name === 'error') reads.get(name)!.push(p.parentPath);
    return { reads, followed: name === 'data' || name === 'error' };
  }
  // const { data, error } = await client.GET(…)
  if (parent?.type === 'VariableDeclarator' && p.name === 'init' && parent.id.type === 'ObjectPattern') {
    const pattern = p.parentPath.get('id') as P<t.ObjectPattern>;
    pattern.node.properties.forEach((prop, i) => {
      const key = prop.type === 'ObjectProperty' ? keyName(prop.key, prop.computed) : null;
      if (prop.type !== 'ObjectProperty' || (key !== 'data' && key !== 'error') || prop.value.type !== 'Identifier') return;
      const local = pattern.get('properties', i, 'value') as P<t.Identifier>;
      reads.get(key)!.push(...references(local));
    });
    return { reads, followed: true };
  }
  return { reads, followed: false };
}

/** Reads of a variable (not property keys, not destructuring targets). */
function references(id: P<t.Identifier>): P[] {
  const name = id.node.name;
  const scope = lookupScope(id, name);
  if (!scope) return [];
  return pathsMatching(scope.path, (n): n is t.Identifier => n.type === 'Identifier' && n.name === name && n !== id.node).filter((p) => {
    const parent = p.parentPath?.value;
    if (parent?.type === 'ObjectProperty' && p.name === 'key') return false;
    if ((parent?.type === 'MemberExpression' || parent?.type === 'OptionalMemberExpression') && p.name === 'property' && !parent.computed) return false;
    if (parent?.type === 'ObjectProperty' && p.parentPath.parentPath?.parentPath?.value?.type === 'ObjectPattern') return false;
    return lookupScope(p, name) === scope;
  });
}

/** `x` → `x?.key` (then `then`: `x?.key.filter(…)` short-circuits whole on an error); a shorthand `{ x }` → `{ x: x?.key }`. */
function unwrapRead(read: P, key: string, env: PlanEnv, then: string): SourceEdit {
  const parent = read.parentPath?.value;
  if (parent?.type === 'ObjectProperty' && parent.shorthand && read.name === 'value') {
    const text = env.source.slice(read.node.start!, read.node.end!);
    return { start: parent.start!, end: parent.end!, text: `${text}: ${text}?.${key}${then}`, node: parent };
  }
  return { start: read.node.end!, end: read.node.end!, text: `?.${key}${then}`, node: read.node };
}

/**
 * openapi-fetch results on a migrated list or error: `data` of a list is `{ pods }` in v2, so each read
 * of it becomes `data?.pods` (still undefined on an error, as before); `error` is an RFC 9457 problem,
 * so `error.message` becomes `error.detail`.
 */
export function planTypedResponse(site: HttpSite, op: V1Operation, root: P, env: PlanEnv, then = ''): TypedResponsePlan | null {
  if (site.client !== 'openapi-fetch') return null;
  const plan: TypedResponsePlan = { specific: [], findings: [], filtered: false };
  const { reads, followed } = resultParts(site.call);
  const envelope = LIST_ENVELOPES[op.id];
  if (envelope) {
    if (!followed) plan.findings.push(finding(envelope.rule, root.node, `GET ${op.path} returns { ${envelope.key}: [...] } in v2 instead of a bare array; the data of this call leaves what v2-migrate can follow: read data?.${envelope.key}.`, false));
    for (const read of reads.get('data')!) plan.specific.push(unwrapRead(read, envelope.key, env, then));
    plan.filtered = followed && reads.get('data')!.length > 0;
    if (reads.get('data')!.length) plan.findings.push(finding(envelope.rule, root.node, `GET ${op.path} returned a bare array in v1; v2 returns { ${envelope.key}: [...] }: data?.${envelope.key} is read where data was, so the code still sees an array (or undefined on an error).`));
  }
  for (const read of reads.get('error')!) {
    const n = read.node;
    const m = /^(\s*\??\.\s*)([A-Za-z_$][\w$]*)/.exec(env.source.slice(n.end!, n.end! + 40));
    const to = m && Object.hasOwn(ERROR_SHAPE.renames, m[2]!) ? ERROR_SHAPE.renames[m[2]!]! : null;
    if (!to) continue;
    const at = n.end! + m![1]!.length;
    plan.specific.push({ start: at, end: at + m![2]!.length, text: to, node: n });
    plan.findings.push(finding('error-shape', n, `v2 errors are RFC 9457 problems ({ title, status, detail, errors }): error.${m![2]} is error.${to}.`));
  }
  return plan.specific.length || plan.findings.length ? plan : null;
}
