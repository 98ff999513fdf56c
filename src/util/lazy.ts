import { createRequire } from 'node:module';

/**
 * Loads a dependency's CommonJS build when first needed. Startup time is most of a lint over a tree
 * that needs nothing parsed, and an ESM `import` of a large CommonJS file (Babel's parser) also pays
 * for Node's export scan of it; zod's full build is only needed once a config or a baseline is.
 */
export const requireDependency = createRequire(import.meta.url);

/** A value computed on first use. */
export function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}
