import type { N, P } from './scope.js';

/** Keys that never hold code: positions, comments, parser extras. */
const NON_CODE_KEYS = new Set(['loc', 'comments', 'tokens', 'extra', 'leadingComments', 'trailingComments', 'innerComments']);
/** Keys that hold only type syntax (for walks that skip types). */
const TYPE_KEYS = new Set(['typeAnnotation', 'returnType', 'typeParameters', 'typeArguments', 'superTypeParameters', 'implements', 'predicate']);
const TYPE_ONLY = /^TS(?!AsExpression|SatisfiesExpression|NonNullExpression|TypeAssertion|ParameterProperty|InstantiationExpression|EnumDeclaration|ModuleDeclaration|ModuleBlock|ExportAssignment|ImportEqualsDeclaration|ExternalModuleReference)/;
const isTypeOnly = (n: N): boolean => TYPE_ONLY.test(n.type) || n.type === 'TypeAnnotation' || n.type === 'InterfaceDeclaration' || n.type === 'TypeAlias';

/**
 * Paths of the nodes under `root` that `match` accepts, in source order. The walk is over plain
 * nodes and only matches get a NodePath: jscodeshift's `find` builds a path for every node and field
 * and computes a visitor table per call, which made it most of the engine's time.
 */
export function collectPaths(root: P, match: (n: N) => boolean, options: { skipTypes?: boolean } = {}): P[] {
  const { skipTypes = false } = options;
  const out: P[] = [];
  // The walk's position as `get` steps from `root`; `paths[i]` is the path after i steps, built only
  // up to `built` (a match builds what is missing; leaving a node forgets its steps).
  const chain: Array<string | number> = [];
  const paths: P[] = [root];
  let built = 0;
  const leave = (steps: number): void => {
    chain.length -= steps;
    if (built > chain.length) built = chain.length;
  };
  const rec = (n: N): void => {
    if (skipTypes && isTypeOnly(n)) return;
    if (match(n)) {
      for (; built < chain.length; built++) paths[built + 1] = paths[built]!.get(chain[built]!);
      out.push(paths[chain.length]!);
    }
    for (const key in n) {
      if (NON_CODE_KEYS.has(key) || (skipTypes && TYPE_KEYS.has(key))) continue;
      const child = n[key];
      if (Array.isArray(child)) {
        for (let i = 0; i < child.length; i++) {
          const c = child[i];
          if (!c || typeof c.type !== 'string') continue;
          chain.push(key, i);
          rec(c);
          leave(2);
        }
      } else if (child && typeof child.type === 'string') {
        chain.push(key);
        rec(child);
        leave(1);
      }
    }
  };
  if (root.value && typeof root.value.type === 'string') rec(root.value);
  return out;
}
