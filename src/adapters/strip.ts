import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Node } from '@babel/types';
import { lazy, requireDependency } from '../util/lazy.js';

/**
 * The adapter runtime's text for a generated file, in TypeScript or JavaScript, from the one source
 * src/adapters/runtime.ts: its header comment and `export` keywords removed, and for JavaScript its
 * type syntax cut out at the parser's node offsets (the rest of the text, comments and layout stay).
 *
 * The .ts file ships with the package (package.json `files`), so this works the same from the
 * sources (vitest), from dist/src and from the dist/lib bundle: each finds it from its own location.
 */
const RUNTIME = path.join('src', 'adapters', 'runtime.ts');

function runtimePath(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, RUNTIME);
    if (fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`v2-migrate: ${RUNTIME} is missing from the installed package; reinstall v2-migrate.`);
    dir = parent;
  }
}

type Cut = [start: number, end: number];
type AnyNode = Node & Record<string, unknown>;

const isNode = (value: unknown): value is AnyNode => !!value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string';
const TYPE_DECLARATIONS = new Set(['TSInterfaceDeclaration', 'TSTypeAliasDeclaration']);
/** Keys holding type syntax on otherwise JavaScript nodes. */
const TYPE_KEYS = ['typeAnnotation', 'returnType', 'typeParameters', 'typeArguments'];
const SKIPPED_KEYS = new Set(['leadingComments', 'trailingComments', 'innerComments', 'loc', 'extra']);

/** A statement with the comments that document it. */
function withComments(node: AnyNode): Cut {
  const first = node.leadingComments?.[0];
  return [first ? first.start! : node.start!, node.end!];
}

/** Type annotations inside JavaScript code; any other type syntax is refused, so the JavaScript stays right. */
function typeCuts(node: AnyNode, cuts: Cut[]): void {
  if (node.type.startsWith('TS') || (node.type === 'Identifier' && node.optional)) {
    throw new Error(`src/adapters/runtime.ts:${node.loc?.start.line}: ${node.type} cannot be stripped to JavaScript; use type annotations and type declarations only`);
  }
  for (const [key, value] of Object.entries(node)) {
    if (SKIPPED_KEYS.has(key)) continue;
    if (TYPE_KEYS.includes(key) && isNode(value)) {
      cuts.push([value.start!, value.end!]);
      continue;
    }
    for (const child of Array.isArray(value) ? value : [value]) if (isNode(child)) typeCuts(child, cuts);
  }
}

function runtimeText(types: boolean): string {
  const { parse }: typeof import('@babel/parser') = requireDependency('@babel/parser');
  const source = fs.readFileSync(runtimePath(), 'utf8');
  const file = parse(source, { sourceType: 'module', plugins: ['typescript'] });
  const cuts: Cut[] = [];
  const header = file.comments?.[0];
  if (header?.start === 0) cuts.push([0, header.end!]);
  for (const statement of file.program.body as AnyNode[]) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? (statement.declaration as AnyNode | null) : statement;
    if (!declaration) throw new Error('src/adapters/runtime.ts: export lists are not supported; export declarations');
    if (!types && TYPE_DECLARATIONS.has(declaration.type)) {
      cuts.push(withComments(statement));
      continue;
    }
    if (declaration !== statement) cuts.push([statement.start!, declaration.start!]);
    if (!types) typeCuts(declaration, cuts);
  }
  // The header is also the first statement's leading comment: cuts may overlap.
  let text = '';
  let at = 0;
  for (const [start, end] of cuts.sort((a, b) => a[0] - b[0])) {
    if (start > at) text += source.slice(at, start);
    at = Math.max(at, end);
  }
  text += source.slice(at);
  // Removed declarations leave their blank lines behind.
  return `${text.replace(/\n[ \t]*(?=\n)/g, '\n').replace(/\n{3,}/g, '\n\n').trim()}\n`;
}

/** The runtime for a generated TypeScript file. */
export const runtimeTypeScript = lazy(() => runtimeText(true));

/** The runtime for a generated JavaScript file. */
export const runtimeJavaScript = lazy(() => runtimeText(false));
