import type { ComponentOutcome, ComponentTask } from './component.js';

/** Below this much source, a helper thread cannot load the engine in time to take a share (tests lower it). */
const HELPER_THRESHOLD_BYTES = Number(process.env.V2_MIGRATE_WORKER_THRESHOLD ?? 2 * 1024 * 1024);

const taskSize = (t: ComponentTask): number => t.inputs.reduce((n, i) => n + i.source.length, 0);

type Done = [ComponentTask, ComponentOutcome];

/**
 * Analyse components (largest first) on this thread, with `jobs - 1` helper threads taking the
 * smallest ones from the other end of the queue once they have loaded the engine. Nothing waits for
 * a helper that is still starting, and a task a helper fails on is analysed here, so the results,
 * keyed by task, are the same for any `jobs`.
 */
export async function* analyseComponents(tasks: readonly ComponentTask[], jobs: number): AsyncGenerator<Done> {
  // The engine (jscodeshift, Babel) is loaded only when some file needs it.
  const { analyzeComponent } = await import('./component.js');
  const queue = [...tasks].sort((a, b) => taskSize(b) - taskSize(a));
  const total = queue.reduce((n, t) => n + taskSize(t), 0);
  if (jobs <= 1 || queue.length < 2 || total < HELPER_THRESHOLD_BYTES) {
    for (const t of queue) yield [t, analyzeComponent(t)];
    return;
  }
  const { Tinypool } = await import('tinypool');
  const helpers = Math.min(jobs - 1, queue.length - 1);
  const pool = new Tinypool({ filename: new URL('./worker.js', import.meta.url).href, minThreads: helpers, maxThreads: helpers });
  const done: Done[] = [];
  const running = new Set<Promise<void>>();
  const helper = async (): Promise<void> => {
    await pool.run(null); // resolves once the thread has loaded the engine
    for (let t = queue.pop(); t; t = queue.pop()) {
      const task = t;
      const result = pool.run(task).then(
        (r: ComponentOutcome) => void done.push([task, r]),
        () => void done.push([task, analyzeComponent(task)]),
      );
      running.add(result);
      await result;
      running.delete(result);
    }
  };
  for (let i = 0; i < helpers; i++) helper().catch(() => undefined);
  try {
    for (let t = queue.shift(); t; t = queue.shift()) {
      yield [t, analyzeComponent(t)];
      // Let helpers hand in results and take their next task.
      await new Promise<void>((resolve) => setImmediate(resolve));
      yield* done.splice(0);
    }
    await Promise.all(running);
    yield* done.splice(0);
  } finally {
    await pool.destroy();
  }
}
