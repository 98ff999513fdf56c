import { HOLE } from '../url/pieces.js';
import { isSchemaUrl, planUrlChanges, templateOf, type UrlChange } from '../url/plan.js';
import { displayPath, shapeOf, type Bases } from '../url/shape.js';
import { EMPTY_CTX } from '../js/context.js';
import { pieceEditsToSource, replaceNode, type SourceEdit } from '../js/edits.js';
import { keyName, memberName } from '../js/scope.js';
import type { EnvValueNode, N, P, t } from '../js/ast.js';
import { evalString, labelOf, type UrlPiece } from '../js/values.js';
import { unhandled } from '../js/exhaustive.js';
import { finding, type PlannedFinding } from './plan.js';
import { decideValue, valueChangeMessage } from '../plan/decide.js';
import { isBaseRule } from '../plan/policy.js';
import { baseMessage, embeddedMessage, listValueMessage, notInPlaceMessage, paramSubstitutedMessage, schemaMessage } from '../plan/messages.js';
import { LIST_ENVELOPES } from '../map/responses.js';
import type { PathTemplate } from '../map/match.js';
import { referencesOf } from '../js/responses/tree.js';

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
    node.quasis.forEach((q, i) => {
      if (q.value.cooked) out.push({ kind: 'text', text: q.value.cooked, origin: { path: path.get('quasis', i) } });
      if (i < node.expressions.length) out.push({ kind: 'hole', origin: { path: path.get('expressions', i) }, label: '…' });
    });
    return out;
  }
  if (node.type === 'BinaryExpression' && node.operator === '+') return [...ownPieces(path.get('left')), ...ownPieces(path.get('right'))];
  return [{ kind: 'hole', origin: { path }, label: '…' }];
}

const flatText = (pieces: readonly UrlPiece[]): string => pieces.map((p) => (p.kind === 'text' ? p.text : HOLE)).join('');

const within = (inner: N | EnvValueNode, outer: N): boolean => inner.start! >= outer.start! && inner.end! <= outer.end!;

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
export function planLiteral(path: P, source: string, bases: Bases, inTest = false): LiteralPlan | null {
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
      plan.findings.push(finding('embedded-url', node, embeddedMessage(hit!)));
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
  const cannotEdit = (): void => void plan.findings.push(finding('unresolved-url', node, notInPlaceMessage(displayPath(shape))));
  const rewrite = (withPath: boolean): boolean => {
    const changes = planUrlChanges(shape, withPath ? template : undefined, bases);
    if (!changes) return false;
    const accepted: Array<{ c: UrlChange; e: SourceEdit[] }> = [];
    for (const c of changes) {
      const e = pieceEditsToSource(pieces, c.edits, source, true);
      if (!e) return false;
      if (external) {
        const base = isBaseRule(c.ruleId);
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
        const uses = substitutions.filter((s) => source.slice(s.node.start!, s.node.end!).includes(from.slice(1, -1)));
        if (uses.some((s) => s.node.type !== 'StringLiteral' || s.node.value !== from)) {
          plan.findings.push(finding('path-param', node, paramSubstitutedMessage(c.what), false));
          continue;
        }
        for (const s of uses) {
          const q = source[s.node.start!]!;
          plan.edits.push({ ...replaceNode(s, `${q}${to}${q}`), universal: true });
        }
      }
      plan.edits.push(...e);
      const message = c.ruleId === 'openapi-url' ? schemaMessage(bases.target) : c.ruleId === 'base-url' ? baseMessage(shape.matchedBase, bases.target) : valueChangeMessage(template!, c, 'js');
      plan.findings.push(finding(c.ruleId, node, message));
    }
    return true;
  };
  const d = decideValue(shape, template, isSchemaUrl(shape), 'js');
  switch (d.kind) {
    case 'rewrite':
      if (!rewrite(d.withPath)) cannotEdit();
      else if (template) reportListValue(path, template, plan);
      return plan.findings.length || plan.edits.length ? plan : null;
    case 'report': {
      // A test's expected URL stands for what the client sends: an action or /update path moves with it.
      const change = template?.operations.find((o) => o.change !== 'path')?.change;
      if (inTest && template && (change === 'action' || change === 'update-alias') && rewrite(true)) {
        for (const f of plan.findings) if (f.ruleId === d.ruleId) f.message += ' In this test the URL follows the client it tests; the method and body the test expects may change too.';
        return plan;
      }
      plan.findings.push(finding(d.ruleId, node, d.message, false));
      return plan;
    }
    default:
      return unhandled(d);
  }
}

const NOT_GET = /^(post|put|patch|delete)$/i;
const isNotGet = (n: N | null | undefined): boolean => n?.type === 'StringLiteral' && NOT_GET.test(n.value);

/**
 * Whether a call may list: its value is used (an assertion's or a logger's is not: a test's `expect(…)`
 * or `assert.equal(url, …)` reads no response), and no other argument names another method
 * (`send(url, 'POST', body)`, `{ method: 'DELETE' }`).
 */
function mayList(call: P): boolean {
  let up: P = call;
  while (up.parent && /^(AwaitExpression|TSAsExpression|TSNonNullExpression|ParenthesizedExpression)$/.test(up.parent.node.type)) up = up.parent;
  if (up.parent?.node.type === 'ExpressionStatement') return false;
  const args = (call.node as t.CallExpression).arguments as N[];
  return !args.some((a) => isNotGet(a) || (a.type === 'ObjectExpression' && a.properties.some((p) => p.type === 'ObjectProperty' && keyName(p.key, p.computed) === 'method' && isNotGet(p.value as N))));
}

/**
 * A list URL (`…/v1/pods`) handed, as it is or through a constant, to a call the engine does not
 * understand as a request (an injected `fetchImpl`, a helper's parameter, a mock's route): its URL
 * moves to v2, but if that call lists with GET, the response it gets is wrapped, and no rule sees
 * where it is read. Said at the URL, as where a request's response leaves what the engine follows.
 */
function reportListValue(path: P, template: PathTemplate, plan: LiteralPlan): void {
  const list = template.operations.find((o) => o.method === 'GET' && LIST_ENVELOPES[o.id]);
  const envelope = list && LIST_ENVELOPES[list.id];
  if (!list?.v2 || !envelope) return;
  const callOf = (p: P): P | null => (p.parentPath?.name === 'arguments' && /^(Optional)?CallExpression$|^NewExpression$/.test(p.parent?.node.type ?? '') ? p.parent! : null);
  const declarator = path.parentPath;
  const holder = declarator?.node.type === 'VariableDeclarator' && path.name === 'init' && declarator.node.id.type === 'Identifier' ? declarator.get('id') : null;
  const call = [callOf(path), ...(holder ? referencesOf(holder).map(callOf) : [])].find((c) => c && mayList(c));
  if (!call) return;
  const f = finding(envelope.rule, path.node, listValueMessage(list.path, list.v2.path, envelope.key, labelOf(call.get('callee'))), false);
  plan.findings.push({ ...f, severity: 'warning' });
}
