import { templatesExtending } from '../map/match.js';
import { HOLE } from '../url/pieces.js';
import { planUrlChanges, templateOf } from '../url/plan.js';
import { displayPath, shapeOf, type Bases } from '../url/shape.js';
import { pieceEditsToSource, type SourceEdit } from '../js/edits.js';
import type { N, P } from '../js/scope.js';
import type { UrlPiece } from '../js/values.js';
import { finding, type PlannedFinding } from './request.js';

export interface LiteralPlan {
  edits: SourceEdit[];
  findings: PlannedFinding[];
}

/** Literal text pieces of a string or template literal (expressions stay holes: no resolution here). */
function piecesOf(path: P): UrlPiece[] {
  const node = path.node;
  if (node.type === 'StringLiteral') return [{ kind: 'text', text: node.value, origin: { path } }];
  const out: UrlPiece[] = [];
  node.quasis.forEach((q: N, i: number) => {
    if (q.value.cooked) out.push({ kind: 'text', text: q.value.cooked, origin: { path: path.get('quasis', i) } });
    if (i < node.expressions.length) out.push({ kind: 'hole', origin: { path: path.get('expressions', i) }, label: '…' });
  });
  return out;
}

/**
 * A v1 URL written in a literal that no understood request uses (a constant for code the tool cannot
 * follow, a test expectation, a config object): rewrite what holds whatever the request is (base and
 * path renames), report what depends on the request (actions, /update, reset, embedded URLs).
 */
export function planLiteral(path: P, source: string, bases: Bases): LiteralPlan | null {
  const pieces = piecesOf(path);
  const flat = pieces.map((p) => (p.kind === 'text' ? p.text : HOLE)).join('');
  const hit = bases.legacy.find((b) => flat.includes(b));
  if (!hit) return null;
  const node = path.node;
  const plan: LiteralPlan = { edits: [], findings: [] };
  const shape = shapeOf(pieces, bases);
  if (shape.base !== 'legacy') {
    plan.findings.push(finding('embedded-url', node, `A REST v1 URL (${hit}) sits inside a longer string; the request it stands for cannot be seen, so migrate it by hand.`));
    return plan;
  }
  const template = templateOf(shape);
  const display = displayPath(shape);
  const rewrite = (withPath: boolean): boolean => {
    const changes = planUrlChanges(shape, withPath ? template : undefined, bases);
    const edits = changes && changes.map((c) => ({ c, e: pieceEditsToSource(pieces, c.edits, source, true) }));
    if (!edits || edits.some((x) => !x.e)) return false;
    for (const { c, e } of edits) {
      plan.edits.push(...e!);
      const message =
        c.ruleId === 'openapi-url'
          ? `The v1 OpenAPI schema URL becomes ${bases.target}/openapi.json: regenerate typed clients from the v2 schema.`
          : c.ruleId === 'base-url'
            ? `REST v1 base URL ${shape.matchedBase} becomes ${bases.target}: v1 was retired on 2026-11-15.`
            : c.ruleId === 'path-param'
              ? `Path parameter ${c.what}: v2 names every path parameter {id}.`
              : `${template!.v1Path} is /v2${template!.v2Path} in v2 (${c.what}).`;
      plan.findings.push(finding(c.ruleId, node, message));
    }
    return true;
  };
  if (template) {
    const change = template.operations.find((o) => o.change !== 'path')?.change;
    if (!change) {
      if (!rewrite(true)) plan.findings.push(finding('unresolved-url', node, `The v1 URL ${display} cannot be edited in place; migrate it by hand.`));
      return plan;
    }
    const rule = change === 'action' ? 'pod-action' : change === 'update-alias' ? 'update-alias' : 'pod-reset';
    const what = change === 'removed' ? 'has no v2 equivalent' : `changes method or body in v2 (${template.operations[0]!.method} ${template.v1Path} → ${template.operations[0]!.v2!.method} /v2${template.v2Path})`;
    plan.findings.push(finding(rule, node, `This v1 URL is for ${template.v1Path}, which ${what}; the request that uses it is not visible here, so it was not rewritten.`, false));
    return plan;
  }
  const literalSegments = shape.segments.map((s) => s.text);
  const prefixEnd = literalSegments.indexOf(null);
  const prefix = (prefixEnd < 0 ? literalSegments : literalSegments.slice(0, prefixEnd)) as string[];
  if (prefix[0] === 'billing') {
    plan.findings.push(finding('resource-path', node, `The billing URL ${display} is completed elsewhere: /billing/endpoints must become /billing/serverless (/v2/billing/endpoints bills public endpoints) and /billing/networkvolumes /billing/network-volumes; rewrite it by hand.`, false));
    return plan;
  }
  if (shape.segments.length === 0 || prefixEnd >= 0 || templatesExtending(prefix).length) {
    if (!rewrite(false)) plan.findings.push(finding('unresolved-url', node, `The v1 URL ${display} cannot be edited in place; migrate it by hand.`));
    return plan;
  }
  plan.findings.push(finding('unknown-path', node, `${display} is not a documented REST v1 path, so v2-migrate does not guess its v2 form.`));
  return plan;
}
