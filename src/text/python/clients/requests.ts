import type { PythonHttpLibrary } from './types.js';

/** `requests.get(url)`, `requests.Session()` and its methods. */
export const requests: PythonHttpLibrary = {
  name: 'requests',
  modules: ['requests'],
  clients: /^(?:requests\.)?[Ss]ession$/,
  bodyKeywords: ['json', 'data', 'files'],
};
