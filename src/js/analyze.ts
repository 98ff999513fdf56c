import type { Parsed } from './parsed.js';
import { buildSite, classifyCallee, type DeclaredWrapper } from './clients/index.js';
import type { ClientCall } from './clients/adapter.js';
import type { HttpSite } from './clients/model.js';
import { EMPTY_CTX, withFrame, type Ctx } from './context.js';
import { nodeIndex } from './node-index.js';
import { isFunction } from './scope.js';
import type { CallLike, N, P, t } from './ast.js';
import { argsOf, isResolved, recordVisits, resolveExpr, type UrlPiece } from './values.js';
import { shapeOf, type Bases } from '../url/shape.js';
import { matchTemplate, operationFor } from '../map/match.js';
import { bodyMappingFor } from '../map/bodies.js';
import { operationForV2 } from '../map/v2match.js';
import type { HttpMethod, V1Operation } from '../map/operations.js';
import { pushTo } from '../util/multimap.js';

/** A request as seen from one chain of callers: the site plus where the chain starts. */
export interface SiteInstance {
  site: HttpSite;
  /** The outermost call in user code (a wrapper call, or the client call itself). Findings point here. */
  root: P<CallLike>;
  ctx: Ctx;
}

interface Invocation {
  call: P<CallLike>;
  /** Frames of enclosing factories the callee was produced by (closures). */
  ctx: Ctx;
}

const MAX_CHAIN = 6;

/** Every HTTP request the files make, expanded through wrappers, factories and classes across the files. */
export function collectSites(files: readonly Parsed[], bases: Bases, declared: readonly DeclaredWrapper[] = []): SiteInstance[] {
  const calls: Array<P<t.CallExpression | t.OptionalCallExpression>> = [];
  const news: Array<P<t.NewExpression>> = [];
  for (const parsed of files) {
    const index = nodeIndex(parsed);
    calls.push(...index.calls);
    news.push(...index.news);
  }

  const primitives: Array<{ call: P<CallLike>; callee: ClientCall }> = [];
  const invocations = new Map<N, Invocation[]>();
  const addInvocation = (fn: N, inv: Invocation): void => pushTo(invocations, fn, inv);
  for (const call of calls) {
    const callee = classifyCallee(call, bases, declared);
    if (!callee) continue;
    if (callee.kind === 'function') addInvocation(callee.fn.node, { call, ctx: callee.ctx });
    else primitives.push({ call, callee });
  }
  for (const n of news) {
    const cls = resolveExpr(n.get('callee'), EMPTY_CTX);
    if (!isResolved(cls) || (cls.path.node.type !== 'ClassDeclaration' && cls.path.node.type !== 'ClassExpression')) continue;
    const ctor = (cls.path.node.body.body as N[]).find((m) => m.type === 'ClassMethod' && m.kind === 'constructor');
    if (ctor) addInvocation(ctor, { call: n, ctx: cls.ctx });
  }

  const out: SiteInstance[] = [];
  const analyze = (call: P<CallLike>, callee: ClientCall, ctx: Ctx, rootCall: P<CallLike>, chain: number): void => {
    const visited = new Set<N>();
    const site = recordVisits(visited, () => buildSite(call, callee, ctx, rootCall, bases));
    if (!site) return;
    const blocker = chain < MAX_CHAIN ? blockingFunction(site, bases) : null;
    const invs = blocker && !ctx.has(blocker.node) ? invocations.get(blocker.node) ?? [] : [];
    if (!invs.length) {
      for (const n of visited) site.visited.add(n);
      out.push({ site, root: rootCall, ctx });
      return;
    }
    for (const inv of invs) {
      let next = withFrame(ctx, blocker!.node, { call: inv.call, args: argsOf(inv.call) });
      for (const [fn, frame] of inv.ctx) if (!next.has(fn)) next = withFrame(next, fn, frame);
      analyze(call, callee, next, outermost(rootCall, inv.call), chain + 1);
    }
  };
  for (const { call, callee } of primitives) analyze(call, callee, EMPTY_CTX, call, 0);
  return out;
}

/** Keep the outer of two calls as the chain's root (the caller's call, not a nested helper call). */
function outermost(current: P<CallLike>, candidate: P<CallLike>): P<CallLike> {
  return isFunction(candidate.node) ? current : candidate;
}

function unboundIn(pieces: readonly UrlPiece[]): P | null {
  for (const piece of pieces) if (piece.kind === 'hole' && piece.origin.unboundFn) return piece.origin.unboundFn;
  return null;
}

/**
 * The function whose unbound parameter keeps this request from being understood: its callers must be
 * followed. Null when the request is already understood (or cannot be helped by expansion).
 */
function blockingFunction(site: HttpSite, bases: Bases): P | null {
  const shape = shapeOf(site.url, bases);
  if (shape.base === 'unknown' || shape.base === 'relative') return unboundIn(site.url);
  if (shape.base !== 'legacy' && shape.base !== 'target') return null;
  const segments = shape.segments.map((s) => s.text);
  const method = (site.method.value ?? undefined) as HttpMethod | undefined;
  let op: V1Operation | undefined;
  if (shape.base === 'legacy') {
    const template = matchTemplate(segments);
    if (!template) return unboundIn(site.url);
    // The method decides the operation (an action, an alias, a create with a body): follow it to callers.
    const methodMatters = template.operations.some((o) => o.change !== 'path' || bodyMappingFor(o.id));
    if (methodMatters && method === undefined && site.method.kind === 'pieces') {
      const fn = unboundIn(site.method.pieces);
      if (fn) return fn;
    }
    op = operationFor(template, method);
  } else {
    op = operationForV2(segments, method);
    // A v2 wrapper whose path comes from its callers (a leftover reset, v1 body fields) is followed too.
    if (!op && !matchTemplate(segments)) return unboundIn(site.url);
  }
  // A create/update body passed in by the caller: follow it to the literal.
  if (op && bodyMappingFor(op.id) && site.body.kind === 'opaque' && site.body.unboundFn) return site.body.unboundFn;
  return null;
}
