import path from 'node:path';
import { C_LIKE, fenceComments, fenceName, HASH, HCL_COMMENTS, HTTP_COMMENTS, LANGUAGES, languageOf, MARKDOWN_COMMENTS, type CommentSyntax } from '../text/language.js';

export type { CommentSyntax } from '../text/language.js';

const PHP: CommentSyntax = { line: ['//', '#'], block: [['/*', '*/']] };
const DASHES: CommentSyntax = { line: ['--'], block: [] };
const POWERSHELL: CommentSyntax = { line: ['#'], block: [['<#', '#>']] };
const XML: CommentSyntax = { line: [], block: [['<!--', '-->']] };
/** Files of a kind we do not know: any of the usual comment forms. */
export const ANY_SYNTAX: CommentSyntax = { line: ['//', '#'], block: [['/*', '*/'], ['<!--', '-->']] };

/** Kinds of files the text engine does not read (its languages are in text/language.ts). */
const BY_EXTENSION: Readonly<Record<string, CommentSyntax>> = {
  '.js': C_LIKE, '.jsx': C_LIKE, '.mjs': C_LIKE, '.cjs': C_LIKE,
  '.ts': C_LIKE, '.tsx': C_LIKE, '.mts': C_LIKE, '.cts': C_LIKE,
  '.json5': C_LIKE,
  '.pyi': HASH, '.ipy': HASH, '.ksh': HASH, '.fish': HASH,
  '.ini': HASH, '.cfg': HASH, '.conf': HASH, '.mk': HASH, '.rb': HASH, '.r': HASH,
  '.hcl': HCL_COMMENTS, '.markdown': MARKDOWN_COMMENTS,
  // Languages only the gate reads (src/scan/kinds.ts otherLanguageOf).
  '.go': C_LIKE, '.java': C_LIKE, '.kt': C_LIKE, '.kts': C_LIKE, '.scala': C_LIKE, '.groovy': C_LIKE, '.gradle': C_LIKE,
  '.cs': C_LIKE, '.swift': C_LIKE, '.rs': C_LIKE, '.dart': C_LIKE, '.c': C_LIKE, '.h': C_LIKE, '.cc': C_LIKE,
  '.cpp': C_LIKE, '.hpp': C_LIKE, '.m': C_LIKE, '.php': PHP, '.lua': DASHES, '.sql': DASHES,
  '.ps1': POWERSHELL, '.psm1': POWERSHELL, '.pl': HASH, '.pm': HASH, '.ex': HASH, '.exs': HASH, '.jl': HASH,
  '.properties': HASH, '.erl': { line: ['%'], block: [] }, '.xml': XML,
};

/** Fence names of code the text engine does not read. */
const BY_FENCE_LANGUAGE: Readonly<Record<string, CommentSyntax>> = { fish: HASH, ini: HASH, make: HASH, makefile: HASH, ruby: HASH, rb: HASH };
const FENCE_DEFAULT: CommentSyntax = HTTP_COMMENTS;

/** The comment syntax of `file` (the text engine's languages, then by extension or well-known name); unknown kinds accept every form. */
export function commentSyntaxFor(file: string): CommentSyntax {
  const language = languageOf(path.basename(file));
  if (language) return LANGUAGES[language].comments;
  const base = path.basename(file).toLowerCase();
  if (base === 'dockerfile' || base.startsWith('dockerfile.') || base === 'containerfile' || base === 'makefile') return HASH;
  return BY_EXTENSION[path.extname(base)] ?? ANY_SYNTAX;
}

/** The syntax of a fenced code block's content, from its info string (` ```bash title="x" `). */
export function fenceSyntax(info: string): CommentSyntax {
  const name = fenceName(info);
  // Own keys only: a fence can be labelled ```constructor.
  return fenceComments(info) ?? (Object.hasOwn(BY_FENCE_LANGUAGE, name) ? BY_FENCE_LANGUAGE[name] : undefined) ?? FENCE_DEFAULT;
}

/** The file's lines, split the way the engines number them (JS also breaks at U+2028/U+2029). */
export function splitLines(text: string, file = ''): string[] {
  const js = C_LIKE === commentSyntaxFor(file) && !/\.json[c5]?$/i.test(file);
  return text.split(js ? /\r\n|[\r\n\u2028\u2029]/ : /\r\n|\r|\n/);
}
