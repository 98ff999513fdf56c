import type { ComponentOutcome, ComponentResult, ComponentTask } from '../run/component.js';
import { ResultCache } from '../run/cache.js';

/**
 * One group of import-connected files a run analysed together (a whole component, or one of the
 * groups a large component is cut into), with what the engine made of each.
 */
export interface Component {
  task: ComponentTask;
  results: ReadonlyMap<string, ComponentResult[number][1]>;
}

/**
 * The result cache a run is handed, kept in memory (in front of the disk cache when `--cache` is on),
 * which also remembers the components the last run analysed: which files' changes go together.
 * A later run over a tree where one file changed re-analyses only that file's component.
 */
export class ComponentLog extends ResultCache {
  private memory = new Map<string, ComponentOutcome>();
  private seen: Array<{ task: ComponentTask; key: string }> = [];

  constructor(
    dir: string,
    salt: string,
    private readonly disk: ResultCache | null = null,
  ) {
    super(dir, salt);
  }

  override get(task: ComponentTask): ComponentOutcome | null {
    const key = this.key(task);
    this.seen.push({ task, key });
    const hit = this.memory.get(key) ?? this.disk?.get(task) ?? null;
    if (hit) this.memory.set(key, hit);
    return hit;
  }

  override set(task: ComponentTask, outcome: ComponentOutcome): void {
    this.memory.set(this.key(task), outcome);
    this.disk?.set(task, outcome);
  }

  /** Call before a run: forget which components the previous one saw. */
  startRun(): void {
    this.seen = [];
  }

  /** The components of the run since startRun; results of components no longer seen are dropped. */
  components(): Component[] {
    const kept = new Map<string, ComponentOutcome>();
    const out: Component[] = [];
    for (const { task, key } of this.seen) {
      const outcome = this.memory.get(key);
      if (!outcome) continue;
      kept.set(key, outcome);
      out.push({ task, results: new Map(outcome.results) });
    }
    this.memory = kept;
    return out;
  }
}
