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

/** A v1 list filter v2 ignores, with the test that does it on a v2 list item. */
export interface ListFilter {
  /** The v1 query parameter (`name`). */
  param: string;
  /**
   * The same test on a v2 item, as a jq condition on `.` given the value as a jq expression (and its
   * literal text, when written): `.name == $name`; null when there is none for that value.
   */
  test: (value: string, literal: string | null) => string | null;
  /** Values for which v2 answers as v1 did: the parameter is only taken out. */
  sameAsV2: readonly string[];
}

/**
 * How a request's ignored v1 list filters are taken out of its query and done on the client instead
 * (shell: a jq `map(select(…))` on the unwrapped list): the engine's edits, or why it cannot.
 */
export type ListFilterWriter<Edit> = (filters: readonly ListFilter[], envelope: string) => EditsOrReason<Edit>;
