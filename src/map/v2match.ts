import { V1_OPERATIONS, type HttpMethod, type V1Operation } from './operations.js';
import { isParam } from './match.js';

/**
 * The v1 operation a v2 request corresponds to (`POST /serverless` → CreateEndpoint), so code that
 * is already on v2 can still be checked for leftover v1 body fields.
 */
export function operationForV2(segments: ReadonlyArray<string | null>, method: HttpMethod | undefined): V1Operation | undefined {
  const candidates = V1_OPERATIONS.filter((op) => op.v2 && (op.change === 'path' || op.change === 'update-alias') && matches(op.v2.path, segments));
  const byMethod = candidates.filter((op) => op.v2!.method === method);
  return byMethod.find((op) => op.change === 'path') ?? byMethod[0];
}

/**
 * v2 paths no v1 operation maps to (MIGRATION.md §2 "new in v2 only", and /billing/endpoints, which
 * bills public endpoints): code on these is v2 code, never a half-migrated v1 call.
 */
export const V2_ONLY_PATHS: readonly string[] = [
  '/account/ssh-keys',
  '/pods/{id}/logs',
  '/clusters',
  '/clusters/{id}',
  '/clusters/{id}/pods',
  '/serverless/{id}/workers',
  '/serverless/{id}/workers/{workerId}/logs',
  '/serverless/{id}/releases',
  '/registries/delegations',
  '/registries/delegations/{id}',
  '/catalog/gpus',
  '/catalog/gpus/{id}',
  '/catalog/cpus',
  '/catalog/cpus/{id}',
  '/catalog/datacenters',
  '/catalog/datacenters/{id}',
  '/catalog/templates',
  '/billing',
  '/billing/endpoints',
  '/billing/clusters',
];

/** Whether a path template (`/pods/{id}`) fits the segments (null: a segment only known at run time). */
function matches(path: string, segments: ReadonlyArray<string | null>): boolean {
  const want = path.split('/').filter(Boolean);
  return want.length === segments.length && want.every((w, i) => isParam(w) || segments[i] === w);
}

/** Whether a path (relative to the v2 base) exists in v2 (`/pods/{id}/action`, `/serverless`, `/catalog/gpus`, …). */
export function isV2Path(segments: ReadonlyArray<string | null>): boolean {
  return V1_OPERATIONS.some((op) => op.v2 && matches(op.v2.path, segments)) || V2_ONLY_PATHS.some((p) => matches(p, segments));
}

/**
 * Whether filling the run-time parts (null: one segment or more, slashes included; the last may also be
 * empty) could give a v2 path: false means v2 answers 404 whatever they hold.
 */
export function couldBeV2Path(segments: ReadonlyArray<string | null>): boolean {
  const fits = (want: readonly string[], i: number, k: number): boolean => {
    if (i === segments.length) return k === want.length;
    const s = segments[i];
    if (s === null) {
      for (let k2 = i === segments.length - 1 ? k : k + 1; k2 <= want.length; k2++) if (fits(want, i + 1, k2)) return true;
      return false;
    }
    return k < want.length && (isParam(want[k]!) || want[k] === s) && fits(want, i + 1, k + 1);
  };
  const paths = [...V1_OPERATIONS.flatMap((op) => (op.v2 ? [op.v2.path] : [])), ...V2_ONLY_PATHS];
  return paths.some((p) => fits(p.split('/').filter(Boolean), 0, 0));
}
