import type { PythonHttpLibrary } from './types.js';

/** `aiohttp.ClientSession()` and its methods (`async with session.get(url) as resp`). */
export const aiohttp: PythonHttpLibrary = {
  name: 'aiohttp',
  modules: ['aiohttp'],
  clients: /^(?:aiohttp\.)?ClientSession$/,
  bodyKeywords: ['json', 'data'],
};
