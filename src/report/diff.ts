// An ES import: the bundle (rolldown.config.js) keeps only what structuredPatch needs, in the
// reporter's lazily loaded chunk, instead of loading the package's ~20 CommonJS modules.
import { structuredPatch } from 'diff';

/** A git-style unified diff of one file (`--- a/<path>`, `+++ b/<path>`, `@@` hunks). */
export function unifiedDiff(relPath: string, before: string, after: string): string {
  const patch = structuredPatch(`a/${relPath}`, `b/${relPath}`, before, after, '', '', { context: 3 });
  const lines = [`diff --git a/${relPath} b/${relPath}`, `--- a/${relPath}`, `+++ b/${relPath}`];
  for (const h of patch.hunks) {
    lines.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    lines.push(...h.lines);
  }
  return lines.join('\n') + '\n';
}
