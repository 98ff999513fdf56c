import type { Call, Module } from '../model.js';
import type { PythonHttpLibrary } from './types.js';
import { argOf, isNone } from './types.js';

const URLOPEN = /(?:^|\.)urlopen$/;

/** `urllib.request.urlopen(url)` and `Request(url, data, method=…)`: POST when it carries data. */
export const urllib: PythonHttpLibrary = {
  name: 'urllib',
  modules: [],
  bodyKeywords: ['data'],
  ownCall(m, call) {
    if (!URLOPEN.test(call.callee) && !(/(?:^|\.)Request$/.test(call.callee) && /urllib/.test(m.text))) return null;
    const url = argOf(call, 0, 'url');
    if (!url) return null;
    const data = argOf(call, 1, 'data');
    const methodArg = call.member === 'Request' ? call.args.find((a) => a.kind === 'kw' && a.name === 'method') : undefined;
    const response = call.member === 'Request' ? openerOf(m, call) : undefined;
    return { call, kind: 'urllib', url, ...(methodArg ? { methodArg } : { memberMethod: data && !isNone(m, data) ? 'POST' : 'GET' }), ...(data ? { body: data } : {}), ...(response ? { response } : {}) };
  },
};

/** `req = Request(…)` and then `urlopen(req)` in the same function: the call that sends it. */
function openerOf(m: Module, request: Call): Call | undefined {
  const t = m.toks;
  const eq = t[request.calleeTok - 1];
  const target = t[request.calleeTok - 2];
  if (eq?.type !== 'op' || eq.value !== '=' || target?.type !== 'name') return undefined;
  return m.calls.find((c) => c.scope === request.scope && c.calleeTok > request.close && URLOPEN.test(c.callee) && c.args[0]?.kind === 'pos' && c.args[0].b === c.args[0].a + 1 && t[c.args[0].a]?.value === target.value);
}
