import type { Finding } from '../findings.js';
import { migrateProject, type MigrateOptions, type MigrateResult } from '../js/migrate.js';
import type { ProjectInput } from '../js/project.js';

/** One import-connected group of files, analysed together (in a worker or inline). */
export interface ComponentTask {
  inputs: ProjectInput[];
  options: MigrateOptions;
}

export type ComponentResult = Array<[string, MigrateResult]>;

function internalFailure(error: unknown): Finding {
  const why = error instanceof Error ? error.message : String(error);
  return { ruleId: 'internal-error', severity: 'error', line: 1, column: 1, message: `v2-migrate failed on this file (${why}); it was left unchanged. Please report this.`, fixable: false };
}

/** Migrate a component; an engine failure is retried file by file so only the culprit fails. */
export function analyzeComponent({ inputs, options }: ComponentTask): ComponentResult {
  try {
    return [...migrateProject(inputs, options)];
  } catch {
    const out: ComponentResult = [];
    for (const input of inputs) {
      try {
        out.push(...migrateProject([input], options));
      } catch (error) {
        out.push([input.file, { output: null, findings: [internalFailure(error)] }]);
      }
    }
    return out;
  }
}
