import { templatesCompatible } from '../map/match.js';
import { HOLE } from '../url/pieces.js';
import { isSchemaUrl, planUrlChanges, templateOf, type UrlChange } from '../url/plan.js';
import { displayPath, shapeOf, type Bases } from '../url/shape.js';
import { EMPTY_CTX } from '../js/context.js';
import { pieceEditsToSource, replaceNode, type SourceEdit } from '../js/edits.js';
import { memberName, type N, type P } from '../js/scope.js';
import { evalString, type UrlPiece } from '../js/values.js';
import { finding, type PlannedFinding } from './plan.js';

export interface LiteralPlan {
  edits: SourceEdit[];
  findings: PlannedFinding[];
}

/**
 * Literal text pieces of a string, a template literal or a `+` concatenation of them, without
 * resolving anything: expressions stay holes.
 */
function ownPieces(path: P): UrlPiece[] {
  const node = path.node;
  if (node.type === 'StringLiteral') return [{ kind: 'text', text: node.value, origin: { path } }];
  if (node.type === 'TemplateLiteral') {
    const out: UrlPiece[] = [];
    node.quasis.forEach((q: N, i: number) => {
      if (q.value.cooked) out.push({ kind: 'text', text: q.value.cooked, origin: { path: path.get('quasis', i) } });
      if (i < node.expressions.length) out.push({ kind: 'hole', origin: { path: path.get('expressions', i) }, label: '…' });
    });
    return out;
  }
  if (node.type === 'BinaryExpression' && node.operator === '+') return [...ownPieces(path.get('left')), ...ownPieces(path.get('right'))];
  return [{ kind: 'hole', origin: { path }, label: '…' }];
}

const flatText = (pieces: readonly UrlPiece[]): string => pieces.map((p) => (p.kind === 'text' ? p.text : HOLE)).join('');

const within = (inner: N, outer: N): boolean => inner.start >= outer.start && inner.end <= outer.end;

/**
 * `.replace('{podId}', id)` / `.replaceAll(…)` calls chained on the URL expression: the search
 * arguments that name placeholders, which must be renamed together with the placeholder.
 */
function placeholderSubstitutions(path: P): P[] {
  const out: P[] = [];
  let cur = path;
  for (;;) {
    const member = cur.parentPath;
    const call = member?.parentPath;
    if (member?.node.type !== 'MemberExpression' || member.name !== 'callee' || member.node.object !== cur.node) break;
    if (call?.node.type !== 'CallExpression' || !['replace', 'replaceAll'].includes(memberName(member.node) ?? '')) break;
    if (call.node.arguments.length) out.push(call.get('arguments', 0));
    cur = call;
  }
  return out;
}

/**
 * A v1 URL written in a literal that no understood request uses (a constant for code the tool cannot
 * follow, a test expectation, a config object): rewrite what holds whatever the request is (base and
 * path renames), report what depends on the request (actions, /update, reset, embedded URLs).
 *
 * `path` is a string literal, a template literal or a `+` concatenation. When its own text has no
 * legacy base, its interpolations are resolved (`${API}/endpoints/{endpointId}`): the base then
 * belongs to another literal, which is migrated and reported on its own, and only the path is
 * planned here.
 */
export function planLiteral(path: P, source: string, bases: Bases): LiteralPlan | null {
  const node = path.node;
  let pieces = ownPieces(path);
  let hit = bases.legacy.find((b) => flatText(pieces).includes(b));
  const external = !hit;
  if (external) {
    if (node.type === 'StringLiteral' || !pieces.some((p) => p.kind === 'text')) return null;
    pieces = evalString(path, EMPTY_CTX);
    hit = bases.legacy.find((b) => flatText(pieces).includes(b));
    if (!hit) return null;
  }
  const plan: LiteralPlan = { edits: [], findings: [] };
  const shape = shapeOf(pieces, bases);
  if (shape.base !== 'legacy') {
    if (!external) {
      plan.findings.push(finding('embedded-url', node, `A REST v1 URL (${hit}) sits inside a longer string; the request it stands for cannot be seen, so migrate it by hand.`));
      return plan;
    }
    // An interpolated base: it follows its constant to v2, but a path written after it is not checked.
    const flat = flatText(pieces);
    const after = flat.slice(flat.indexOf(hit!) + hit!.length);
    if (!/^\/[^\s/?#'"`]/.test(after)) return null;
    plan.findings.push(finding('embedded-url', node, `A REST v1 base (${hit}) is interpolated into a longer string with a path after it; the base follows its constant to v2, but the path is not checked, so migrate it by hand.`));
    return plan;
  }
  const template = templateOf(shape);
  const display = displayPath(shape);
  const cannotEdit = (): void => void plan.findings.push(finding('unresolved-url', node, `The v1 URL ${display} cannot be edited in place; migrate it by hand.`));
  const rewrite = (withPath: boolean): boolean => {
    const changes = planUrlChanges(shape, withPath ? template : undefined, bases);
    if (!changes) return false;
    const accepted: Array<{ c: UrlChange; e: SourceEdit[] }> = [];
    for (const c of changes) {
      const e = pieceEditsToSource(pieces, c.edits, source, true);
      if (!e) return false;
      if (external) {
        const base = c.ruleId === 'base-url' || c.ruleId === 'openapi-url';
        // The base literal is someone else's: it is migrated (and reported) where it is written.
        if (base && e.every((x) => !within(x.node, node))) continue;
        if (!e.every((x) => within(x.node, node))) return false;
      }
      accepted.push({ c, e });
    }
    const substitutions = placeholderSubstitutions(path);
    for (const { c, e } of accepted) {
      if (c.rename) {
        const { from, to } = c.rename;
        const uses = substitutions.filter((s) => source.slice(s.node.start, s.node.end).includes(from.slice(1, -1)));
        if (uses.some((s) => s.node.type !== 'StringLiteral' || s.node.value !== from)) {
          plan.findings.push(finding('path-param', node, `Path parameter ${c.what}: v2 names every path parameter {id}, but this placeholder is substituted in a way the tool cannot rename along; rename it by hand.`, false));
          continue;
        }
        for (const s of uses) {
          const q = source[s.node.start]!;
          plan.edits.push({ ...replaceNode(s, `${q}${to}${q}`), universal: true });
        }
      }
      plan.edits.push(...e);
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
  const done = (): LiteralPlan | null => (plan.findings.length || plan.edits.length ? plan : null);
  if (isSchemaUrl(shape)) {
    if (!rewrite(false)) cannotEdit();
    return done();
  }
  if (template) {
    const change = template.operations.find((o) => o.change !== 'path')?.change;
    if (!change) {
      if (!rewrite(true)) cannotEdit();
      return done();
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
  // A prefix of v1 paths (`${API}/pods/`), or a path whose holes could still make a v1 path.
  if (shape.segments.length === 0 || templatesCompatible(literalSegments, true).length) {
    if (!rewrite(false)) cannotEdit();
    return done();
  }
  plan.findings.push(finding('unknown-path', node, `${display} is not a documented REST v1 path, so v2-migrate does not guess its v2 form.`));
  return plan;
}
