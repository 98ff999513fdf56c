/**
 * A request that must not go to v2 as it is (see blockReason: a path built at run time, a list read
 * as a bare array where the tool cannot unwrap it) stays on v1 alone. Where its own call reads a base
 * that other requests share (`${API}/${kind}`, `API + path`), that read is replaced by the v1 base
 * written out: the shared base moves to v2 with every other request, and this one keeps failing with
 * v1's 410 instead of sending v2 something whose answer nobody decided. A base read inside a wrapper
 * other requests also go through cannot be pinned for one of them: that base stays (migrate.ts).
 */
import type { PlanEnv, RequestPlan } from '../rules/plan.js';
import { blockReason } from '../rules/request.js';
import type { EnvValueNode, N, t } from '../js/ast.js';
import type { SourceEdit } from '../js/edits.js';
import { pathsMatching } from '../js/walk.js';

/** A blocked request kept on v1 by its own copy of the v1 base, and the edit that writes it. */
export interface Pin {
  plan: RequestPlan;
  edit: SourceEdit;
}

/** The nodes that decide requests which are not blocked: a base among them moves with those requests. */
export function movingNodes(plans: readonly RequestPlan[]): Set<N | EnvValueNode> {
  const moving = new Set<N | EnvValueNode>();
  for (const p of plans) if (!blockReason(p)) for (const n of p.touched) moving.add(n);
  return moving;
}

export function pinBlockedRequests(plans: readonly RequestPlan[], env: PlanEnv): Pin[] {
  const moving = movingNodes(plans);
  const pins: Pin[] = [];
  for (const plan of plans) {
    if (plan.onV2 || !blockReason(plan)) continue;
    const base = plan.instance.site.url[0];
    // The base is written in a literal of its own outside this call, which a request that moves also reads.
    if (base?.kind !== 'text' || base.origin.declared || inside(base.origin.path.node, plan.instance.root.node)) continue;
    const legacy = env.bases.legacy.find((b) => base.text.startsWith(b));
    if (!legacy || base.text !== legacy || !moving.has(base.origin.path.node)) continue;
    const edit = baseReadEdit(plan, legacy, env.quote);
    if (edit) pins.push({ plan, edit });
  }
  return pins;
}

const inside = (n: N, outer: N): boolean => (n.start ?? -1) >= (outer.start ?? 0) && (n.end ?? Infinity) <= (outer.end ?? 0);

/** The edit that writes the v1 base in place of the call's own read of it, or null where there is none. */
function baseReadEdit(plan: RequestPlan, legacy: string, quote: string): SourceEdit | null {
  const { root, site } = plan.instance;
  const isRead = (n: N | null | undefined): n is N => !!n && site.visited.has(n) && (n.type === 'Identifier' || n.type === 'MemberExpression');
  for (const path of pathsMatching(root, (n: N): n is t.TemplateLiteral | t.BinaryExpression => n.type === 'TemplateLiteral' || (n.type === 'BinaryExpression' && n.operator === '+'))) {
    const node = path.node;
    if (node.type === 'TemplateLiteral') {
      const [head, next] = node.quasis;
      const read = node.expressions[0];
      if (head?.value.cooked === '' && next && isRead(read)) if (head.end != null && next.start != null) return { start: head.end, end: next.start, text: legacy.replace(/[`\\]|\$\{/g, (c) => `\\${c}`), node };
    } else {
      let left: N = node;
      while (left.type === 'BinaryExpression' && left.operator === '+') left = left.left;
      if (isRead(left) && left.start != null && left.end != null) return { start: left.start, end: left.end, text: quote + legacy.replace(new RegExp(`[\\\\${quote}]`, 'g'), (c) => `\\${c}`) + quote, node: left };
    }
  }
  return null;
}

