/**
 * Tree-sitter grammars (web-tree-sitter, WebAssembly) for shell, Python, TOML and Terraform. Loading is
 * async and costs ~50 ms, so it happens once per run, and only for the grammars its files need
 * (`grammarsFor`, from the language table); the scanners then parse synchronously (`parseWith`), each
 * text once (text/parse-cache.ts).
 *
 * The .wasm files are copied into dist/grammars/ at build (rolldown.config.js), so the bundled CLI
 * (dist/lib), the library build (dist/src/text) and the sources under test (src/text) all find them
 * by walking up from this module; web-tree-sitter's own .wasm is located the same way, so it works
 * bundled or not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import type { Language as TsLanguage, Parser as TsParser, Tree } from 'web-tree-sitter';
import { fenceGrammar, LANGUAGES, type Grammar, type Language } from './language.js';
import { fencesOf } from './fences.js';

export type { Grammar } from './language.js';
export type { Node as SyntaxNode, Tree } from 'web-tree-sitter';

const WASM: Record<Grammar, string> = { bash: 'tree-sitter-bash.wasm', hcl: 'tree-sitter-hcl.wasm', python: 'tree-sitter-python.wasm', toml: 'tree-sitter-toml.wasm' };

const parsers = new Map<Grammar, TsParser>();
const loading = new Map<Grammar, Promise<void>>();
let runtime: Promise<typeof import('web-tree-sitter')> | null = null;

/** dist/grammars/<file>, from wherever this module runs (dist/lib, dist/src/text or src/text). */
function grammarFile(file: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++) {
    for (const candidate of [path.join(dir, 'grammars', file), path.join(dir, 'dist', 'grammars', file)]) {
      if (fs.existsSync(candidate)) return candidate;
    }
    dir = path.dirname(dir);
  }
  throw new Error(`v2-migrate: ${file} is missing from dist/grammars (run npm run build)`);
}

function loadRuntime(): Promise<typeof import('web-tree-sitter')> {
  // Baseline (Liftoff) code only: V8 would otherwise recompile the 1.4 MB bash grammar with its
  // optimising compiler in the background, and Node waits for that before it exits (~0.6–1.5 s a
  // run, measured); Liftoff code parses a 80 kB script in ~10 ms. Only WebAssembly is affected.
  if (!runtime) {
    v8.setFlagsFromString('--liftoff-only');
    runtime = import('web-tree-sitter').then(async (ts) => {
      await ts.Parser.init({ locateFile: (name: string) => grammarFile(name) });
      return ts;
    });
  }
  return runtime;
}

/** Loads the grammars once; later calls for a loaded grammar cost nothing. */
export async function loadGrammars(grammars: Iterable<Grammar>): Promise<void> {
  await Promise.all(
    [...new Set(grammars)].map((g) => {
      let p = loading.get(g);
      if (!p) {
        p = loadRuntime().then(async (ts) => {
          const language: TsLanguage = await ts.Language.load(fs.readFileSync(grammarFile(WASM[g])));
          const parser = new ts.Parser();
          parser.setLanguage(language);
          parsers.set(g, parser);
        });
        loading.set(g, p);
      }
      return p;
    }),
  );
}

/**
 * The grammars scanning a file needs (language table, text/language.ts): its own and those of the
 * code it holds; for Markdown, those of its fences (all of them when the text is not known yet).
 */
export function grammarsFor(language: Language | null, text: string | null): Grammar[] {
  if (!language) return [];
  const info = LANGUAGES[language];
  const own = [...(info.grammar ? [info.grammar] : []), ...info.holds];
  if (language !== 'markdown') return own;
  if (text === null) return [...new Set([...own, ...Object.values(LANGUAGES).flatMap((l) => (l.grammar ? [l.grammar, ...l.holds] : l.holds))])];
  const fenced = fencesOf(text).flatMap((f) => {
    const g = fenceGrammar(f.info);
    return g ? [g] : [];
  });
  return [...new Set([...own, ...fenced])];
}

/**
 * Parses with a loaded grammar and hands the tree to `use` (trees live in WebAssembly memory and are
 * freed after). Node offsets are UTF-16 indices, like the text's.
 */
export function parseWith<T>(grammar: Grammar, text: string, use: (tree: Tree) => T): T {
  const parser = parsers.get(grammar);
  if (!parser) throw new Error(`v2-migrate: the ${grammar} grammar was not loaded before scanning (loadGrammarsFor)`);
  const tree = parser.parse(text);
  if (!tree) throw new Error(`v2-migrate: the ${grammar} grammar could not parse the text`);
  try {
    return use(tree);
  } finally {
    tree.delete();
  }
}

/** Syntax errors in a tree: ERROR and MISSING nodes (a rewrite may not add any). */
export function syntaxErrors(tree: Tree): number {
  if (!tree.rootNode.hasError) return 0;
  let count = 0;
  const cursor = tree.walk();
  let more = true;
  while (more) {
    const node = cursor.currentNode;
    if (node.isError || node.isMissing) count++;
    // Only subtrees holding an error are entered.
    if (node.hasError && cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        more = false;
        break;
      }
    }
  }
  return count;
}
