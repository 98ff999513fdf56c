import { parse as babelParse, type ParserOptions, type ParserPlugin } from '@babel/parser';
import jscodeshift, { type Collection, type JSCodeshift, type Parser } from 'jscodeshift';
import path from 'node:path';

export const JS_EXTENSIONS = ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts'] as const;

export function isJsFile(file: string): boolean {
  return (JS_EXTENSIONS as readonly string[]).includes(path.extname(file).toLowerCase());
}

const COMMON: ParserPlugin[] = [
  'decorators-legacy',
  'classProperties',
  'classPrivateProperties',
  'classPrivateMethods',
  'dynamicImport',
  'importAttributes',
  'explicitResourceManagement',
  'topLevelAwait',
];

function pluginsFor(file: string): ParserPlugin[] {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.ts' || ext === '.mts' || ext === '.cts') return [...COMMON, 'typescript'];
  if (ext === '.tsx') return [...COMMON, 'typescript', 'jsx'];
  return [...COMMON, 'jsx'];
}

/** A jscodeshift/recast parser object using @babel/parser 7 with plugins chosen by file extension. */
export function parserFor(file: string): Parser {
  const options: ParserOptions = {
    sourceType: 'unambiguous',
    allowImportExportEverywhere: true,
    allowReturnOutsideFunction: true,
    allowAwaitOutsideFunction: true,
    allowNewTargetOutsideFunction: true,
    allowUndeclaredExports: true,
    startLine: 1,
    tokens: true,
    plugins: pluginsFor(file),
  };
  return { parse: (source: string) => babelParse(source, options) as unknown as ReturnType<Parser['parse']> };
}

export interface Parsed {
  j: JSCodeshift;
  root: Collection;
}

/** Parse for transformation (recast keeps the original formatting of untouched nodes). Throws on syntax errors. */
export function parseForTransform(source: string, file: string): Parsed {
  const j = jscodeshift.withParser(parserFor(file));
  return { j, root: j(source) };
}

/** Syntax check of produced output, independent of recast. Returns the error message or null. */
export function syntaxError(source: string, file: string): string | null {
  try {
    parserFor(file).parse(source);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
