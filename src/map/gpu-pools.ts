/**
 * RunPod serverless GPU pools: pool id → the GPU type ids (v1 `gpuTypeIds`, the `id` of
 * GET /v2/catalog/gpus) in it. v2 endpoints select by pool (`gpu.pools`) and narrow a pool with
 * `gpu.excludedTypes`, which takes those same type ids.
 *
 * As documented on 2026-08-20, cross-checked from:
 * - https://docs.runpod.io/references/gpu-types#gpu-pools (runpod/docs references/gpu-types.mdx at
 *   a900806, pools section unchanged since 2026-02): AMPERE_16 … HOPPER_141, by display name;
 * - https://github.com/runpod/flash/blob/757420d/src/runpod_flash/core/resources/gpu.py (GpuGroup
 *   docstrings, 2026-08-06): the same eight plus ADA_32_PRO, BLACKWELL_96, BLACKWELL_180, by type id;
 * - https://docs.runpod.io/serverless/endpoints/endpoint-configurations (serverless GPU pricing table,
 *   runpod/docs snippets/serverless-gpu-pricing-table.mdx): the same groups by display name, with the
 *   96 GB RTX PRO 6000s and B200.
 * Disagreements, and what was kept:
 * - https://docs.runpod.io/flash/configuration/gpu-types puts RTX A4500 in AMPERE_24 and L4 in ADA_24;
 *   the other three sources (and runpod/runpod-mcp's tests) put them in AMPERE_16 and AMPERE_24.
 * - flash's POOLS_TO_TYPES lists only RTX 6000 Ada for ADA_48_PRO and only H100 80GB HBM3 for
 *   ADA_80_PRO (its GpuType enum lacks the others); its docstrings and the docs list L40, L40S and
 *   H100 PCIe, H100 NVL too. Kept the full pools: excluding a type a pool lacks is a loud 400, missing
 *   one a pool has would silently widen an endpoint.
 * - The reference page says "RTX 4000"; flash names RTX 4000 Ada Generation. RTX 4000 SFF Ada and
 *   H200 NVL are in no source's pool list, so they stay unknown (a decision), as does every type not
 *   listed here. Pools change: the config's `gpuPools` overrides and extends this table.
 */
export const GPU_POOLS_DATE = '2026-08-20';

export const DOCUMENTED_GPU_POOLS: Readonly<Record<string, readonly string[]>> = {
  AMPERE_16: ['NVIDIA RTX A4000', 'NVIDIA RTX A4500', 'NVIDIA RTX 4000 Ada Generation', 'NVIDIA RTX 2000 Ada Generation'],
  AMPERE_24: ['NVIDIA RTX A5000', 'NVIDIA L4', 'NVIDIA GeForce RTX 3090'],
  ADA_24: ['NVIDIA GeForce RTX 4090'],
  ADA_32_PRO: ['NVIDIA GeForce RTX 5090'],
  AMPERE_48: ['NVIDIA A40', 'NVIDIA RTX A6000'],
  ADA_48_PRO: ['NVIDIA L40', 'NVIDIA L40S', 'NVIDIA RTX 6000 Ada Generation'],
  AMPERE_80: ['NVIDIA A100 80GB PCIe', 'NVIDIA A100-SXM4-80GB'],
  ADA_80_PRO: ['NVIDIA H100 PCIe', 'NVIDIA H100 80GB HBM3', 'NVIDIA H100 NVL'],
  BLACKWELL_96: [
    'NVIDIA RTX PRO 6000 Blackwell Server Edition',
    'NVIDIA RTX PRO 6000 Blackwell Workstation Edition',
    'NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition',
  ],
  HOPPER_141: ['NVIDIA H200'],
  BLACKWELL_180: ['NVIDIA B200'],
};

/** GPU type id → pool id, from the documented table. */
export function defaultGpuPools(): Record<string, string> {
  return Object.fromEntries(Object.entries(DOCUMENTED_GPU_POOLS).flatMap(([pool, types]) => types.map((t) => [t, pool])));
}

/** The documented table with the config's `gpuPools` (type id → pool id) on top. */
export function withDocumentedPools(overrides: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { ...defaultGpuPools(), ...overrides };
}

/** A v2 endpoint GPU selection: `excludedTypes` is empty when every type of the pools was listed. */
export type GpuPoolSelection = { pools: string[]; excludedTypes: string[] } | { unknown: string[] };

/**
 * The v2 selection allowing exactly the listed GPU types: the pools that hold them, minus the pools'
 * other types. `gpuPools` (type id → pool id, e.g. from withDocumentedPools) decides both which pool a
 * type is in and which types a pool holds. Types it does not know come back as `unknown`.
 */
export function gpuPoolSelection(types: readonly string[], gpuPools: Readonly<Record<string, string>>): GpuPoolSelection {
  const unknown = [...new Set(types.filter((t) => !Object.hasOwn(gpuPools, t)))];
  if (unknown.length) return { unknown };
  const listed = new Set(types);
  const pools = [...new Set(types.map((t) => gpuPools[t]!))];
  // Sorted: the same list whatever order the table and the config's overrides were merged in.
  const excludedTypes = Object.entries(gpuPools)
    .filter(([type, pool]) => pools.includes(pool) && !listed.has(type))
    .map(([type]) => type)
    .sort();
  return { pools, excludedTypes };
}
