import type { PythonHttpLibrary } from './types.js';
import { argOf, isNone } from './types.js';

/** `urllib.request.urlopen(url)` and `Request(url, data, method=…)`: POST when it carries data. */
export const urllib: PythonHttpLibrary = {
  name: 'urllib',
  modules: [],
  bodyKeywords: ['data'],
  ownCall(m, call) {
    if (!/(?:^|\.)urlopen$/.test(call.callee) && !(/(?:^|\.)Request$/.test(call.callee) && /urllib/.test(m.text))) return null;
    const url = argOf(call, 0, 'url');
    if (!url) return null;
    const data = argOf(call, 1, 'data');
    const methodArg = call.member === 'Request' ? call.args.find((a) => a.kind === 'kw' && a.name === 'method') : undefined;
    return { call, kind: 'urllib', url, ...(methodArg ? { methodArg } : { memberMethod: data && !isNone(m, data) ? 'POST' : 'GET' }), ...(data ? { body: data } : {}) };
  },
};
