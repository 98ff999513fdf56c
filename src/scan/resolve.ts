import path from 'node:path';
import { readPackageJson, type ReportMalformed } from './malformed.js';

/** Packages of a monorepo by name: their folder and the source file their entry points at. */
export type Workspaces = Readonly<Record<string, { dir: string; entry: string | null }>>;

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

function candidates(base: string): string[] {
  const stripped = base.replace(/\.(m|c)?js$/, '');
  return [base, ...EXTENSIONS.map((e) => stripped + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))];
}

/** Package name of a bare specifier (`@acme/client/sub` → `@acme/client`). */
function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/**
 * Resolve an import specifier to a file of the run: relative paths (with TypeScript's `.js` → `.ts`
 * convention and directory `index` files), and names of workspace packages (their entry, or a
 * subpath inside them). Other packages (node_modules) resolve to null.
 */
export function resolveImport(from: string, spec: string, exists: (file: string) => boolean, workspaces: Workspaces = {}): string | null {
  if (spec.startsWith('.')) return candidates(path.resolve(path.dirname(from), spec)).find(exists) ?? null;
  const name = packageName(spec);
  const ws = workspaces[name];
  if (!ws) return null;
  const sub = spec.slice(name.length).replace(/^\//, '');
  if (sub) return candidates(path.join(ws.dir, sub)).find(exists) ?? null;
  if (ws.entry && exists(ws.entry)) return ws.entry;
  return [...candidates(path.join(ws.dir, 'src', 'index')), ...candidates(path.join(ws.dir, 'index'))].find(exists) ?? null;
}

/**
 * The workspace packages among folders that hold files of the run: name → folder and source entry.
 * An entry pointing at build output (`dist/index.js`) is mapped back to `src/` when that exists.
 */
export function readWorkspaces(packageDirs: Iterable<string>, onMalformed: ReportMalformed = () => {}): Workspaces {
  const out: Record<string, { dir: string; entry: string | null }> = {};
  for (const dir of packageDirs) {
    const pkg = readPackageJson(path.join(dir, 'package.json'), onMalformed) as Record<string, unknown> | null;
    if (!pkg) continue;
    if (typeof pkg.name !== 'string') continue;
    const exp = pkg.exports as unknown;
    const dot = typeof exp === 'string' ? exp : exp && typeof exp === 'object' ? ((exp as Record<string, unknown>)['.'] ?? exp) : undefined;
    const fromExports = typeof dot === 'string' ? dot : dot && typeof dot === 'object' ? ((dot as Record<string, unknown>).import ?? (dot as Record<string, unknown>).default ?? (dot as Record<string, unknown>).require) : undefined;
    const field = [pkg.source, fromExports, pkg.module, pkg.main].find((v): v is string => typeof v === 'string');
    let entry: string | null = field ? path.resolve(dir, field) : null;
    if (entry && /[/\\](dist|lib|build|out)[/\\]/.test(path.relative(dir, entry) + path.sep)) {
      entry = path.join(dir, 'src', path.relative(path.join(dir, path.relative(dir, entry).split(/[/\\]/)[0]!), entry));
    }
    out[pkg.name] = { dir, entry };
  }
  return out;
}
