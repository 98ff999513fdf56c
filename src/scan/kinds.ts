import path from 'node:path';

/** Which engine reads a file, by name alone (kept free of heavy imports: the CLI loads it at start). */
export const JS_EXTENSIONS = ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts'] as const;

export function isJsFile(file: string): boolean {
  return (JS_EXTENSIONS as readonly string[]).includes(path.extname(file).toLowerCase());
}

const ENV_FILE = /(^|[/\\])\.env(\.[\w.-]+)?$/;

/** `.env`, `.env.example`, `.env.production.local`, … */
export const isEnvFile = (file: string): boolean => ENV_FILE.test(file);

/**
 * Code in languages neither engine reads, by extension → the language's name (for messages). Such a
 * file is only listed: each REST v1 base URL in its code is an `other-language` error, so `lint`
 * cannot pass while a Go service, a Vue dashboard or a PowerShell script still calls v1.
 */
const OTHER_LANGUAGES: Readonly<Record<string, string>> = {
  '.vue': 'Vue', '.svelte': 'Svelte', '.astro': 'Astro', '.html': 'HTML', '.htm': 'HTML',
  '.go': 'Go', '.rb': 'Ruby', '.php': 'PHP', '.java': 'Java', '.kt': 'Kotlin', '.kts': 'Kotlin',
  '.scala': 'Scala', '.groovy': 'Groovy', '.gradle': 'Gradle', '.cs': 'C#', '.fs': 'F#', '.swift': 'Swift',
  '.rs': 'Rust', '.dart': 'Dart', '.c': 'C', '.h': 'C', '.cc': 'C++', '.cpp': 'C++', '.hpp': 'C++',
  '.m': 'Objective-C', '.lua': 'Lua', '.ex': 'Elixir', '.exs': 'Elixir', '.erl': 'Erlang', '.r': 'R',
  '.jl': 'Julia', '.pl': 'Perl', '.pm': 'Perl', '.ps1': 'PowerShell', '.psm1': 'PowerShell',
  '.bat': 'Batch', '.cmd': 'Batch', '.fish': 'fish', '.ipynb': 'Jupyter notebook', '.sql': 'SQL',
  '.ini': 'INI', '.cfg': 'config', '.conf': 'config', '.properties': 'properties', '.xml': 'XML',
};

export function otherLanguageOf(file: string): string | null {
  return OTHER_LANGUAGES[path.extname(file).toLowerCase()] ?? null;
}
