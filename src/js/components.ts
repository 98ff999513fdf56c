import path from 'node:path';
import { maskOutside } from '../util/mask.js';

/**
 * Single-file components and pages (`.vue`, `.svelte`, `.astro`, `.html`): their code is the
 * `<script>` blocks (and an Astro file's `---` frontmatter). The JS engine reads them as one program
 * in which everything else is blanked: each character outside the code becomes a space, line breaks
 * stay. So offsets, lines and columns are the file's own, an edit planned on the view applies to the
 * file unchanged, and the template is never touched (its v1 URLs are left to the gate).
 */
export const COMPONENT_EXTENSIONS = ['.vue', '.svelte', '.astro', '.html', '.htm'] as const;

export function isComponentFile(file: string): boolean {
  return (COMPONENT_EXTENSIONS as readonly string[]).includes(path.extname(file).toLowerCase());
}

// A script element's content, unless its type says it is not JavaScript (a JSON island, a template).
const SCRIPT = /<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/script\s*>/gi;
const NOT_CODE_TYPE = /\btype\s*=\s*["']?(?!(?:module|text\/javascript|application\/javascript|text\/typescript|ts)["'\s>])[^"'\s>]+/i;
const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** The `[start, end)` ranges of `source` that are code. */
export function codeRanges(source: string, file: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (path.extname(file).toLowerCase() === '.astro') {
    const m = FRONTMATTER.exec(source);
    if (m) {
      const start = m[0].indexOf('\n') + 1;
      out.push([start, start + m[1]!.length]);
    }
  }
  for (const m of source.matchAll(SCRIPT)) {
    if (NOT_CODE_TYPE.test(m[1]!)) continue;
    const start = m.index + m[0].lastIndexOf('</') - m[2]!.length;
    out.push([start, start + m[2]!.length]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** The file as the engine reads it: code kept, everything else blanked (line breaks kept). */
export function codeView(source: string, file: string): string {
  return maskOutside(source, codeRanges(source, file));
}
