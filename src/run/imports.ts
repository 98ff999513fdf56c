/**
 * Module specifiers a JS/TS file imports or re-exports, found by a cheap scan (no parse): the import
 * graph decides which files without a RunPod URL still take part in a run (a wrapper module, the
 * call sites that use it, across workspace packages too).
 */
const SPECIFIER = /\b(?:import|export)\b[^;'"`]*?\bfrom\s*(['"])([^'"\n]+)\1|\bimport\s*\(\s*(['"])([^'"\n]+)\3\s*\)|\brequire\s*\(\s*(['"])([^'"\n]+)\5\s*\)|\bimport\s*(['"])([^'"\n]+)\7/g;

export function moduleSpecifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) out.push((m[2] ?? m[4] ?? m[6] ?? m[8])!);
  return out;
}
