import { COMPONENT_EXTENSIONS } from '../js/components.js';
import { languageOf, nameStart, namedLanguageOf } from '../text/language.js';

/** Which engine reads a file, by name alone (kept free of heavy imports: the CLI loads it at start). */
export const JS_EXTENSIONS = ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts'] as const;

/** What reads a file, by its name alone. */
export interface FileKind {
  /** The JS engine: JS/TS modules, and components and pages (their `<script>` code, js/components.ts). */
  js: boolean;
  /** A `.env` file (`.env`, `.env.example`, `prod.env`): read by the JS engine for values, and by the text engine. */
  env: boolean;
  /** The text engine (text/language.ts; .env files included). */
  text: boolean;
  /** Code in a language neither engine reads: its name, for messages (OTHER_LANGUAGES). */
  other: string | null;
}

const NONE: FileKind = { js: false, env: false, text: false, other: null };
/** Kinds by lower-case extension: a run asks about each of a tree's files several times, and most share a few extensions. */
const byExtension = new Map<string, FileKind>();

/** What reads `file`, by its extension (as path.extname reads it), and whole names of the language table (`.env.local`, `Dockerfile.gpu`). */
export function kindOf(file: string): FileKind {
  const start = nameStart(file);
  const dot = file.lastIndexOf('.');
  const kind = dot > start ? extensionKind(file.slice(dot)) : NONE;
  const named = namedLanguageOf(file.slice(start));
  return named ? { ...kind, env: named === 'env', text: true } : kind;
}

function extensionKind(ext: string): FileKind {
  let kind = byExtension.get(ext);
  if (kind) return kind;
  const lower = ext.toLowerCase();
  const language = languageOf(lower);
  kind = {
    js: (JS_EXTENSIONS as readonly string[]).includes(lower) || (COMPONENT_EXTENSIONS as readonly string[]).includes(lower),
    env: language === 'env',
    text: language !== null,
    other: OTHER_LANGUAGES[lower] ?? null,
  };
  byExtension.set(ext, kind);
  return kind;
}

/** Files the JS engine reads: JS/TS modules, and components and pages (their `<script>` code, js/components.ts). */
export const isJsFile = (file: string): boolean => kindOf(file).js;

/** `.env`, `.env.example`, `.env.production.local`, `prod.env`: the language table's .env files (text/language.ts). */
export const isEnvFile = (file: string): boolean => kindOf(file).env;

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

export const otherLanguageOf = (file: string): string | null => kindOf(file).other;
