import { internalFailure } from '../findings.js';
import { migrateProject, type MigrateOptions, type MigrateResult } from '../js/migrate.js';
import type { ProjectInput } from '../js/project.js';

/** One import-connected group of files, analysed together (in a worker or inline). */
export interface ComponentTask {
  inputs: ProjectInput[];
  options: MigrateOptions;
}

export type ComponentResult = Array<[string, MigrateResult]>;


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
