// The jscodeshift transform as jscodeshift loads it (CommonJS, built by rolldown.config.js to
// dist/transforms/v1-to-v2.cjs): it imports the bundled ES module transform (transforms/v1-to-v2.ts,
// dist/lib/v1-to-v2.js) on the first file.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** jscodeshift's own parser choice; the transform parses each file itself by its extension. */
export const parser = 'tsx';

// An `import()` Babel cannot see: jscodeshift's babel-register (on unless --no-babel) would turn it
// into a require and compile the whole bundle through Babel in every worker.
const importModule = new Function('url', 'return import(url)');

export default async function transform(file, api, options) {
  const { default: run } = await importModule(pathToFileURL(path.join(__dirname, '..', 'lib', 'v1-to-v2.js')).href);
  return run(file, api, options);
}
