import path from 'node:path';
import { COMPONENT_EXTENSIONS } from '../js/components.js';
import { languageOf } from '../text/language.js';

/** Which engine reads a file, by name alone (kept free of heavy imports: the CLI loads it at start). */
export const JS_EXTENSIONS = ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts'] as const;

/** Files the JS engine reads: JS/TS modules, and components and pages (their `<script>` code, js/components.ts). */
export function isJsFile(file: string): boolean {
  const ext = path.extname(file).toLowerCase();
  return (JS_EXTENSIONS as readonly string[]).includes(ext) || (COMPONENT_EXTENSIONS as readonly string[]).includes(ext);
}

/** `.env`, `.env.example`, `.env.production.local`, `prod.env`: the language table's .env files (text/language.ts). */
export const isEnvFile = (file: string): boolean => languageOf(file) === 'env';

/**
 * Code in languages neither engine reads, by extension → the language's name (for messages). Such a
 * file is only listed: each REST v1 base URL in its code is an `other-language` error, so `lint`
 * cannot pass while a Go service or a PowerShell script still calls v1.
 */
const OTHER_LANGUAGES: Readonly<Record<string, string>> = {
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
