/**
 * Bodies built at run time (a tool's validated input, `{ ...rest }`, a loop-built record): the
 * request keeps its body expression, wrapped in a call to a generated adapter (src/adapters) that
 * reshapes v1 fields for v2 at run time and throws on fields v2 has no place for. This module makes
 * the engine's side of it: which files can import an adapter, the wrapping edit, and the import.
 */
import path from 'node:path';
import { isBodyOperationId, type BodyOperationId } from '../../map/bodies.js';
import { adapterName, needsAdapter, type AdapterExport } from '../../adapters/generate.js';
import { LIST_QUERY } from '../../adapters/list-query.js';
import type { SourceEdit } from '../edits.js';
import { lineStart } from '../edits.js';
import type { N, P, t } from '../ast.js';
import { keyName } from '../scope.js';
import { ADAPTER_BASENAME, adapterExtension, fixedAdapterFile, type AdapterLanguage } from '../../adapters/adapter-file.js';
import { relativeFrom } from '../../util/folders.js';

export { ADAPTER_BASENAME, adapterExtension, type AdapterLanguage };

/** A wrapping edit, tagged so the run can add the import and write the adapter file. */
export interface AdapterEdit extends SourceEdit {
  adapter: { op: AdapterExport; program: P<t.Program>; file: string };
}

export const isAdapterEdit = (e: SourceEdit): e is AdapterEdit => 'adapter' in e;

/** The operation whose adapter `toV2<Op>Body(…)` is, for a call already wrapped (a later run). */
export function adapterCallOf(n: N): BodyOperationId | null {
  if (n?.type !== 'CallExpression' || n.callee.type !== 'Identifier') return null;
  const op = /^toV2(\w+)Body$/.exec(n.callee.name)?.[1] ?? '';
  return isBodyOperationId(op) ? op : null;
}

/** The program a path belongs to. */
function programOf(p: P): P<t.Program> {
  let q = p;
  while (q.parentPath) q = q.parentPath;
  return (q.value.type === 'File' ? q.get('program') : q) as P<t.Program>;
}

/**
 * The language of the adapter a file can import, or null when it cannot import one statically: a
 * CommonJS file (no `import`/`export`, or `.cjs`/`.cts`).
 */
export function adapterLanguageOf(file: string, program: P<t.Program>): AdapterLanguage | null {
  if (/\.c[jt]s$/.test(file)) return null;
  const isModule = program.value.body.some((s) => /^(Import|Export)/.test(s.type));
  if (/\.(m?ts|tsx)$/.test(file)) return isModule ? 'ts' : null;
  return isModule ? 'js' : null;
}

/** Wrap the carrier expression in the operation's adapter, or null when this file cannot import it. */
export function wrapInAdapter(source: string, carrier: P, op: BodyOperationId, file: string): AdapterEdit | null {
  if (!needsAdapter(op)) return null;
  const program = programOf(carrier);
  if (!adapterLanguageOf(file, program)) return null;
  const n = carrier.node;
  return { start: n.start!, end: n.end!, text: `${adapterName(op)}(${source.slice(n.start!, n.end!)})`, node: n, adapter: { op, program, file } };
}

/**
 * Wrap a list query only known at run time in the list-query guard (`v2ListQuery('ListPods', query)`), or
 * null when this file cannot import it.
 */
export function wrapInListQuery(source: string, carrier: P, op: string, file: string): AdapterEdit | null {
  const program = programOf(carrier);
  if (!adapterLanguageOf(file, program)) return null;
  const n = carrier.node;
  return { start: n.start!, end: n.end!, text: `${adapterName(LIST_QUERY)}('${op}', ${source.slice(n.start!, n.end!)})`, node: n, adapter: { op: LIST_QUERY, program, file } };
}

/** The deepest folder holding every importer: where the adapter file goes unless the config says. */
export function commonFolder(files: readonly string[]): string {
  let dir = path.dirname(files[0]!);
  for (const f of files) while (!(path.dirname(f) + path.sep).startsWith(dir + path.sep) && dir !== path.dirname(dir)) dir = path.dirname(dir);
  return dir;
}

/** How a file imports the adapter file: relative, with the extension style its own relative imports use. */
export function importSpecifier(importer: string, adapterFile: string, program: P<t.Program>): string {
  let rel = relativeFrom(importer, adapterFile);
  if (!rel.startsWith('.')) rel = `./${rel}`;
  if (adapterFile.endsWith('.mjs')) return rel;
  // TypeScript: `./x.js` resolves to x.ts under every module resolution; extensionless only where the file writes so.
  const relatives = program.value.body.filter((s) => s.type === 'ImportDeclaration' && /^\.\.?\//.test(s.source.value)).map((s) => (s as t.ImportDeclaration).source.value);
  const extensionless = relatives.length > 0 && relatives.every((s) => !/\.[cm]?[jt]sx?$/.test(s));
  return rel.replace(/\.ts$/, extensionless ? '' : '.js');
}

/**
 * The import of `names` from `specifier`: added to an existing import of it, or as a new line after
 * the file's last import (at the top of a file without imports, below a shebang and directives).
 */
export function importEdit(source: string, program: P<t.Program>, specifier: string, names: readonly string[], quote: string): SourceEdit | null {
  const body = program.value.body;
  const existing = body.find((s): s is t.ImportDeclaration => s.type === 'ImportDeclaration' && s.source.value === specifier && s.importKind !== 'type');
  if (existing) {
    const have = new Set(existing.specifiers.filter((s) => s.type === 'ImportSpecifier').map((s) => keyName(s.imported)));
    const missing = names.filter((n) => !have.has(n));
    const last = existing.specifiers.at(-1);
    if (!missing.length) return null;
    if (!last || last.type !== 'ImportSpecifier') return null;
    return { start: last.end!, end: last.end!, text: missing.map((n) => `, ${n}`).join(''), node: existing, universal: true };
  }
  const line = `import { ${[...names].sort().join(', ')} } from ${quote}${specifier}${quote};\n`;
  // After the last import or directive: on the next line (offsets are in the run's combined source, so stay in this file).
  const after = body.filter((s) => s.type === 'ImportDeclaration').at(-1) ?? (program.value.directives ?? []).at(-1);
  if (after) {
    const fileEnd: number = program.value.end!;
    const end = source.indexOf('\n', after.end!);
    if (end < 0 || end >= fileEnd) return { start: fileEnd, end: fileEnd, text: `\n${line.trimEnd()}`, node: program.value, universal: true };
    return { start: end + 1, end: end + 1, text: line, node: program.value, universal: true };
  }
  // The first import of the file: a blank line sets it apart from the code.
  const top = body[0] ? lineStart(source, (body[0].leadingComments?.[0]?.start ?? body[0].start)!) : program.value.start!;
  return { start: top, end: top, text: `${line}\n`, node: program.value, universal: true };
}

/** What a migrated file needs from the generated adapter file. */
export interface AdapterNeed {
  /** The adapter file (same path style as the importing file's). */
  file: string;
  language: AdapterLanguage;
  ops: AdapterExport[];
}

/**
 * For the wrapping edits that survived planning: one import per importing file, and where each
 * language's adapter file goes (the config's file, or the deepest folder holding every importer).
 */
export function adapterImports(edits: readonly SourceEdit[], source: string, quote: string, fixedFile: string | null): { imports: SourceEdit[]; needs: Map<string, AdapterNeed> } {
  const imports: SourceEdit[] = [];
  const needs = new Map<string, AdapterNeed>();
  const byLanguage = new Map<AdapterLanguage, Map<string, { program: P<t.Program>; ops: Set<AdapterExport> }>>();
  for (const e of edits.filter(isAdapterEdit)) {
    const { op, program, file } = e.adapter;
    const language = adapterLanguageOf(file, program)!;
    const files = byLanguage.get(language) ?? new Map<string, { program: P<t.Program>; ops: Set<AdapterExport> }>();
    byLanguage.set(language, files);
    const entry = files.get(file) ?? { program, ops: new Set<AdapterExport>() };
    files.set(file, entry.ops.add(op) && entry);
  }
  for (const [language, files] of byLanguage) {
    const importers = [...files.keys()].sort();
    const adapterFile = fixedFile ? fixedAdapterFile(fixedFile, language) : path.join(commonFolder(importers), ADAPTER_BASENAME) + adapterExtension(language);
    const ops = [...new Set([...files.values()].flatMap((f) => [...f.ops]))].sort();
    for (const importer of importers) {
      const { program, ops: used } = files.get(importer)!;
      const edit = importEdit(source, program, importSpecifier(importer, adapterFile, program), [...used].map(adapterName), quote);
      if (edit) imports.push(edit);
      needs.set(importer, { file: adapterFile, language, ops });
    }
  }
  return { imports, needs };
}
