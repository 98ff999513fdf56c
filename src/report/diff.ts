import { lazy, requireDependency } from '../util/lazy.js';

const diffLibrary = lazy((): typeof import('diff') => requireDependency('diff'));

/** A git-style unified diff of one file (`--- a/<path>`, `+++ b/<path>`, `@@` hunks). */
export function unifiedDiff(relPath: string, before: string, after: string): string {
  const patch = diffLibrary().structuredPatch(`a/${relPath}`, `b/${relPath}`, before, after, '', '', { context: 3 });
  const lines = [`diff --git a/${relPath} b/${relPath}`, `--- a/${relPath}`, `+++ b/${relPath}`];
  for (const h of patch.hunks) {
    lines.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    lines.push(...h.lines);
  }
  return lines.join('\n') + '\n';
}
