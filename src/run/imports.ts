/**
 * Relative module specifiers a JS/TS file imports or re-exports, found by a cheap scan (no parse): the
 * import graph decides which files without a RunPod URL still take part in a run (a wrapper module,
 * the call sites that use it).
 */
const SPECIFIER = /\b(?:import|export)\b[^;'"`]*?\bfrom\s*(['"])(\.{1,2}\/[^'"]*)\1|\bimport\s*\(\s*(['"])(\.{1,2}\/[^'"]*)\3\s*\)|\brequire\s*\(\s*(['"])(\.{1,2}\/[^'"]*)\5\s*\)|\bimport\s*(['"])(\.{1,2}\/[^'"]*)\7/g;

export function relativeImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) out.push((m[2] ?? m[4] ?? m[6] ?? m[8])!);
  return out;
}
