/**
 * Wrappers declared in the config (their code is not in the run): calls to a function of that name
 * take a path relative to the v1 base at argument `path`, and optionally the method and a JSON body.
 */
import { memberName } from '../scope.js';
import type { P } from '../ast.js';
import { argsOf, evalString, type UrlPiece } from '../values.js';
import type { ClientAdapter, ClientCall } from './adapter.js';
import { makeSite } from './instances.js';
import type { BodySlot, MethodRef } from './model.js';
import { bodyOf, methodFrom } from './parts.js';

/** A wrapper from the config's `wrappers`: argument positions of the path, the method and the JSON body. */
export interface DeclaredWrapper {
  name: string;
  path: number;
  method?: number | undefined;
  body?: number | undefined;
}

const adapters = new WeakMap<DeclaredWrapper, ClientAdapter>();

/** A call to one of the declared wrappers (the last part of `client.call` is matched), or null. */
export function declaredCall(callee: P, declared: readonly DeclaredWrapper[]): ClientCall | null {
  const n = callee.node;
  const name = n.type === 'Identifier' ? n.name : memberName(n);
  const wrapper = name ? declared.find((w) => w.name.split('.').pop() === name) : undefined;
  if (!wrapper) return null;
  let adapter = adapters.get(wrapper);
  if (!adapter) adapters.set(wrapper, (adapter = declaredAdapter(wrapper)));
  return { kind: 'client', adapter, member: null, instance: null };
}

function declaredAdapter(w: DeclaredWrapper): ClientAdapter {
  return {
    name: 'declared',
    recognise: () => null,
    site(call, _c, ctx, env) {
      const args = argsOf(call);
      const pathArg = args[w.path];
      if (!pathArg) return null;
      const base: UrlPiece = { kind: 'text', text: env.bases.legacy[0] ?? '', origin: { path: call, declared: true } };
      const rel = evalString(pathArg, ctx);
      const first = rel[0];
      const sep: UrlPiece[] = first?.kind === 'text' && first.text.startsWith('/') ? [] : [{ kind: 'text', text: '/', origin: { path: call, declared: true } }];
      const methodArg = w.method === undefined ? undefined : args[w.method];
      const method: MethodRef = methodArg ? methodFrom({ path: methodArg, ctx }) : { kind: 'default', value: 'GET' };
      const bodyArg = w.body === undefined ? undefined : args[w.body];
      const body: BodySlot = w.body === undefined ? { kind: 'absent', insert: null } : bodyArg ? bodyOf(bodyArg, ctx, 'object') : { kind: 'absent', insert: { kind: 'arg', call, index: w.body, form: 'object' } };
      // What the wrapper returns is not visible (rules/response.ts says so for lists).
      return makeSite(call, 'declared', { url: [base, ...sep, ...rel], method, body, headers: { kind: 'opaque' }, response: 'unknown', contentTypeByHand: true, touched: env.touched });
    },
  };
}
