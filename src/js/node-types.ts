/**
 * What ast-types' definitions say about Babel node types, read from their written-out form
 * (ast-defs.ts) rather than from ast-types itself: building its definitions took ~30 ms of every run
 * that parses a file. The answers are ast-types': a type is another when that type is among its
 * bases, transitively (its non-deep `namedTypes.X.check`).
 */
import { AST_DEFS } from './ast-defs.js';

const supertypes = new Map<string, ReadonlySet<string>>();

/** The type itself and every type it derives from; empty for a type ast-types does not define. */
function supertypesOf(type: string): ReadonlySet<string> {
  let set = supertypes.get(type);
  if (!set) {
    const def = Object.hasOwn(AST_DEFS, type) ? AST_DEFS[type] : undefined;
    const all = new Set<string>();
    if (def) {
      all.add(type);
      for (const base of words(def[0])) for (const t of supertypesOf(base)) all.add(t);
    }
    supertypes.set(type, (set = all));
  }
  return set;
}

const words = (s: string): string[] => (s ? s.split(' ') : []);

/** Is a node of type `type` one of `kind` (e.g. `isA('FunctionDeclaration', 'Function')`)? */
export const isA = (type: string, kind: string): boolean => supertypesOf(type).has(kind);

/** Is this value a node (comments, positions, arrays and primitives are not)? */
export const isNode = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && isA((value as { type: string }).type, 'Node');

const fields = new Map<string, readonly string[]>();

/** The fields ast-types' definition gives a node type, in its order (without type, loc and comments). */
export function fieldsOf(type: string): readonly string[] {
  let list = fields.get(type);
  if (!list) fields.set(type, (list = Object.hasOwn(AST_DEFS, type) ? words(AST_DEFS[type]![1]) : []));
  return list;
}
