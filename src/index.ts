/** Programmatic API: the same engine the CLI and the jscodeshift transform use. */
export { migrateSource, type MigrateOptions, type MigrateResult } from './pipeline/js.js';
export { loadSettings, type Settings } from './config.js';
export { run } from './run/runner.js';
export type { FileResult, RunResult } from './run/types.js';
export type { Finding, Severity } from './findings.js';
export { RULES, type RuleId } from './rules/registry.js';
export { V1_OPERATIONS } from './map/operations.js';
export { DOCUMENTED_GPU_POOLS, GPU_POOLS_DATE, defaultGpuPools, gpuPoolSelection, withDocumentedPools, type GpuPoolSelection } from './map/gpu-pools.js';
