// worker_threads entry (tinypool): analyses one component per task.
import { analyzeComponent, type ComponentResult, type ComponentTask } from './component.js';

export default function run(task: ComponentTask): ComponentResult {
  return analyzeComponent(task);
}
