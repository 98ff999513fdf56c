import path from 'node:path';

/** How comments are written in one kind of file. */
export interface CommentSyntax {
  /** Line comment openers (`//`, `#`). */
  line: readonly string[];
  /** Block comment delimiters (`/* … *\/`, `<!-- … -->`). */
  block: readonly (readonly [open: string, close: string])[];
  /** Markdown: fenced code blocks use their info string's language. */
  fences?: boolean;
}

const C_LIKE: CommentSyntax = { line: ['//'], block: [['/*', '*/']] };
const HASH: CommentSyntax = { line: ['#'], block: [] };
const HCL: CommentSyntax = { line: ['#', '//'], block: [['/*', '*/']] };
const HTTP: CommentSyntax = { line: ['#', '//'], block: [] };
const PHP: CommentSyntax = { line: ['//', '#'], block: [['/*', '*/']] };
const DASHES: CommentSyntax = { line: ['--'], block: [] };
const POWERSHELL: CommentSyntax = { line: ['#'], block: [['<#', '#>']] };
const XML: CommentSyntax = { line: [], block: [['<!--', '-->']] };
const MARKDOWN: CommentSyntax = { line: [], block: [['<!--', '-->']], fences: true };
/** Files of a kind we do not know: any of the usual comment forms. */
export const ANY_SYNTAX: CommentSyntax = { line: ['//', '#'], block: [['/*', '*/'], ['<!--', '-->']] };

const BY_EXTENSION: Record<string, CommentSyntax> = {
  '.js': C_LIKE, '.jsx': C_LIKE, '.mjs': C_LIKE, '.cjs': C_LIKE,
  '.ts': C_LIKE, '.tsx': C_LIKE, '.mts': C_LIKE, '.cts': C_LIKE,
  '.jsonc': C_LIKE, '.json5': C_LIKE,
  '.py': HASH, '.pyi': HASH, '.ipy': HASH,
  '.sh': HASH, '.bash': HASH, '.zsh': HASH, '.ksh': HASH, '.fish': HASH,
  '.yml': HASH, '.yaml': HASH, '.toml': HASH, '.env': HASH, '.ini': HASH, '.cfg': HASH, '.conf': HASH,
  '.dockerfile': HASH, '.mk': HASH, '.rb': HASH, '.r': HASH,
  '.tf': HCL, '.tfvars': HCL, '.hcl': HCL,
  '.http': HTTP, '.rest': HTTP,
  // Languages only the gate reads (src/scan/kinds.ts otherLanguageOf).
  '.go': C_LIKE, '.java': C_LIKE, '.kt': C_LIKE, '.kts': C_LIKE, '.scala': C_LIKE, '.groovy': C_LIKE, '.gradle': C_LIKE,
  '.cs': C_LIKE, '.swift': C_LIKE, '.rs': C_LIKE, '.dart': C_LIKE, '.c': C_LIKE, '.h': C_LIKE, '.cc': C_LIKE,
  '.cpp': C_LIKE, '.hpp': C_LIKE, '.m': C_LIKE, '.php': PHP, '.lua': DASHES, '.sql': DASHES,
  '.ps1': POWERSHELL, '.psm1': POWERSHELL, '.pl': HASH, '.pm': HASH, '.ex': HASH, '.exs': HASH, '.jl': HASH,
  '.properties': HASH, '.erl': { line: ['%'], block: [] }, '.xml': XML,
  '.md': MARKDOWN, '.markdown': MARKDOWN, '.mdx': MARKDOWN,
};

/** Fence info strings (```sh) → the syntax of the code inside. */
const BY_FENCE_LANGUAGE: Record<string, CommentSyntax> = {
  js: C_LIKE, javascript: C_LIKE, jsx: C_LIKE, mjs: C_LIKE, cjs: C_LIKE, ts: C_LIKE, typescript: C_LIKE, tsx: C_LIKE, jsonc: C_LIKE, json5: C_LIKE,
  sh: HASH, bash: HASH, shell: HASH, zsh: HASH, console: HASH, shellsession: HASH, fish: HASH,
  py: HASH, python: HASH, python3: HASH, yaml: HASH, yml: HASH, toml: HASH, dockerfile: HASH, docker: HASH,
  env: HASH, dotenv: HASH, ini: HASH, make: HASH, makefile: HASH, ruby: HASH, rb: HASH,
  tf: HCL, terraform: HCL, hcl: HCL, http: HTTP, rest: HTTP,
};
const FENCE_DEFAULT: CommentSyntax = HTTP;

/** The comment syntax of `file` (by extension or well-known name); unknown kinds accept every form. */
export function commentSyntaxFor(file: string): CommentSyntax {
  const base = path.basename(file).toLowerCase();
  if (base === 'dockerfile' || base.startsWith('dockerfile.') || base === 'containerfile' || base === 'makefile') return HASH;
  if (base === '.env' || base.startsWith('.env.')) return HASH;
  return BY_EXTENSION[path.extname(base)] ?? ANY_SYNTAX;
}

/** The syntax of a fenced code block's content, from its info string (` ```bash title="x" `). */
export function fenceSyntax(info: string): CommentSyntax {
  const lang = info.trim().split(/[\s{,]/)[0]!.toLowerCase();
  // Own keys only: a fence can be labelled ```constructor.
  return (Object.hasOwn(BY_FENCE_LANGUAGE, lang) ? BY_FENCE_LANGUAGE[lang] : undefined) ?? FENCE_DEFAULT;
}

/** The file's lines, split the way the engines number them (JS also breaks at U+2028/U+2029). */
export function splitLines(text: string, file = ''): string[] {
  const js = C_LIKE === commentSyntaxFor(file) && !/\.json[c5]$/i.test(file);
  return text.split(js ? /\r\n|[\r\n\u2028\u2029]/ : /\r\n|\r|\n/);
}
