import type { PythonHttpLibrary } from './types.js';

/** `httpx.post(url, json=…)`, `httpx.Client(base_url=…)` / `httpx.AsyncClient` and their methods. */
export const httpx: PythonHttpLibrary = {
  name: 'httpx',
  modules: ['httpx'],
  clients: /^(?:httpx\.)?(?:Async)?Client$/,
  baseKeyword: 'base_url',
  bodyKeywords: ['json', 'data', 'content', 'files'],
};
