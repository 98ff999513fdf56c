/**
 * Fault injection for the write transaction's tests, set by V2_MIGRATE_TEST_FAULT (never by users):
 * `kill-after-stage` (SIGKILL once every file is staged and the journal written), `kill-at-rename:N`
 * (SIGKILL just before the Nth rename), `kill-after-commit`
 * (SIGKILL once every rename is done, before the journal is removed), `fail-rename:N` (the Nth rename fails with EIO).
 */
export type FaultHook = (point: 'staged' | 'rename' | 'committed', n?: number) => void;

const NO_FAULT: FaultHook = () => {};

export function faultHook(spec = process.env.V2_MIGRATE_TEST_FAULT): FaultHook {
  if (!spec) return NO_FAULT;
  const [what, at] = spec.split(':');
  const n = Number(at);
  return (point, i) => {
    if ((what === 'kill-after-stage' && point === 'staged') || (what === 'kill-after-commit' && point === 'committed')) die();
    if (point !== 'rename' || i !== n) return;
    if (what === 'kill-at-rename') die();
    if (what === 'fail-rename') throw Object.assign(new Error('injected rename failure'), { code: 'EIO' });
  };
}

/** SIGKILL this process, and wait for it: nothing after this point may run. */
function die(): never {
  process.kill(process.pid, 'SIGKILL');
  for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
}
