/**
 * A one-line progress display on stderr: files scanned, parsed, changed, findings, elapsed. Only for
 * an interactive terminal: nothing in CI, with --quiet, or when stderr is not a TTY.
 */
export interface Progress {
  scanned(n?: number): void;
  analysed(files: number, changed: number, findings: number): void;
  done(): void;
}

const SILENT: Progress = { scanned: () => {}, analysed: () => {}, done: () => {} };

export function makeProgress(stream: NodeJS.WriteStream, enabled: boolean): Progress {
  if (!enabled || !stream.isTTY || process.env.CI) return SILENT;
  const start = Date.now();
  const counts = { scanned: 0, parsed: 0, changed: 0, findings: 0 };
  let last = 0;
  const draw = (force = false): void => {
    const now = Date.now();
    if (!force && now - last < 100) return;
    last = now;
    const line = `v2-migrate: ${counts.scanned} scanned, ${counts.parsed} parsed, ${counts.changed} changed, ${counts.findings} findings, ${((now - start) / 1000).toFixed(1)}s`;
    stream.write(`\r${line.slice(0, (stream.columns || 80) - 1)}\x1b[K`);
  };
  return {
    scanned(n = 1) {
      counts.scanned += n;
      draw();
    },
    analysed(files, changed, findings) {
      counts.parsed += files;
      counts.changed += changed;
      counts.findings += findings;
      draw();
    },
    done() {
      stream.write('\r\x1b[K');
    },
  };
}

export const NO_PROGRESS = SILENT;
