/**
 * The language table (src/text/language.ts): file names, fence names, grammars and comment syntax of
 * each text-engine language, as discovery, Markdown, the grammar loader and the markers read them.
 */
import { describe, expect, it } from 'vitest';
import { fenceLanguage, languageOf, LANGUAGES } from '../src/text/language.js';
import { grammarsFor } from '../src/text/grammars.js';
import { commentSyntaxFor, fenceSyntax } from '../src/markers/syntax.js';
import { isEnvFile, isJsFile, kindOf, otherLanguageOf } from '../src/scan/kinds.js';

describe('the language table', () => {
  it('names each file by extension or whole name', () => {
    const names = ['a.py', 'run.sh', 'x.bash', 'README.md', 'doc.mdx', 'ci.yml', 'openapi.json', 'pyproject.toml', '.env', '.env.local', 'prod.env', 'api.http', 'main.tf', 'Dockerfile', 'Dockerfile.gpu', 'Containerfile', 'worker.dockerfile', 'notes.txt', 'dockerfile', '.bashrc'];
    expect(names.map((n) => languageOf(`dir/${n}`))).toEqual(['python', 'shell', 'shell', 'markdown', 'markdown', 'yaml', 'json', 'toml', 'env', 'env', 'env', 'http', 'hcl', 'dockerfile', 'dockerfile', 'dockerfile', 'dockerfile', null, null, null]);
  });

  it('names fences, including kinds that are no file language', () => {
    expect(['bash title="x"', 'Python', 'pycon', 'console', 'tsx', 'terraform', 'docker', 'dotenv', 'gql', 'text', 'constructor'].map(fenceLanguage)).toEqual(['shell', 'python', 'pycon', 'console', 'js', 'hcl', 'dockerfile', 'env', 'graphql', null, null]);
  });

  it('loads the grammars of a file and of the code it holds', () => {
    expect(grammarsFor('python', null)).toEqual(['python']);
    expect(grammarsFor('toml', null)).toEqual(['toml']);
    expect(grammarsFor('dockerfile', 'FROM x\n')).toEqual(['bash']);
    expect(grammarsFor('yaml', 'a: 1\n')).toEqual(['bash']);
    expect(grammarsFor('hcl', null)).toEqual(['hcl', 'bash']);
    expect(grammarsFor('env', null)).toEqual([]);
    // Markdown: bash for its commands, and the grammar of each fence.
    expect(grammarsFor('markdown', '# x\n\n```python\nx = 1\n```\n\n```pycon\n>>> 1\n```\n\n~~~toml\na = 1\n~~~\n')).toEqual(['bash', 'python', 'toml']);
    expect(grammarsFor('markdown', '> ```terraform\n> x = 1\n> ```\n')).toEqual(['bash', 'hcl']);
    expect(grammarsFor('markdown', null).sort()).toEqual(['bash', 'hcl', 'python', 'toml']);
  });

  it('gives the markers each language’s comment syntax, files and fences alike', () => {
    for (const [file, lang] of [['a.py', 'python'], ['x.tf', 'hcl'], ['a.http', 'http'], ['README.md', 'markdown'], ['Dockerfile', 'dockerfile'], ['prod.env', 'env'], ['tsconfig.json', 'json']] as const) {
      expect(commentSyntaxFor(file), file).toBe(LANGUAGES[lang].comments);
    }
    expect(fenceSyntax('pycon')).toEqual({ line: ['#'], block: [] });
    expect(fenceSyntax('json')).toEqual({ line: ['//'], block: [['/*', '*/']] });
    expect(fenceSyntax('make')).toEqual({ line: ['#'], block: [] });
  });

  it('is what the run calls a .env file', () => {
    expect(['.env', 'app/.env.production', 'deploy/prod.env', 'env.ts', '.envrc'].map(isEnvFile)).toEqual([true, true, true, false, false]);
  });

  it('tells the engines a file goes to by its name, whatever the case of its extension', () => {
    expect(['a.ts', 'b.TSX', 'c.vue', 'src/.eslintrc.cjs', '.ts', 'x.d', 'README.md', 'dir.ts/file'].map(isJsFile)).toEqual([true, true, true, true, false, false, false, false]);
    expect(['main.GO', 'a.ps1', 'x.ts', 'go'].map(otherLanguageOf)).toEqual(['Go', 'PowerShell', null, null]);
    // A whole name of the language table wins for the text engine; its extension still names the JS engine's files.
    expect(kindOf('app/.env.ts')).toEqual({ js: true, env: true, text: true, other: null });
    expect(kindOf('Dockerfile.gpu')).toEqual({ js: false, env: false, text: true, other: null });
    expect(kindOf('ci/deploy.YML')).toEqual({ js: false, env: false, text: true, other: null });
    expect(kindOf('notes.txt')).toEqual({ js: false, env: false, text: false, other: null });
  });
});
