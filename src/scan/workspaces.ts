import path from 'node:path';
import { exports as exportsTargets, imports as importsTargets, type Options, type Package } from 'resolve.exports';
import type { HasEntry } from '../util/folders.js';
import { readPackageJson, type ReportMalformed } from './malformed.js';

/** Packages of a monorepo by name: their folder and manifest. */
export type Workspaces = Readonly<Record<string, { dir: string; manifest: Package }>>;

/** Package name of a bare specifier (`@acme/client/sub` → `@acme/client`). */
export function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function readManifest(dir: string, report: ReportMalformed = () => {}): Package | null {
  const json = readPackageJson(path.join(dir, 'package.json'), report);
  return json && typeof json === 'object' ? (json as Package) : null;
}

/**
 * The workspace packages among folders that hold files of the run (folders with a named package.json);
 * one that does not parse is left out and reported.
 */
export function readWorkspaces(packageDirs: Iterable<string>, report: ReportMalformed = () => {}): Workspaces {
  const out: Record<string, { dir: string; manifest: Package }> = {};
  for (const dir of packageDirs) {
    const manifest = readManifest(dir, report);
    if (typeof manifest?.name === 'string') out[manifest.name] = { dir, manifest };
  }
  return out;
}

export interface Manifest {
  dir: string;
  json: Package;
}

/** The package.json nearest above a folder (for its `imports` map), read once per folder. */
export function nearestManifest(dir: string, has: HasEntry, cache: Map<string, Manifest | null>): Manifest | null {
  const known = cache.get(dir);
  if (known !== undefined) return known;
  const parent = path.dirname(dir);
  const json = has(dir, 'package.json') ? readManifest(dir) : null;
  const found = json ? { dir, json } : parent === dir ? null : nearestManifest(parent, has, cache);
  cache.set(dir, found);
  return found;
}

/**
 * Condition sets tried in turn: a `source` entry (the package's own sources) first, then what Node
 * imports and requires, then TypeScript's `types` (build output, looked for in src/ by the caller).
 */
const CONDITION_SETS: Options[] = [{ conditions: ['source'], unsafe: true }, {}, { require: true }, { conditions: ['types'], unsafe: true }];

/**
 * What a package's manifest maps an entry to, as `./`-relative paths that may not exist yet (build
 * output): `exports` (entry `.` or `./sub`) or `imports` (`#x`). Without an `exports` map: `source`,
 * `module` and `main` for the package itself, else the subpath as a path.
 */
export function packageTargets(manifest: Package, entry: string, map: 'exports' | 'imports'): string[] {
  const targets: string[] = [];
  if (map === 'imports' || manifest.exports !== undefined) {
    for (const options of CONDITION_SETS) {
      try {
        const found = map === 'imports' ? importsTargets(manifest, entry, options) : exportsTargets(manifest, entry, options);
        targets.push(...(found ?? []).filter((t) => t.startsWith('./')));
      } catch {
        // No target under these conditions.
      }
    }
  } else if (entry !== '.') targets.push(entry);
  else {
    const fields = [manifest.source, manifest.module, manifest.main].filter((f): f is string => typeof f === 'string' && !path.isAbsolute(f));
    targets.push(...fields.map((f) => (f.startsWith('.') ? f : `./${f}`)), './src/index', './index');
  }
  return [...new Set(targets)];
}
