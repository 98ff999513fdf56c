// Everything that runs, bundled into dist/lib: the command-line tool, the library entries of
// package.json `exports`, the jscodeshift transform, and the worker threads they start. Input is tsc's
// output (dist/src), so the bundle runs exactly the code the tests type-check.
//
// - A few ES modules instead of ~200 (ours and yargs'): Node resolves, links and compiles each module
//   on its own, which cost ~80 ms of every run's start.
// - The pure-JavaScript dependencies (zod, Babel's parser, yargs, diff, …) are bundled, only the parts
//   used, so an install does not fetch them whole (zod alone is 8 MB): package.json lists them as
//   devDependencies. Their licenses go to dist/THIRD-PARTY-NOTICES.md (thirdPartyNotices below).
// - Native packages (oxc-parser, oxc-resolver, which pick a platform binary at run time) and tinypool
//   (it starts its own worker file from its package folder) stay dependencies; the optional peers
//   (eslint, jscodeshift, msw) are the user's.
import fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'rolldown';

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const NOT_BUNDLED = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)]);
const isExternal = (id) =>
  id.startsWith('node:') || builtinModules.includes(id) || NOT_BUNDLED.has(id.startsWith('@') ? id.split('/').slice(0, 2).join('/') : id.split('/')[0]);

/**
 * src/util/lazy.ts loads a dependency on first use with a `require` made by createRequire, which a
 * bundler cannot follow. In the bundle it becomes a plain `require`: a bundled package is then
 * initialised at that call (still on first use), an external one is required from node_modules.
 */
const bundleLazyRequires = {
  name: 'bundle-lazy-requires',
  transform: {
    filter: { id: /dist[\\/]src[\\/].*\.js$/, code: 'requireDependency(' },
    handler: (code) => ({ code: code.replaceAll(/\brequireDependency\(/g, 'require('), map: null }),
  },
};

/**
 * Babel's parser is one self-contained CommonJS file of 0.5 MB. Inside a chunk, Node would compile it
 * with that chunk, on every start; copied next to the bundle, it is read only when a file is parsed,
 * as it was from node_modules.
 */
const COPIED = { '@babel/parser': 'babel-parser.cjs' };
const requireFromRoot = createRequire(path.resolve('package.json'));
const copyBabelParser = {
  name: 'copy-babel-parser',
  resolveId(id, _importer, { kind }) {
    if (!(id in COPIED)) return null;
    if (kind !== 'require-call') throw new Error(`${id}: load it with requireDependency (src/util/lazy.ts), not import`);
    return { id: `./${COPIED[id]}`, external: true };
  },
  generateBundle() {
    for (const [id, fileName] of Object.entries(COPIED)) {
      const source = fs.readFileSync(requireFromRoot.resolve(id), 'utf8').replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n');
      this.emitFile({ type: 'asset', fileName, source });
    }
  },
};

/** The license of every package with code in the bundle, in dist/THIRD-PARTY-NOTICES.md. */
const thirdPartyNotices = {
  name: 'third-party-notices',
  generateBundle(_options, bundle) {
    const packages = new Map(Object.keys(COPIED).map((id) => [path.dirname(requireFromRoot.resolve(`${id}/package.json`)), null]));
    // The grammars' WebAssembly is copied to dist/grammars/, not bundled (copyGrammars below): each sits
    // at the root of its package.
    for (const file of GRAMMARS) packages.set(path.dirname(requireFromRoot.resolve(file)), null);
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      for (const id of Object.keys(chunk.modules)) {
        const match = /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(id);
        if (match) packages.set(match[1], null);
      }
    }
    // One section per package and version (a package can be installed twice at the same version).
    const byVersion = new Map();
    for (const dir of packages.keys()) {
      const p = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
      byVersion.set(`${p.name}@${p.version}`, [dir, p]);
    }
    const sections = [...byVersion.values()]
      .sort(([, a], [, b]) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version))
      .map(([dir, p]) => {
        const file = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
        if (!file) throw new Error(`${p.name}: no license file to keep in THIRD-PARTY-NOTICES.md`);
        return `## ${p.name} ${p.version} (${p.license})\n\n${fs.readFileSync(path.join(dir, file), 'utf8').trim()}\n`;
      });
    const text = `# Third-party notices\n\nv2-migrate's dist/lib bundles code from these packages (babel-parser.cjs is @babel/parser's lib/index.js), and dist/grammars/ holds the WebAssembly of web-tree-sitter and of the tree-sitter grammars, under their licenses below.\n\n${sections.join('\n')}`;
    fs.mkdirSync('dist', { recursive: true });
    fs.writeFileSync('dist/THIRD-PARTY-NOTICES.md', text);
  },
};

// The tree-sitter runtime and the two grammars the text engine reads shell and Terraform with
// (src/text/grammars.ts), copied from the dev dependencies that ship them: only these ~1.7 MB of
// WebAssembly reach the package, not the grammars' sources and native prebuilds.
const GRAMMARS = ['web-tree-sitter/web-tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm', '@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-hcl.wasm', 'tree-sitter-python/tree-sitter-python.wasm', '@tree-sitter-grammars/tree-sitter-toml/tree-sitter-toml.wasm'];
const copyGrammars = {
  name: 'copy-grammars',
  buildStart() {
    const require = createRequire(import.meta.url);
    fs.mkdirSync('dist/grammars', { recursive: true });
    for (const file of GRAMMARS) fs.copyFileSync(require.resolve(file), `dist/grammars/${file.split('/').pop()}`);
  },
};

export default defineConfig([{
  input: {
    cli: 'dist/src/cli.js',
    // Loaded by bin/v2-migrate.js before the CLI, to start git early: kept small.
    'early-run': 'dist/src/run/early-run.js',
    index: 'dist/src/index.js',
    eslint: 'dist/src/eslint/index.js',
    testing: 'dist/src/testing/index.js',
    'v1-to-v2': 'dist/transforms/v1-to-v2.js',
    // Worker-thread entries, found next to the chunk that starts them (new URL('./x.js', import.meta.url)).
    worker: 'dist/src/run/worker.js',
    'screen-worker': 'dist/src/run/screen-worker.js',
    'lint-worker': 'dist/src/eslint/lint-worker.js',
  },
  platform: 'node',
  external: isExternal,
  plugins: [bundleLazyRequires, copyBabelParser, thirdPartyNotices, copyGrammars],
  // jsonc-parser's "main" is a UMD build that requires its own files at run time, which a bundle cannot
  // serve: bundle its ES module build ("module") instead.
  // string-width (yargs and its cliui measure help text with it): versions 7 and 8 build an
  // Intl.Segmenter and compile Unicode-set regular expressions (\p{RGI_Emoji}/v) when they load, ~24 ms
  // of every start, help or not. Version 4 (yargs 17's) loads in well under a millisecond and measures
  // the help's text the same.
  resolve: { alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js', 'string-width': 'string-width-cjs' } },
  output: {
    dir: 'dist/lib',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name].js',
    sourcemap: true,
  },
},
// The jscodeshift transform as CommonJS: jscodeshift loads a transform with require (through
// babel-register unless --no-babel, which turns ES modules into CommonJS that then fails inside a
// "type": "module" package). A few lines that import the ES module dist/lib/v1-to-v2.js on the
// first file, so the transform runs the same bundle as the CLI.
{
  input: { 'v1-to-v2': 'transforms/commonjs.js' },
  platform: 'node',
  external: [/^node:/],
  output: { dir: 'dist/transforms', format: 'cjs', exports: 'named', entryFileNames: '[name].cjs' },
}]);
