/**
 * The call-site record both engines produce for one HTTP request: the JS engine's `HttpSite`
 * (js/clients/model.ts, built by the client adapters) and the text engine's `RequestSite`
 * (text/plan.ts, built by each language's scanner) extend it, each with its own origins and its own
 * way of holding the method.
 */
import type { HttpMethod } from '../map/operations.js';
import type { Piece } from '../url/pieces.js';

export interface CallSite<Origin, Method> {
  /** The client that makes the request (`fetch`, `axios`, `curl`, `requests`, `http-file`, …). */
  client: string;
  /** The URL: literal pieces, each with where it is written (its origin), and holes. */
  url: readonly Piece<Origin>[];
  /** The method as the engine holds it (a literal, a member name, a value read from the request). */
  method: Method;
}

/** Edits that carry out a change, or the reason they cannot be made (said in the finding). */
export type EditsOrReason<Edit> = Edit[] | string;

/** The first reason among parts of an all-or-nothing change, if any part cannot be made. */
export function reasonAmong<Edit>(parts: ReadonlyArray<EditsOrReason<Edit> | null>, missing: string): string | undefined {
  for (const p of parts) {
    if (p === null) return missing;
    if (typeof p === 'string') return p;
  }
  return undefined;
}

/** How a request's method changes to `to` (the update alias): the engine's edits. */
export type MethodWriter<Edit> = (to: HttpMethod) => EditsOrReason<Edit>;

/** How a request is given a fixed JSON body (pod actions): the engine's edits. */
export type JsonBodyWriter<Edit> = (body: Readonly<Record<string, string>>) => EditsOrReason<Edit>;
