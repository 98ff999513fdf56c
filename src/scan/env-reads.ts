/**
 * Whether a file's text may read the environment variable `name`, as a screen before parsing: the
 * name as a whole word. `process.env.X`, `process.env['X']`, `env?.X`, `import.meta.env.X` and
 * `const { X } = process.env` all spell it; the engine then decides on the syntax tree which of
 * them are reads (src/js/coverage.ts). Looser than any one spelling, so no read is missed.
 */
export function mayReadEnv(text: string, name: string): boolean {
  let at = text.indexOf(name);
  while (at !== -1) {
    if (!isWordChar(text.charCodeAt(at - 1)) && !isWordChar(text.charCodeAt(at + name.length))) return true;
    at = text.indexOf(name, at + 1);
  }
  return false;
}

const isWordChar = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
