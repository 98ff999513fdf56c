/**
 * The client adapters, in the order they are asked: a call is the first adapter's that recognises it.
 * Adding a client is adding its module here.
 */
import type { Ctx } from '../context.js';
import { EMPTY_CTX } from '../context.js';
import { isFunction, memberName, unwrap } from '../scope.js';
import type { CallLike, N, P } from '../ast.js';
import { isResolved, resolveExpr, type Resolved } from '../values.js';
import type { Bases } from '../../url/shape.js';
import type { CallTarget, ClientAdapter, ClientCall, RecogniseEnv } from './adapter.js';
import { axiosAdapter } from './axios.js';
import { declaredCall, type DeclaredWrapper } from './declared.js';
import { fetchAdapter } from './fetch.js';
import { gotAdapter } from './got.js';
import { kyAdapter } from './ky.js';
import type { HttpSite } from './model.js';
import { ofetchAdapter } from './ofetch.js';
import { openapiFetchAdapter } from './openapi-fetch.js';

const ADAPTERS: readonly ClientAdapter[] = [fetchAdapter, openapiFetchAdapter, axiosAdapter, kyAdapter, gotAdapter, ofetchAdapter];

export type { DeclaredWrapper };

/** What a call's callee turns out to be: a request made with a client, or a user function (a possible wrapper). */
export type Callee = ClientCall | { kind: 'function'; fn: P; ctx: Ctx };

function targetOf(call: P<CallLike>): CallTarget | null {
  const callee = unwrap(call.get('callee'));
  const n = callee.node;
  if (n.type === 'Identifier') {
    const r = resolveExpr(callee, EMPTY_CTX);
    return { call, callee, member: null, value: isResolved(r) ? r : null };
  }
  if (n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') {
    const member = memberName(n);
    if (member === null) return null;
    const r = resolveExpr(unwrap(callee.get('object')), EMPTY_CTX);
    return { call, callee, member, value: isResolved(r) ? r : null };
  }
  return null;
}

/** Classify a call's callee: a client request (known libraries first, then unknown factories), a user function, or a declared wrapper. */
export function classifyCallee(call: P<CallLike>, bases: Bases, declared: readonly DeclaredWrapper[] = []): Callee | null {
  const target = targetOf(call);
  if (!target) return null;
  for (const unknownFactories of [false, true]) {
    const env: RecogniseEnv = { bases, unknownFactories };
    for (const adapter of ADAPTERS) {
      const c = adapter.recognise(target, env);
      if (c) return c;
    }
  }
  const fn = target.member === null ? target.value : resolveExpr(target.callee, EMPTY_CTX);
  if (fn && isResolved(fn) && isFunction(fn.path.node)) return { kind: 'function', fn: fn.path, ctx: fn.ctx };
  return declared.length ? declaredCall(target.callee, declared) : null;
}

/** The request model of a classified call evaluated in `ctx`; `root` is where the chain of calls began. */
export function buildSite(call: P<CallLike>, callee: ClientCall, ctx: Ctx, root: P, bases: Bases): HttpSite | null {
  return callee.adapter.site(call, callee, ctx, { bases, root, touched: new Set<N>([call.node]) });
}

/** Is the value a client instance a factory made (`axios.create(…)`, `createAxios({ baseURL })`)? */
export function isClientInstance(value: Resolved, bases: Bases): boolean {
  const env: RecogniseEnv = { bases, unknownFactories: true };
  return ADAPTERS.some((a) => (a.instanceOf?.(value, env)?.configs.length ?? 0) > 0);
}
