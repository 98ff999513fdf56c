import path from 'node:path';

/** Which engine reads a file, by name alone (kept free of heavy imports: the CLI loads it at start). */
export const JS_EXTENSIONS = ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts'] as const;

export function isJsFile(file: string): boolean {
  return (JS_EXTENSIONS as readonly string[]).includes(path.extname(file).toLowerCase());
}

const ENV_FILE = /(^|[/\\])\.env(\.[\w.-]+)?$/;

/** `.env`, `.env.example`, `.env.production.local`, … */
export const isEnvFile = (file: string): boolean => ENV_FILE.test(file);
