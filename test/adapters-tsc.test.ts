/**
 * The TypeScript variant of the generated adapter file, compiled with the project's tsc in temp
 * projects: as an ES module under the strictest flags (verbatimModuleSyntax, exactOptionalPropertyTypes,
 * noUncheckedIndexedAccess, …), imported from CommonJS-style TypeScript, both emitted and run; and its
 * body types against the zod schemas they are printed from. Also: the runtime source ships in the package.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adapterSource, needsAdapter } from '../src/adapters/generate.js';
import { BODY_MAPPINGS, type BodyOperationId } from '../src/map/bodies.js';
import { REPO, tempProject } from './helpers.js';

const TSC = path.join(REPO, 'node_modules', '.bin', 'tsc');
const ADAPTED = (Object.keys(BODY_MAPPINGS) as BodyOperationId[]).filter(needsAdapter);
const POOLS = { 'NVIDIA A40': 'AMPERE_48' };

const STRICT = {
  target: 'ES2020',
  lib: ['ES2020'],
  types: [],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitReturns: true,
  noImplicitOverride: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noFallthroughCasesInSwitch: true,
  isolatedModules: true,
  erasableSyntaxOnly: true,
  rootDir: 'src',
  outDir: 'out',
};

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = tempProject(files);
  dirs.push(dir);
  return dir;
}

function run(command: string, args: string[], cwd: string): { code: number | null; output: string; stdout: string } {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8' });
  return { code: r.status, output: `${r.stdout}${r.stderr}`, stdout: r.stdout };
}

/** Code using the adapters as a caller would; `from` is the import specifier of the adapter file. */
function usage(from: string): string {
  return `import { toV2CreatePodBody, toV2CreateEndpointBody, toV2UpdatePodBody, type V2CreatePodBody } from '${from}';

declare const console: { log(text: string): void };

interface PodParams {
  name: string;
  imageName: string;
  gpuTypeIds: string[];
  gpuCount?: number;
}

const params: PodParams = { name: 'p', imageName: 'img', gpuTypeIds: ['NVIDIA A40'], gpuCount: 2 };
export const pod: V2CreatePodBody = toV2CreatePodBody(params);
export const fromRecord: V2CreatePodBody = toV2CreatePodBody({ ...params } as Record<string, unknown>);
export function maybe(p: PodParams | undefined): V2CreatePodBody | null | undefined {
  return toV2CreatePodBody(p);
}
export const none: null = toV2CreatePodBody(null);
export const untyped: V2CreatePodBody | null | undefined = toV2CreatePodBody(JSON.parse('{"name":"x","imageName":"x"}') as unknown);
// @ts-expect-error the result is a v2 body
export const wrong: number = toV2CreatePodBody(params);
// @ts-expect-error v2 has no imageName
export const gone: unknown = toV2UpdatePodBody({ imageName: 'x' }).imageName;
export function send(body: Record<string, unknown>): string {
  return JSON.stringify(body);
}
const endpoint = toV2CreateEndpointBody({ name: 'e', templateId: 't', gpuTypeIds: ['NVIDIA A40'] });
export const pools: string[] | undefined = endpoint.gpu?.pools;
console.log(send({ pod, endpoint, none, missing: maybe(undefined) ?? 'undefined' }));
`;
}

const EXPECTED_OUTPUT = {
  pod: { name: 'p', image: 'img', gpu: { id: 'NVIDIA A40', count: 2 } },
  endpoint: { name: 'e', templateId: 't', gpu: { pools: ['AMPERE_48'], excludedTypes: ['NVIDIA RTX A6000'] }, type: 'QUEUE', scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } },
  none: null,
  missing: 'undefined',
};

describe('the TypeScript adapter file', () => {
  const source = adapterSource(ADAPTED, { language: 'ts', gpuPools: POOLS });

  it('compiles as an ES module under the strictest flags, and runs', () => {
    const dir = project({
      'package.json': JSON.stringify({ type: 'module' }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { ...STRICT, module: 'NodeNext', moduleResolution: 'NodeNext', verbatimModuleSyntax: true, declaration: true, isolatedDeclarations: true }, include: ['src'] }),
      'src/runpod-v2-adapters.ts': source,
      'src/usage.ts': usage('./runpod-v2-adapters.js'),
    });
    const compiled = run(TSC, ['-p', dir], dir);
    expect(compiled.output).toBe('');
    expect(compiled.code).toBe(0);
    const ran = run(process.execPath, ['out/usage.js'], dir);
    expect(ran.code, ran.output).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual(EXPECTED_OUTPUT);
  });

  it('compiles and runs when imported from CommonJS-style TypeScript', () => {
    const dir = project({
      'package.json': JSON.stringify({ type: 'commonjs' }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { ...STRICT, module: 'commonjs', esModuleInterop: true }, include: ['src'] }),
      'src/runpod-v2-adapters.ts': source,
      'src/usage.ts': usage('./runpod-v2-adapters'),
    });
    const compiled = run(TSC, ['-p', dir], dir);
    expect(compiled.output).toBe('');
    expect(compiled.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'out', 'usage.js'), 'utf8')).toContain('require("./runpod-v2-adapters")');
    const ran = run(process.execPath, ['out/usage.js'], dir);
    expect(ran.code, ran.output).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual(EXPECTED_OUTPUT);
  });

  it('a type error in the file fails the check (the check can fail)', () => {
    const dir = project({
      'package.json': JSON.stringify({ type: 'module' }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { ...STRICT, module: 'NodeNext', noEmit: true }, include: ['src'] }),
      'src/runpod-v2-adapters.ts': source.replace('const CREATE_POD: BodyMap = {', 'const CREATE_POD: BodyMap = {\n  colour: 1,'),
    });
    const compiled = run(TSC, ['-p', dir], dir);
    expect(compiled.code).not.toBe(0);
    expect(compiled.output).toContain('colour');
  });

  it('declares the v2 body types the zod schemas give (each assignable to the other)', () => {
    const schemas = path.relative(os.tmpdir(), path.join(REPO, 'src/map/schemas.js')).split(path.sep).join('/');
    const checks = ADAPTED.map((op) => {
      const schema = BODY_MAPPINGS[op].v2Schema;
      return [
        `export const from${op} = (body: Out<'${schema}'>): V2${op}Body => body;`,
        `export const to${op} = (body: V2${op}Body): Out<'${schema}'> => body;`,
      ].join('\n');
    });
    const dir = project({
      'package.json': JSON.stringify({ type: 'module' }),
      'tsconfig.json': JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, typeRoots: [path.join(REPO, 'node_modules/@types')], types: ['node'] },
        include: ['*.ts'],
      }),
      'runpod-v2-adapters.ts': source,
      'types.ts': [
        `import type { ${ADAPTED.map((op) => `V2${op}Body`).join(', ')} } from './runpod-v2-adapters.js';`,
        `import type { v2BodySchemas } from '../${schemas}';`,
        'type Schemas = ReturnType<typeof v2BodySchemas>;',
        "type Out<K extends keyof Schemas> = ReturnType<Schemas[K]['parse']>;",
        ...checks,
        '',
      ].join('\n'),
    });
    const compiled = run(TSC, ['-p', dir], dir);
    expect(compiled.output).toBe('');
    expect(compiled.code).toBe(0);
  });
});

describe('the runtime source in the package', () => {
  it('is listed in package.json files, so installed copies can generate the TypeScript variant', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('src/adapters/runtime.ts');
  });

  it('an installed package generates the same files as the sources (its dist/lib bundle, after npm run build)', () => {
    const packed = project({});
    const pack = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packed], REPO);
    expect(pack.code, pack.output).toBe(0);
    const tarball = (JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>)[0]!;
    expect(tarball.files.map((f) => f.path)).toContain('src/adapters/runtime.ts');
    expect(run('tar', ['-xzf', path.join(packed, tarball.filename), '-C', packed], packed).code).toBe(0);
    const installed = path.join(packed, 'package');
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(installed, 'node_modules'), 'dir');
    // The bundle chunk that holds adapterSource (its exports are renamed; the function keeps its name).
    const chunk = fs.readdirSync(path.join(installed, 'dist', 'lib')).find((f) => f.endsWith('.js') && /^function adapterSource\(/m.test(fs.readFileSync(path.join(installed, 'dist', 'lib', f), 'utf8')));
    expect(chunk).toBeDefined();
    const script = `import('./dist/lib/${chunk}').then((m) => Object.values(m).find((f) => f.name === 'adapterSource')).then((adapterSource) => process.stdout.write(JSON.stringify(['ts', 'js'].map((language) => adapterSource(${JSON.stringify(ADAPTED)}, { language, gpuPools: ${JSON.stringify(POOLS)} })))))`;
    const generated = run(process.execPath, ['-e', script], installed);
    expect(generated.code, generated.output).toBe(0);
    expect(JSON.parse(generated.stdout), 'the packed dist/ differs from the sources: run npm run build first').toEqual(['ts', 'js'].map((language) => adapterSource(ADAPTED, { language: language as 'ts' | 'js', gpuPools: POOLS })));
  });
});
