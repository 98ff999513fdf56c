import { HOLE, QUERY_HOLE, flatten, hasHole, type Flat, type Piece } from './pieces.js';
import { JOB_API_HOST, stripTrailingSlash } from '../map/hosts.js';

export interface Bases {
  /** Legacy v1 bases (RunPod's and any proxies), without trailing slash. */
  legacy: readonly string[];
  /** The v2 base the codemod writes (`https://api.runpod.io/v2` by default). */
  target: string;
}

/**
 * - legacy: starts with a configured v1 base — the thing we migrate
 * - target: already on the v2 base
 * - job / other: the serverless job API or any other absolute URL — never touched
 * - relative: a path with no base (`/pods/...`), to be joined to a base by the caller
 * - unknown: starts with a value we cannot resolve (`${base}/pods`)
 */
/** A URL's scheme and `//` (`https://`). */
export const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** A URL without its scheme (`rest.runpod.io/v1`). */
export const withoutScheme = (url: string): string => url.replace(SCHEME, '');

export type BaseKind = 'legacy' | 'target' | 'job' | 'other' | 'relative' | 'unknown';

export interface Segment {
  /** Literal text, or null when the segment contains a hole. */
  text: string | null;
  /** Flat range of the segment (without its leading slash). */
  from: number;
  to: number;
}

export interface UrlShape {
  flat: Flat;
  base: BaseKind;
  /** Flat end of the base: the legacy or target base text, or the leading hole of an `unknown` base. */
  baseEnd: number;
  matchedBase?: string;
  /** Path segments after the base (empty segments from `//` or a trailing `/` are skipped). */
  segments: Segment[];
  /** Flat index where the path ends (start of `?query` / `#hash`, or the end). */
  pathEnd: number;
  /** Literal query string text, when it is fully literal. */
  query: string | null;
}

const BOUNDARY = new Set(['', '/', '?', '#', HOLE, QUERY_HOLE]);

function startsWithBase(text: string, base: string): boolean {
  return text.startsWith(base) && BOUNDARY.has(text.charAt(base.length));
}

export function classifyBase(text: string, bases: Bases): { kind: BaseKind; end: number; matched?: string } {
  for (const legacy of bases.legacy) {
    const b = stripTrailingSlash(legacy);
    if (startsWithBase(text, b)) return { kind: 'legacy', end: b.length, matched: b };
  }
  const target = stripTrailingSlash(bases.target);
  if (startsWithBase(text, target)) return { kind: 'target', end: target.length, matched: target };
  // The leading hole is the base (`${baseUrl}/pods`): path segments start after it.
  if (text.startsWith(HOLE)) return { kind: 'unknown', end: 1 };
  if (SCHEME.test(text)) {
    const host = withoutScheme(text).split(/[/?#]/)[0] ?? '';
    return { kind: host === JOB_API_HOST ? 'job' : 'other', end: 0 };
  }
  return { kind: 'relative', end: 0 };
}

export function shapeOf<O>(pieces: readonly Piece<O>[], bases: Bases): UrlShape {
  const flat = flatten(pieces);
  const { kind, end, matched } = classifyBase(flat.text, bases);
  const rest = flat.text.slice(end);
  // The path ends at `?`, `#` or a hole known to be empty or a query string.
  const qm = rest.search(/[?#\u0001]/);
  const pathEnd = qm < 0 ? flat.text.length : end + qm;
  const segments: Segment[] = [];
  let i = end;
  while (i < pathEnd) {
    if (flat.text[i] === '/') {
      i++;
      continue;
    }
    let j = i;
    while (j < pathEnd && flat.text[j] !== '/') j++;
    const text = flat.text.slice(i, j);
    segments.push({ text: text.includes(HOLE) ? null : text, from: i, to: j });
    i = j;
  }
  const queryText = qm < 0 ? null : flat.text.slice(pathEnd);
  return {
    flat,
    base: kind,
    baseEnd: end,
    ...(matched ? { matchedBase: matched } : {}),
    segments,
    pathEnd,
    query: queryText !== null && !hasHole(queryText) ? queryText : null,
  };
}

/** The path as a display template: `/pods/{…}/stop`, `/pods{…}`. */
export function displayPath(shape: UrlShape): string {
  return '/' + shape.segments.map((s) => s.text ?? shape.flat.text.slice(s.from, s.to).split(HOLE).join('{…}')).join('/');
}
