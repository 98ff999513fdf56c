import fs from 'node:fs';
import path from 'node:path';
import type { Settings } from '../config.js';
import type { Finding } from '../findings.js';
import type { MigrateResult } from '../js/migrate.js';
import { isEnvFile } from '../scan/kinds.js';
import { decode, type Decoded } from './files.js';
import { relativeImports } from './imports.js';

/** How many import hops from a file that mentions RunPod a file may be and still take part. */
const IMPORT_HOPS = 3;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

export interface JsFileOutcome {
  file: string;
  decoded: Decoded;
  bytes: number;
  result: MigrateResult | null;
}

function internalFailure(error: unknown): Finding {
  const why = error instanceof Error ? error.message : String(error);
  return { ruleId: 'internal-error', severity: 'error', line: 1, column: 1, message: `v2-migrate failed on this file (${why}); it was left unchanged. Please report this.`, fixable: false };
}

function readEnvFiles(files: readonly string[], mayMatter: (text: string) => boolean): Array<{ file: string; decoded: Decoded & { kind: 'text' }; bytes: number }> {
  const out: Array<{ file: string; decoded: Decoded & { kind: 'text' }; bytes: number }> = [];
  for (const file of files.filter(isEnvFile)) {
    try {
      const bytes = fs.readFileSync(file);
      const decoded = decode(bytes);
      if (decoded.kind === 'text' && mayMatter(decoded.text)) out.push({ file, decoded, bytes: bytes.length });
    } catch {
      continue;
    }
  }
  return out;
}

function resolveSpecifier(from: string, spec: string, known: ReadonlySet<string>): string | null {
  const base = path.resolve(path.dirname(from), spec);
  const stripped = base.replace(/\.(m|c)?js$/, '');
  for (const c of [base, ...EXTENSIONS.map((e) => stripped + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))]) if (known.has(c)) return c;
  return null;
}

/**
 * Pick the files of a run that can matter and migrate them together: files that mention a RunPod
 * host (seeds), files within a few import hops of a seed (wrapper modules, their call sites, the
 * helpers they use), and .env files that hold a v1 base. Returns an outcome for every JS/TS file
 * read (result null for files that take no part) and for each .env file taken.
 */
export async function migrateJsFiles(
  jsFiles: readonly string[],
  envFiles: readonly string[],
  settings: Settings,
  mayMatter: (text: string) => boolean,
  onRead: (file: string, lenient: string | null) => void = () => {},
): Promise<JsFileOutcome[]> {
  const known = new Set(jsFiles);
  const envInputs = readEnvFiles(envFiles, mayMatter);
  // Code reading a variable that a .env file sets to a RunPod URL is a seed too.
  const envNames = [...new Set(envInputs.flatMap((e) => [...e.decoded.text.matchAll(/^[ \t]*(?:export[ \t]+)?([A-Za-z_]\w*)[ \t]*=.*runpod\.io/gim)].map((m) => m[1]!)))];
  const readsEnv = (text: string): boolean => envNames.some((n) => text.includes(`env.${n}`) || text.includes(`env['${n}']`) || text.includes(`env["${n}"]`));
  const decodedOf = new Map<string, { decoded: Decoded; bytes: number }>();
  const importsOf = new Map<string, string[]>();
  const importers = new Map<string, string[]>();
  const seeds: string[] = [];
  for (const file of jsFiles) {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch {
      onRead(file, null);
      continue;
    }
    const lenient = bytes.toString('latin1');
    onRead(file, lenient);
    const seed = mayMatter(lenient) || readsEnv(lenient);
    const imports = relativeImports(lenient)
      .map((s) => resolveSpecifier(file, s, known))
      .filter((f): f is string => !!f);
    importsOf.set(file, imports);
    for (const target of imports) importers.set(target, [...(importers.get(target) ?? []), file]);
    if (seed) {
      seeds.push(file);
      decodedOf.set(file, { decoded: decode(bytes), bytes: bytes.length });
    }
  }
  // Files connected to a seed through imports, in both directions, within IMPORT_HOPS.
  const taken = new Set(seeds);
  let frontier = [...seeds];
  for (let hop = 0; hop < IMPORT_HOPS && frontier.length; hop++) {
    const next: string[] = [];
    for (const f of frontier) {
      for (const g of [...(importers.get(f) ?? []), ...(importsOf.get(f) ?? [])]) {
        if (taken.has(g)) continue;
        taken.add(g);
        next.push(g);
      }
    }
    frontier = next;
  }
  const inputs: Array<{ file: string; source: string }> = [];
  const outcomes: JsFileOutcome[] = [];
  for (const file of [...taken].sort()) {
    let entry = decodedOf.get(file);
    if (!entry) {
      try {
        const bytes = fs.readFileSync(file);
        entry = { decoded: decode(bytes), bytes: bytes.length };
      } catch {
        continue;
      }
    }
    outcomes.push({ file, ...entry, result: null });
    if (entry.decoded.kind === 'text') inputs.push({ file, source: entry.decoded.text });
  }
  for (const e of envInputs) {
    outcomes.push({ file: e.file, decoded: e.decoded, bytes: e.bytes, result: null });
    inputs.push({ file: e.file, source: e.decoded.text });
  }
  if (!inputs.length) return outcomes;
  // The engine (jscodeshift, Babel) is loaded only when some file needs it.
  const { migrateProject } = await import('../js/migrate.js');
  const options = { bases: settings.bases, gpuPools: settings.gpuPools, preserveV1Defaults: settings.preserveV1Defaults, wrappers: settings.wrappers };
  let results: Map<string, MigrateResult>;
  try {
    results = migrateProject(inputs, options);
  } catch {
    // An engine failure must not take the whole run down: retry file by file so only the culprit fails.
    results = new Map();
    for (const input of inputs) {
      try {
        for (const [file, r] of migrateProject([input], options)) results.set(file, r);
      } catch (error) {
        results.set(input.file, { output: null, findings: [internalFailure(error)] });
      }
    }
  }
  for (const o of outcomes) o.result = results.get(o.file) ?? null;
  return outcomes;
}
