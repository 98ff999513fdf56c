// TEMPORARY stub until the adapters branch lands (same API).
import type { BodyOperationId } from '../map/bodies.js';

export const adapterName = (op: BodyOperationId): string => `toV2${op}Body`;
export const needsAdapter = (op: BodyOperationId): boolean => op !== 'UpdateNetworkVolume' && op !== 'CreateContainerRegistryAuth';
export function adapterSource(ops: readonly BodyOperationId[], options: { language: 'ts' | 'js'; gpuPools: Readonly<Record<string, string>>; preserveV1Defaults?: boolean }): string {
  return `// stub ${options.language}\n${ops.map((o) => `export function ${adapterName(o)}(b) { return b; }`).join('\n')}\n`;
}
