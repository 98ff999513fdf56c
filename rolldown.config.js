// The command-line tool as a few ES modules instead of ~200 (our ~110 and yargs' ~40 among them):
// Node resolves, links and compiles each module on its own, which cost ~80 ms of every run's start.
// Input is tsc's output (dist/src), so the bundle runs exactly the code the tests type-check. The
// library API (dist/src/index.js) stays unbundled.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig } from 'rolldown';

// The tree-sitter runtime and the two grammars the text engine reads shell and Terraform with
// (src/text/grammars.ts), copied from the dev dependencies that ship them: only these ~1.7 MB of
// WebAssembly reach the package, not the grammars' sources and native prebuilds.
const GRAMMARS = ['web-tree-sitter/web-tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm', '@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-hcl.wasm'];
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
    // Worker-thread entries, found next to the chunk that starts them (new URL('./x.js', import.meta.url)).
    worker: 'dist/src/run/worker.js',
    'screen-worker': 'dist/src/run/screen-worker.js',
  },
  platform: 'node',
  // tinypool starts its own worker file from its package folder. CommonJS dependencies are loaded
  // with require (src/util/lazy.ts) and never reach the bundler.
  external: ['tinypool'],
  plugins: [copyGrammars],
  // jsonc-parser's "main" is a UMD build that requires its own files at run time, which a bundle cannot
  // serve: bundle its ES module build ("module") instead.
  resolve: { alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' } },
  output: {
    dir: 'dist/cli',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name].js',
    sourcemap: true,
  },
},
// The jscodeshift transform as one CommonJS file: jscodeshift loads a transform with require (through
// babel-register unless --no-babel, which turns our ES modules into CommonJS that then fails inside a
// "type": "module" package). Dependencies stay external, required from the package's node_modules.
{
  input: { 'v1-to-v2': 'dist/transforms/v1-to-v2.js' },
  platform: 'node',
  external: [/^[^./]/],
  output: { dir: 'dist/transforms', format: 'cjs', exports: 'named', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs' },
}]);
