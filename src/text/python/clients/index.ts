/**
 * The Python HTTP libraries the scanner knows. Adding one is a file beside these (its modules, client
 * constructors, base and body keywords, or a call of its own shape) and its line here.
 */
import { aiohttp } from './aiohttp.js';
import { httpx } from './httpx.js';
import { requests } from './requests.js';
import type { HttpCall, PythonHttpLibrary } from './types.js';
import { urllib } from './urllib.js';
import type { Call, Module } from '../model.js';

export const PYTHON_HTTP_LIBRARIES: readonly PythonHttpLibrary[] = [requests, httpx, aiohttp, urllib];

/** Module names whose functions send requests. */
export const HTTP_MODULES: ReadonlySet<string> = new Set(PYTHON_HTTP_LIBRARIES.flatMap((l) => l.modules));
/** Keywords that carry a body in any library (a call through an unknown receiver may be any of them). */
export const BODY_KEYWORDS: readonly string[] = [...new Set(PYTHON_HTTP_LIBRARIES.flatMap((l) => l.bodyKeywords))];
/** Constructor keywords that give a client object its base URL. */
export const BASE_KEYWORDS: ReadonlySet<string> = new Set(PYTHON_HTTP_LIBRARIES.flatMap((l) => (l.baseKeyword ? [l.baseKeyword] : [])));

/** Whether a callee constructs a client object of one of the libraries. */
export const isClientConstructor = (callee: string): boolean => PYTHON_HTTP_LIBRARIES.some((l) => l.clients?.test(callee) ?? false);

/** A request of a library's own shape (urllib), or null. */
export function ownShapeCall(m: Module, call: Call): HttpCall | null {
  for (const l of PYTHON_HTTP_LIBRARIES) {
    const found = l.ownCall?.(m, call);
    if (found) return found;
  }
  return null;
}
