import { V1_OPERATIONS, type HttpMethod, type V1Operation } from './operations.js';

/** A v1 path template and every operation on it; all of them share one v2 path. */
export interface PathTemplate {
  v1Path: string;
  v1Segments: readonly string[];
  /** v2 path relative to the v2 base, or null when v2 has nothing there (pod reset). */
  v2Path: string | null;
  operations: readonly V1Operation[];
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter(Boolean);
}

export const PATH_TEMPLATES: readonly PathTemplate[] = (() => {
  const byPath = new Map<string, V1Operation[]>();
  for (const op of V1_OPERATIONS) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  return [...byPath].map(([v1Path, operations]) => {
    const v2Paths = new Set(operations.map((o) => o.v2?.path ?? null));
    if (v2Paths.size !== 1) throw new Error(`migration map: ${v1Path} maps to several v2 paths`);
    return { v1Path, v1Segments: segmentsOf(v1Path), v2Path: [...v2Paths][0]!, operations };
  });
})();

/** First path segments that are v1 resources (`pods`, `endpoints`, …). */
export const V1_RESOURCES: ReadonlySet<string> = new Set(V1_OPERATIONS.map((o) => o.resource));

export const isParam = (segment: string): boolean => /^\{[^}]+\}$/.test(segment);

/** `null` text = a segment with a hole in it. */
export function matchTemplate(segments: ReadonlyArray<string | null>): PathTemplate | undefined {
  return PATH_TEMPLATES.find(
    (t) =>
      t.v1Segments.length === segments.length &&
      t.v1Segments.every((want, i) => (isParam(want) ? true : segments[i] === want)),
  );
}

/** Pick the operation for a known method; `undefined` method means "not knowable here". */
export function operationFor(template: PathTemplate, method: HttpMethod | undefined): V1Operation | undefined {
  if (method) return template.operations.find((o) => o.method === method);
  return template.operations.length === 1 ? template.operations[0] : undefined;
}

/**
 * Templates a path with holes could turn out to be. A `null` segment (one with a hole in it) may stand
 * for one or more segments, since a value can contain slashes. With `partial`, the path may also be a
 * prefix of the template (a literal that is completed elsewhere).
 */
export function templatesCompatible(segments: ReadonlyArray<string | null>, partial = false): PathTemplate[] {
  const fits = (t: readonly string[], i: number, k: number): boolean => {
    if (i === segments.length) return partial ? k <= t.length : k === t.length;
    const s = segments[i];
    if (s === null) {
      for (let k2 = k + 1; k2 <= t.length; k2++) if (fits(t, i + 1, k2)) return true;
      return false;
    }
    return k < t.length && (isParam(t[k]!) || t[k] === s) && fits(t, i + 1, k + 1);
  };
  return PATH_TEMPLATES.filter((t) => fits(t.v1Segments, 0, 0));
}
