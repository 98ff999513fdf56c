// An ES import: the bundle (rolldown.config.js) keeps only what structuredPatch needs, in the
// reporter's lazily loaded chunk, instead of loading the package's ~20 CommonJS modules.
import { structuredPatch } from 'diff';

export interface DiffStyle {
  /** Unchanged lines shown around each change. */
  context: number;
  /** A line's text as printed (without its ` `, `-` or `+`). */
  show: (line: string) => string;
}

/** A git-style unified diff of one file (`--- a/<path>`, `+++ b/<path>`, `@@` hunks). */
export function unifiedDiff(relPath: string, before: string, after: string, { context, show }: DiffStyle): string {
  const patch = structuredPatch(`a/${relPath}`, `b/${relPath}`, before, after, '', '', { context });
  const lines = [`diff --git a/${relPath} b/${relPath}`, `--- a/${relPath}`, `+++ b/${relPath}`];
  for (const h of patch.hunks) {
    lines.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    // `\ No newline at end of file` is jsdiff's marker, not a line of the file.
    lines.push(...h.lines.map((l) => (l.startsWith('\\') ? l : l[0] + show(l.slice(1)))));
  }
  return lines.join('\n') + '\n';
}
