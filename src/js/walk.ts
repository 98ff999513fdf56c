import type { N, P } from './ast.js';

/** Keys that never hold code: positions, comments, parser extras. */
const NON_CODE_KEYS = new Set(['loc', 'comments', 'tokens', 'extra', 'leadingComments', 'trailingComments', 'innerComments']);
/** Keys that hold only type syntax (for searches that skip types). */
const TYPE_KEYS = new Set(['typeAnnotation', 'returnType', 'typeParameters', 'typeArguments', 'superTypeParameters', 'implements', 'predicate']);
const TYPE_ONLY = /^TS(?!AsExpression|SatisfiesExpression|NonNullExpression|TypeAssertion|ParameterProperty|InstantiationExpression|EnumDeclaration|ModuleDeclaration|ModuleBlock|ExportAssignment|ImportEqualsDeclaration|ExternalModuleReference)/;
const typeOnly = new Map<string, boolean>();
/** Whether a node of this type starts type-only syntax (answered once per type: the table asks for every node). */
const isTypeOnly = (n: N): boolean => {
  let only = typeOnly.get(n.type);
  if (only === undefined) typeOnly.set(n.type, (only = TYPE_ONLY.test(n.type) || n.type === 'TypeAnnotation' || n.type === 'InterfaceDeclaration' || n.type === 'TypeAlias'));
  return only;
};

/**
 * Every node of a parsed file in one pre-order array, walked once: a search is then a flat scan of
 * the searched node's subtree, which is a contiguous range of the array. The engine searches each
 * file many times (calls by name, identifiers by name, reads of a variable in its scope); walking
 * the tree for each search had become the largest single cost of the analysis. NodePaths (what the
 * rules work with) are made only for matches, from their parents', so they are the same objects
 * as any other `get` from the file's root yields.
 */
class NodeTable {
  readonly nodes: N[] = [];
  /** Index of each node's parent (-1 for the root). */
  private readonly parent: number[] = [];
  /** The field of the parent that holds the node, and its position when that field is an array (-1 otherwise). */
  private readonly key: string[] = [];
  private readonly position: number[] = [];
  /** One past the last node of each node's subtree. */
  readonly end: number[] = [];
  /** The innermost node at or above each node that starts type-only syntax (-1 for none). */
  readonly typeMark: number[] = [];
  private readonly paths: Array<P | undefined>;

  constructor(root: P) {
    const visit = (n: N, parent: number, key: string, position: number, mark: number): void => {
      const i = this.nodes.length;
      this.nodes.push(n);
      this.parent.push(parent);
      this.key.push(key);
      this.position.push(position);
      this.end.push(0);
      const own = isTypeOnly(n) || TYPE_KEYS.has(key) ? i : mark;
      this.typeMark.push(own);
      // Object.keys rather than for-in: the same own keys in the same order, in well under the time.
      const keys = Object.keys(n);
      for (let j = 0; j < keys.length; j++) {
        const k = keys[j]!;
        const child = (n as unknown as Record<string, unknown>)[k] as N | Array<N | null> | null;
        if (child === null || typeof child !== 'object' || NON_CODE_KEYS.has(k)) continue;
        if (Array.isArray(child)) {
          for (let c = 0; c < child.length; c++) {
            const e = child[c];
            if (e && typeof e.type === 'string') visit(e, i, k, c, own);
          }
        } else if (typeof child.type === 'string') visit(child, i, k, -1, own);
      }
      this.end[i] = this.nodes.length;
    };
    if (root.value && typeof root.value.type === 'string') visit(root.value, -1, '', -1, -1);
    this.paths = [root];
  }

  pathAt(i: number): P {
    let p = this.paths[i];
    if (!p) {
      const parent = this.pathAt(this.parent[i]!);
      p = this.position[i]! >= 0 ? parent.get(this.key[i], this.position[i]) : parent.get(this.key[i]);
      this.paths[i] = p;
    }
    return p!;
  }

  /** The index of the node a path of this file points at (null for a path to an array or a non-node). */
  indexOf(path: P): number | null {
    const steps: Array<string | number> = [];
    for (let p: P = path; p.parentPath; p = p.parentPath) steps.push(p.name!);
    let at = 0;
    for (let s = steps.length - 1; s >= 0; s--) {
      const key = String(steps[s]);
      // An array element's path is named by its position (a number, or a numeric string).
      const next = steps[s - 1];
      const position = next !== undefined && /^\d+$/.test(String(next)) ? Number(steps[--s]) : -1;
      let child = at + 1;
      while (child < this.end[at]! && !(this.key[child] === key && this.position[child] === position)) child = this.end[child]!;
      if (child >= this.end[at]!) return null;
      at = child;
    }
    return at;
  }
}

const tables = new WeakMap<P, NodeTable>();

interface SearchOptions {
  skipTypes?: boolean;
}

function tableOf(path: P): NodeTable {
  let top = path;
  while (top.parentPath) top = top.parentPath;
  let table = tables.get(top);
  if (!table) tables.set(top, (table = new NodeTable(top)));
  return table;
}

/**
 * Paths of the nodes under `root` (itself included) that `match` accepts, in source order. With
 * `skipTypes`, type-only syntax (annotations, interfaces, type aliases) is neither searched nor
 * matched.
 */
export function pathsMatching<T extends N>(root: P, match: (n: N) => n is T, options?: SearchOptions): Array<P<T>>;
export function pathsMatching(root: P, match: (n: N) => boolean, options?: SearchOptions): P[];
export function pathsMatching(root: P, match: (n: N) => boolean, options: SearchOptions = {}): P[] {
  const table = tableOf(root);
  const from = table.indexOf(root);
  if (from === null) return [];
  const { nodes, end, typeMark } = table;
  const out: P[] = [];
  for (let i = from; i < end[from]!; i++) {
    if (options.skipTypes && typeMark[i]! >= from) {
      i = end[i]! - 1; // the first node of type-only syntax: skip its whole subtree
      continue;
    }
    if (match(nodes[i])) out.push(table.pathAt(i));
  }
  return out;
}
