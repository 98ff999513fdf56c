import { lenientText } from './files.js';

/**
 * Module specifiers a JS/TS file imports or re-exports, found by a cheap scan (no parse): the import
 * graph decides which files without a RunPod URL still take part in a run (a wrapper module, the
 * call sites that use it, across workspace packages too).
 */
// Linear on any input (no lazy scan across a statement): `from '…'`, `import('…')`, `require('…')`,
// `import '…'`. A stray `from '…'` in a string only adds a harmless edge.
const SPECIFIER = /\bfrom\s*(['"])([^'"\n]+)\1|\b(?:import|require)\s*\(\s*(['"])([^'"\n]+)\3\s*\)|\bimport\s*(['"])([^'"\n]+)\5/g;

export function moduleSpecifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) out.push((m[2] ?? m[4] ?? m[6])!);
  return out;
}

/** The same, read off a file's bytes as the byte screen and the import graph have them (never fails to decode). */
export const specifiersInBytes = (bytes: Buffer): string[] => moduleSpecifiers(lenientText(bytes));
