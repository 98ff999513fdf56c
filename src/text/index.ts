/**
 * The text engine: REST v1 usage in files that are not JavaScript (Python, shell, Dockerfiles,
 * Markdown, YAML, JSON, TOML, .env, .http, Terraform). Same migration map, same rule ids and messages
 * as the JS engine; rewrites only what is certain without seeing the request (base URLs and path
 * renames), plus per-action calls where the request's method and body position are plainly visible.
 */
import path from 'node:path';
import type { Finding } from '../findings.js';
import type { Bases } from '../url/shape.js';
import { Collector, type CrossFileHolds } from './plan.js';
import { refuseBrokenRewrite } from './well-formed.js';
import { parseMarkers, type MarkerIndex, type ParsedMarkers } from '../markers/index.js';
import { HTTP_TODOS, todoSyntax, type TodoSyntax } from './todo-lines.js';
import { LANGUAGES, languageOf, type Language } from './language.js';
import { scanPython, type PythonLinks } from './python/scan.js';
import { scanShell, type ShellProgramView } from './shell.js';
import { scanMarkdown } from './markdown.js';
import { scanYaml } from './yaml.js';
import { scanJson } from './json.js';
import { scanToml } from './toml.js';
import { scanEnv } from './env.js';
import { scanHttp } from './http.js';
import { scanHcl } from './hcl.js';
import { scanDockerfile } from './dockerfile.js';

export { isTextEngineFile, languageOf, type Language } from './language.js';
export { grammarsFor, loadGrammars } from './grammars.js';

export interface TextScanResult {
  findings: Finding[];
  /** The migrated text, or null when nothing changes. */
  output: string | null;
  /** For text/project.ts: what this file holds on v1 (own offsets and foreign ids), and whether it talks to RunPod REST. */
  cross?: { held: Map<number, { where: string; why: 'uncovered' | 'request' }>; talksRest: boolean };
  /** Set by text/project.ts: the files this one shares a base, a constant, a wrapper or an import with (they move together). */
  linked?: string[];
  /** The file's markers as the scan read them, when it has any (the runner reuses them). */
  markers?: ParsedMarkers;
}

/** What the other files of the project define that this one uses, and what they hold (text/project.ts). */
export interface TextLinks {
  shell?: ShellProgramView;
  python?: PythonLinks;
  holds?: CrossFileHolds;
}


export function scanLanguage(c: Collector, text: string, language: Language, file: string, links: TextLinks = {}): void {
  switch (language) {
    case 'python':
      return scanPython(c, text, links.python);
    case 'shell':
      return scanShell(c, text, links.shell ? { program: links.shell } : {});
    case 'markdown':
      return scanMarkdown(c, text, file, (inner, code, lang) => scanLanguage(inner, code, lang, file));
    case 'yaml':
      return scanYaml(c, text);
    case 'json':
      return scanJson(c, text);
    case 'toml':
      return scanToml(c, text);
    case 'env':
      return scanEnv(c, text);
    case 'http':
      return scanHttp(c, text);
    case 'hcl':
      return scanHcl(c, text);
    case 'dockerfile':
      return scanDockerfile(c, text);
  }
}

/**
 * The line comment a request's TODO is written with, in the files whose requests are statements of their
 * own (a script, a module, an .http file). A YAML block scalar, a Dockerfile RUN continuation or a Markdown
 * example (whose TODOs lint does not read back) get none: a request there that needs a person keeps its base.
 */
function todoComment(language: Language): TodoSyntax | null {
  if (language === 'http') return HTTP_TODOS;
  const comment = LANGUAGES[language].comments.line[0];
  return TODO_LANGUAGES.has(language) && comment !== undefined ? todoSyntax(comment, LANGUAGES[language].grammar) : null;
}
const TODO_LANGUAGES: ReadonlySet<Language> = new Set(['python', 'shell', 'http']);

/**
 * Scan one file's text (BOM already removed). Never throws on odd input: unknown shapes are left alone.
 * `heldVars`: for a .env file, variables whose v1 base must stay (name → where the code that reads it is).
 * Shell, Python, TOML and Terraform (and the shell other files hold) are read with tree-sitter:
 * `await loadGrammars(grammarsFor(language, text))` first.
 */
export function scanText(text: string, file: string, bases: Bases, heldVars: Readonly<Record<string, string>> = {}, links: TextLinks = {}, markers?: MarkerIndex): TextScanResult {
  const language = languageOf(path.basename(file));
  if (!language) return { findings: [], output: null };
  const index = markers ?? parseMarkers(text, file);
  const c = new Collector(text, bases, file, heldVars, links.holds ?? null, index, todoComment(language));
  scanLanguage(c, text, language, file, links);
  const result: TextScanResult = c.result();
  if (links.holds) result.cross = { held: c.heldLiterals(), talksRest: c.talksRest || c.looksRest };
  const checked = refuseBrokenRewrite(language, text, result);
  return index.isEmpty && !index.problems.length ? checked : { ...checked, markers: index.parsed };
}
