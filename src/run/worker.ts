// worker_threads entry (tinypool): analyses one component per task; `null` only checks the engine is loaded.
import { analyzeComponent, type ComponentOutcome, type ComponentTask } from './component.js';

export default function run(task: ComponentTask | null): ComponentOutcome | null {
  return task && analyzeComponent(task);
}
