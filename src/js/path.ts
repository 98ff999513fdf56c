import type * as t from '@babel/types';
import { isNode } from './node-types.js';

/**
 * A path to a value of a parsed file: the part of ast-types' `NodePath` the engine uses, with its
 * semantics. A child's path is made once and then reused (while the child is the same value), so
 * paths compare by identity; `node` is the value when it is a node, else the nearest node above.
 * ast-types itself is not loaded: building its type definitions cost every run that parses a file
 * ~30 ms, and its paths carry machinery (scopes, mutation) the engine never uses.
 */
export class NodePath<T extends t.Node = t.Node> {
  // Keyed like ast-types' cache, by property name: `get(0)` and `get('0')` are the same path.
  private children: Record<string, NodePath> | null = null;
  private nodeAbove: unknown = undefined;
  /**
   * The path above (an array's path for an array element). Null only on the top path (the File
   * node's), which the engine never climbs from, so it is typed as always there.
   */
  readonly parentPath: NodePath;

  constructor(
    /**
     * Typed as the node: the engine makes a path to an array only on the way to an element
     * (`get('params', i)`), and code that climbs through such paths tests `.type`, which an array lacks.
     */
    readonly value: T,
    parentPath: NodePath | null = null,
    /** The property of the parent's value that holds this one (a position for an array element). */
    readonly name: string | number | null = null,
  ) {
    this.parentPath = parentPath as NodePath;
  }

  /** The path of `value[a][b]…` below this one. */
  get(...names: Array<string | number>): NodePath {
    let path: NodePath = this;
    for (const name of names) {
      const value = (path.value as unknown as Record<string | number, t.Node>)[name]!;
      const children = (path.children ??= Object.create(null) as Record<string, NodePath>);
      let child = children[name];
      if (!child || child.value !== value) children[name] = child = new NodePath(value, path, name);
      path = child;
    }
    return path;
  }

  /** The value if it is a node, else the nearest node above it (null at the top). */
  get node(): T {
    if (this.nodeAbove === undefined) this.nodeAbove = isNode(this.value) ? this.value : (this.parentPath?.node ?? null);
    return this.nodeAbove as T;
  }

  /** The path of the nearest node above this value's node (arrays and non-node values are skipped). */
  get parent(): NodePath | null {
    let above: NodePath | null = this.parentPath;
    if (!isNode(this.value)) {
      while (above && !isNode(above.value)) above = above.parentPath;
      if (above) above = above.parentPath;
    }
    while (above && !isNode(above.value)) above = above.parentPath;
    return above;
  }
}
