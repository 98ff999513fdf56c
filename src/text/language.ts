/**
 * The text engine's languages in one table: the file names and Markdown fence names each is known by,
 * the tree-sitter grammar it is read with, the grammars of the code its files can hold (the shell of a
 * Dockerfile RUN or a CI `run:` script), and how its comments are written (markers and TODO comments,
 * src/markers/syntax.ts). Kept free of the scanners: discovery and the markers read it at start.
 *
 * Adding a language: a row here, a scanner over its grammar (text/index.ts scanLanguage), and its
 * grammar's .wasm in rolldown.config.js GRAMMARS when it is a new one (text/grammars.ts loads it).
 */
export type Language = 'python' | 'shell' | 'markdown' | 'yaml' | 'json' | 'toml' | 'env' | 'http' | 'hcl' | 'dockerfile';

/** The tree-sitter grammars the text engine reads with (text/grammars.ts). */
export type Grammar = 'bash' | 'hcl' | 'python' | 'toml';

/** How comments are written in one kind of file. */
export interface CommentSyntax {
  /** Line comment openers (`//`, `#`). */
  line: readonly string[];
  /** Block comment delimiters (`/* … *\/`, `<!-- … -->`). */
  block: readonly (readonly [open: string, close: string])[];
  /** Markdown: fenced code blocks use their info string's language. */
  fences?: boolean;
}

export const C_LIKE: CommentSyntax = { line: ['//'], block: [['/*', '*/']] };
export const HASH: CommentSyntax = { line: ['#'], block: [] };
export const HCL_COMMENTS: CommentSyntax = { line: ['#', '//'], block: [['/*', '*/']] };
export const HTTP_COMMENTS: CommentSyntax = { line: ['#', '//'], block: [] };
export const MARKDOWN_COMMENTS: CommentSyntax = { line: [], block: [['<!--', '-->']], fences: true };

export interface LanguageInfo {
  /** File name extensions, lower case. */
  extensions: readonly string[];
  /** Whole file names of the language (`Dockerfile.gpu`, `.env.local`). */
  names?: RegExp;
  /** Markdown fence info strings whose code is this language. */
  fences: readonly string[];
  /** The grammar its files are read (and their rewrites re-parsed) with, if any. */
  grammar: Grammar | null;
  /** Grammars of the code its files hold (Markdown: those of its fences, see text/grammars.ts grammarsFor). */
  holds: readonly Grammar[];
  comments: CommentSyntax;
}

export const LANGUAGES: Readonly<Record<Language, LanguageInfo>> = {
  python: { extensions: ['.py'], fences: ['python', 'py', 'python3'], grammar: 'python', holds: [], comments: HASH },
  shell: { extensions: ['.sh', '.bash', '.zsh'], fences: ['sh', 'bash', 'shell', 'zsh', 'curl'], grammar: 'bash', holds: [], comments: HASH },
  // Console sessions, unlabelled fences and indented blocks that run curl are shell.
  markdown: { extensions: ['.md', '.mdx'], fences: [], grammar: null, holds: ['bash'], comments: MARKDOWN_COMMENTS },
  // CI `run:` / `script:` blocks and `curl …` values are shell.
  yaml: { extensions: ['.yaml', '.yml'], fences: ['yaml', 'yml'], grammar: null, holds: ['bash'], comments: HASH },
  // Strings that run curl (package.json scripts, Postman pre-request scripts) are shell.
  json: { extensions: ['.json', '.jsonc'], fences: ['json', 'jsonc', 'json5'], grammar: null, holds: ['bash'], comments: C_LIKE },
  toml: { extensions: ['.toml'], fences: ['toml'], grammar: 'toml', holds: [], comments: HASH },
  env: { extensions: ['.env'], names: /^\.env(\..*)?$/, fences: ['dotenv', 'env', 'ini'], grammar: null, holds: [], comments: HASH },
  http: { extensions: ['.http', '.rest'], fences: ['http', 'rest'], grammar: null, holds: [], comments: HTTP_COMMENTS },
  // Provisioner commands and heredocs that run curl are shell.
  hcl: { extensions: ['.tf', '.tfvars'], fences: ['hcl', 'terraform', 'tf'], grammar: 'hcl', holds: ['bash'], comments: HCL_COMMENTS },
  // RUN, CMD and ENTRYPOINT are shell; so are ENV / ARG / LABEL values.
  dockerfile: { extensions: ['.dockerfile'], names: /^(Dockerfile|Containerfile)$|^Dockerfile[.-]/, fences: ['dockerfile', 'docker'], grammar: null, holds: ['bash'], comments: HASH },
};

/** Fence kinds that are no file language: JS/TS (the JS engine), sessions with prompts, GraphQL. */
export type FenceKind = 'js' | 'console' | 'pycon' | 'graphql';

export const FENCE_KINDS: Readonly<Record<FenceKind, { fences: readonly string[]; grammar: Grammar | null; comments: CommentSyntax }>> = {
  js: { fences: ['js', 'javascript', 'jsx', 'ts', 'typescript', 'tsx', 'mjs', 'cjs', 'node'], grammar: null, comments: C_LIKE },
  console: { fences: ['console', 'shell-session', 'shellsession', 'terminal'], grammar: 'bash', comments: HASH },
  pycon: { fences: ['pycon', 'python-repl'], grammar: 'python', comments: HASH },
  graphql: { fences: ['graphql', 'gql'], grammar: null, comments: HASH },
};

const entries = <K extends string, V>(record: Readonly<Record<K, V>>): Array<[K, V]> => {
  const out: Array<[K, V]> = [];
  for (const key in record) out.push([key, record[key]]);
  return out;
};

const BY_EXTENSION = new Map<string, Language>(entries(LANGUAGES).flatMap(([lang, info]) => info.extensions.map((ext): [string, Language] => [ext, lang])));
const BY_FENCE = new Map<string, Language | FenceKind>([
  ...entries(LANGUAGES).flatMap(([lang, info]) => info.fences.map((name): [string, Language | FenceKind] => [name, lang])),
  ...entries(FENCE_KINDS).flatMap(([kind, info]) => info.fences.map((name): [string, Language | FenceKind] => [name, kind])),
]);

/** The languages known by whole file names (`.env.local`, `Dockerfile.gpu`), checked before extensions. */
const BY_NAME = entries(LANGUAGES).flatMap(([lang, info]) => (info.names ? [[lang, info.names] as const] : []));

/** The language a file's whole name (no folder) says it is, if any. */
export function namedLanguageOf(name: string): Language | null {
  for (const [lang, names] of BY_NAME) if (names.test(name)) return lang;
  return null;
}

/** Where a path's last name starts (after `/` or `\\`, whichever the path is written with). */
export const nameStart = (file: string): number => Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1;

/** Which text-engine language a file is, by its name. */
export function languageOf(file: string): Language | null {
  const base = file.slice(nameStart(file));
  const named = namedLanguageOf(base);
  if (named) return named;
  const dot = base.lastIndexOf('.');
  if (dot < 0) return null;
  return BY_EXTENSION.get(base.slice(dot).toLowerCase()) ?? null;
}

/** The first word of a fence info string (```bash title="x"), lower case. */
export const fenceName = (info: string): string => info.trim().split(/[\s{,]/)[0]?.toLowerCase() ?? '';

/** Fenced code block info strings (Markdown) → the language their content is scanned as. */
export function fenceLanguage(info: string): Language | FenceKind | null {
  return BY_FENCE.get(fenceName(info)) ?? null;
}

/** The grammar a fence's code is read with, if any. */
export function fenceGrammar(info: string): Grammar | null {
  const lang = fenceLanguage(info);
  if (!lang) return null;
  return isLanguage(lang) ? LANGUAGES[lang].grammar : FENCE_KINDS[lang].grammar;
}

/** The comment syntax of a fence's code, or null for a fence name the table does not know. */
export function fenceComments(info: string): CommentSyntax | null {
  const lang = fenceLanguage(info);
  if (!lang) return null;
  return isLanguage(lang) ? LANGUAGES[lang].comments : FENCE_KINDS[lang].comments;
}

function isLanguage(kind: Language | FenceKind): kind is Language {
  return Object.hasOwn(LANGUAGES, kind);
}

/** The text engine handles this file (by its name). Kept here, free of the scanners, for discovery. */
export function isTextEngineFile(file: string): boolean {
  return languageOf(file) !== null;
}
