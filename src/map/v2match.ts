import { V1_OPERATIONS, type HttpMethod, type V1Operation } from './operations.js';
import { isParam } from './match.js';

/**
 * The v1 operation a v2 request corresponds to (`POST /serverless` → CreateEndpoint), so code that
 * is already on v2 can still be checked for leftover v1 body fields.
 */
export function operationForV2(segments: ReadonlyArray<string | null>, method: HttpMethod | undefined): V1Operation | undefined {
  const candidates = V1_OPERATIONS.filter((op) => {
    if (!op.v2 || op.change !== 'path' && op.change !== 'update-alias') return false;
    const want = op.v2.path.split('/').filter(Boolean);
    return want.length === segments.length && want.every((w, i) => isParam(w) || segments[i] === w);
  });
  const byMethod = candidates.filter((op) => op.v2!.method === method);
  return byMethod.find((op) => op.change === 'path') ?? byMethod[0];
}

/** Whether a path (relative to the v2 base) is one the migration map writes (`/pods/{id}/action`, `/serverless`, …). */
export function isV2Path(segments: ReadonlyArray<string | null>): boolean {
  return V1_OPERATIONS.some((op) => {
    if (!op.v2) return false;
    const want = op.v2.path.split('/').filter(Boolean);
    return want.length === segments.length && want.every((w, i) => isParam(w) || segments[i] === w);
  });
}
