/** Where RunPod's APIs live (MIGRATION.md §1). Bases are stored without a trailing slash. */
export const LEGACY_BASE_URL = 'https://rest.runpod.io/v1';
export const TARGET_BASE_URL = 'https://api.runpod.io/v2';
/** The v2 spec's server: v2 paths in the map are relative to it and start with `/v2`. */
export const TARGET_ORIGIN = 'https://api.runpod.io';

export const V1_OPENAPI_URL = 'https://rest.runpod.io/v1/openapi.json';
export const V2_OPENAPI_URL = 'https://api.runpod.io/v2/openapi.json';

/** Serverless job API: already `v2`, a different product, never touched. */
export const JOB_API_HOST = 'api.runpod.ai';
export const GRAPHQL_URL = 'https://api.runpod.io/graphql';

export function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
