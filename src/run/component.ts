import { internalFailure } from '../findings.js';
import { migrateProject, type MigrateOptions, type MigrateResult } from '../pipeline/js.js';
import { inspectProjects, type Project, type ProjectInput } from '../js/project.js';

/** One group of import-connected files, analysed together (in a worker or inline). */
export interface ComponentTask {
  inputs: ProjectInput[];
  options: MigrateOptions;
}

export type ComponentResult = Array<[string, MigrateResult]>;

/** A group's results, and what its analysis saw that decides whether the run may keep it apart from the others. */
export interface ComponentOutcome {
  results: ComponentResult;
  /** Shared inputs the analysis looked past (Project.crossTalk); every shared input when the engine failed. */
  crossTalk: string[];
  /** Per file, string literals opening with ' and with " (empty when the engine failed). */
  quotes: Array<[file: string, single: number, double: number]>;
}

/** Migrate a group; an engine failure is retried file by file so only the culprit fails. */
export function analyzeComponent({ inputs, options }: ComponentTask): ComponentOutcome {
  let project: Project | null = null;
  try {
    const results = inspectProjects(
      (p) => void (project ??= p),
      () => migrateProject(inputs, options),
    );
    const seen = project as Project | null;
    return { results: [...results], crossTalk: seen ? [...seen.crossTalk] : [], quotes: seen ? seen.quoteCounts() : [] };
  } catch {
    const results: ComponentResult = [];
    for (const input of inputs) {
      try {
        results.push(...migrateProject([input], options));
      } catch (error) {
        results.push([input.file, { output: null, findings: [internalFailure(error)] }]);
      }
    }
    return { results, crossTalk: inputs.filter((i) => i.shared).map((i) => i.file), quotes: [] };
  }
}
