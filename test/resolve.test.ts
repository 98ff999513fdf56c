import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModuleResolver, readWorkspaces } from '../src/scan/resolve.js';
import { onDisk } from '../src/util/folders.js';
import { listFiles, tempProject } from './helpers.js';

/** A resolver over a temporary tree, answering with paths relative to it (null: not a file of the run). */
function resolverFor(files: Record<string, string>, packages: string[] = []): (from: string, spec: string) => string | null {
  const dir = tempProject(files);
  const run = new Set(listFiles(dir).filter((f) => /\.[cm]?[jt]sx?$/.test(f)));
  const resolver = new ModuleResolver(readWorkspaces(packages.map((p) => path.join(dir, p))), onDisk);
  return (from, spec) => {
    const found = resolver.resolve(path.join(dir, from), spec, (f) => run.has(f));
    return found && path.relative(dir, found).split(path.sep).join('/');
  };
}

const code = 'export {};\n';

describe('ModuleResolver (imports as TypeScript resolves them, to files of the run only)', () => {
  it('relative paths: extensions, `.js` naming a `.ts`, directory index files', () => {
    const resolve = resolverFor({ 'src/a.ts': code, 'src/b.ts': code, 'src/lib/index.tsx': code, 'src/old.mjs': code, 'src/c.mts': code });
    expect(resolve('src/a.ts', './b')).toBe('src/b.ts');
    expect(resolve('src/a.ts', './b.js')).toBe('src/b.ts');
    expect(resolve('src/a.ts', './c.mjs')).toBe('src/c.mts');
    expect(resolve('src/a.ts', './lib')).toBe('src/lib/index.tsx');
    expect(resolve('src/a.ts', './old.mjs')).toBe('src/old.mjs');
    expect(resolve('src/a.ts', './missing')).toBeNull();
  });

  it('tsconfig paths and baseUrl, through extends, from the nearest config; jsconfig.json too', () => {
    const resolve = resolverFor({
      'web/tsconfig.base.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['./*'] } } }),
      'web/tsconfig.json': '{\n  // comments and trailing commas are fine\n  "extends": "./tsconfig.base.json",\n  "compilerOptions": { "strict": true, },\n}\n',
      'web/lib/config.ts': code,
      'web/app/page.tsx': code,
      'tools/jsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '~/*': ['src/*'] } } }),
      'tools/src/http.js': code,
      'tools/bin/run.js': code,
    });
    expect(resolve('web/app/page.tsx', '@/lib/config')).toBe('web/lib/config.ts');
    expect(resolve('web/app/page.tsx', 'lib/config')).toBe('web/lib/config.ts'); // baseUrl
    expect(resolve('tools/bin/run.js', '~/http')).toBe('tools/src/http.js');
    expect(resolve('tools/bin/run.js', '@/lib/config')).toBeNull(); // another project's alias
  });

  it('a solution-style tsconfig (references) resolves with the referenced project that holds the file', () => {
    const resolve = resolverFor({
      'tsconfig.json': JSON.stringify({ files: [], references: [{ path: './tsconfig.app.json' }] }),
      'tsconfig.app.json': JSON.stringify({ include: ['src'], compilerOptions: { paths: { '#app/*': ['./src/*'] } } }),
      'src/main.ts': code,
      'src/api/pods.ts': code,
    });
    expect(resolve('src/main.ts', '#app/api/pods')).toBe('src/api/pods.ts');
  });

  it('a tsconfig that does not load (bad JSON, an extends not installed) still resolves relative imports', () => {
    const resolve = resolverFor({
      'a/tsconfig.json': '{ "compilerOptions": { ',
      'a/x.ts': code,
      'a/y.ts': code,
      'b/tsconfig.json': JSON.stringify({ extends: '@acme/tsconfig-not-installed/base.json' }),
      'b/x.ts': code,
      'b/y.ts': code,
    });
    expect(resolve('a/x.ts', './y')).toBe('a/y.ts');
    expect(resolve('b/x.ts', './y.js')).toBe('b/y.ts');
  });

  it('package.json imports (#x), also when the target is build output not built yet', () => {
    const resolve = resolverFor({
      'package.json': JSON.stringify({ name: 'svc', imports: { '#lib/*': './src/lib/*.ts', '#db': { import: './dist/db/index.js' } } }),
      'src/lib/http.ts': code,
      'src/db/index.ts': code,
      'src/main.ts': code,
    });
    expect(resolve('src/main.ts', '#lib/http')).toBe('src/lib/http.ts');
    expect(resolve('src/main.ts', '#db')).toBe('src/db/index.ts');
    expect(resolve('src/main.ts', '#nope')).toBeNull();
  });

  it('workspace packages: main and exports subpaths mapped from dist back to their source', () => {
    const resolve = resolverFor(
      {
        'packages/sdk/package.json': JSON.stringify({ name: '@acme/sdk', main: 'dist/index.js' }),
        'packages/sdk/src/index.ts': code,
        'packages/kit/package.json': JSON.stringify({ name: 'kit', exports: { '.': './dist/main.js', './pods': { types: './dist/pods/api.d.ts', default: './dist/pods/api.js' }, './raw/*': './src/raw/*.ts' } }),
        'packages/kit/src/main.ts': code,
        'packages/kit/src/pods/api.ts': code,
        'packages/kit/src/raw/http.ts': code,
        'packages/app/package.json': JSON.stringify({ name: 'app' }),
        'packages/app/src/use.ts': code,
      },
      ['packages/sdk', 'packages/kit', 'packages/app'],
    );
    expect(resolve('packages/app/src/use.ts', '@acme/sdk')).toBe('packages/sdk/src/index.ts');
    expect(resolve('packages/app/src/use.ts', 'kit')).toBe('packages/kit/src/main.ts');
    expect(resolve('packages/app/src/use.ts', 'kit/pods')).toBe('packages/kit/src/pods/api.ts');
    expect(resolve('packages/app/src/use.ts', 'kit/raw/http')).toBe('packages/kit/src/raw/http.ts');
    expect(resolve('packages/app/src/use.ts', 'kit/hidden')).toBeNull(); // not exported
  });

  it('installed packages and builtins stay unresolved', () => {
    const resolve = resolverFor({
      'node_modules/left-pad/package.json': JSON.stringify({ name: 'left-pad', main: 'index.js' }),
      'node_modules/left-pad/index.js': code,
      'src/a.ts': code,
    });
    expect(resolve('src/a.ts', 'left-pad')).toBeNull();
    expect(resolve('src/a.ts', 'node:fs')).toBeNull();
    expect(resolve('src/a.ts', 'fs')).toBeNull();
  });
});
