/**
 * Python modules of one project: `from .constants import RUNPOD_BASE`, `from app import settings` then
 * `settings.RUNPOD_BASE`, `import app.config as cfg` then `cfg.BASE`. A module gets the values of the
 * names it imports from the module that defines them (evaluated there), and a module that imports from
 * one that talks to RunPod REST reads RunPod responses.
 */
import path from 'node:path';
import type { Bases } from '../url/shape.js';
import { Lines } from '../util/lines.js';
import { flatText, type TPiece } from './plan.js';
import { makeCtx, resolveName } from './python/eval.js';
import { buildModule } from './python/model.js';
import { pythonSyntax } from './python/syntax.js';
import { foreignPieces, type ForeignIds } from './foreign.js';

export interface PySource {
  file: string;
  text: string;
}

/** The project file a module path names, seen from `from` (relative imports) or anywhere (absolute, by path suffix). */
export function resolveModule(from: string, module: string, files: ReadonlySet<string>): string | null {
  const dots = /^\.*/.exec(module)![0].length;
  const rest = module.slice(dots).split('.').filter(Boolean).join('/');
  const candidates = (stem: string): string[] => [`${stem}.py`, path.join(stem, '__init__.py')];
  if (dots) {
    let dir = path.dirname(from);
    for (let i = 1; i < dots; i++) dir = path.dirname(dir);
    return candidates(rest ? path.join(dir, rest) : dir).find((f) => files.has(f)) ?? null;
  }
  if (!rest) return null;
  const tails = candidates(rest).map((t) => path.sep + t.split('/').join(path.sep));
  const found = [...files].filter((f) => tails.some((t) => f.endsWith(t)));
  return found.length === 1 ? found[0]! : null;
}

/** For each module name an import refers to: the project module and the attribute (or the whole module). */
function bindings(file: string, text: string, files: ReadonlySet<string>): Array<{ key: string; module: string; name: string | null }> {
  const out: Array<{ key: string; module: string; name: string | null }> = [];
  // Star imports and anything computed are not followed.
  for (const imp of pythonSyntax(text).imports) {
    if (imp.name) {
      // `from pkg import x`: a name of pkg, or its submodule x (read as `x.NAME`).
      const mod = resolveModule(file, imp.module, files);
      const sub = resolveModule(file, `${imp.module}${imp.module.endsWith('.') ? '' : '.'}${imp.name}`, files);
      if (mod) out.push({ key: imp.local, module: mod, name: imp.name });
      if (sub && sub !== mod) out.push({ key: imp.local, module: sub, name: null });
    } else {
      const mod = resolveModule(file, imp.module, files);
      if (mod) out.push({ key: imp.local, module: mod, name: null });
    }
  }
  return out;
}

/**
 * Modules of `others` (no RunPod host in them) that import from one of `modules`: they are scanned
 * too, for the values they import and the RunPod responses they read.
 */
export function joinImporters(modules: readonly PySource[], others: readonly string[], read: (file: string) => string | null, all: ReadonlySet<string>): PySource[] {
  const stems = new Set(modules.map((m) => stemOf(m.file)));
  const wanted = new Set(modules.map((m) => m.file));
  const out: PySource[] = [];
  for (const file of others) {
    const text = read(file);
    if (text === null || !/\bimport\b/.test(text) || ![...stems].some((s) => text.includes(s))) continue;
    if (bindings(file, text, all).some((b) => wanted.has(b.module))) out.push({ file, text });
  }
  return out;
}

const stemOf = (file: string): string => (path.basename(file) === '__init__.py' ? path.basename(path.dirname(file)) : path.basename(file, '.py'));

export interface PythonView {
  /** Imported names (`NAME`, `alias.NAME`) → values in their module, as foreign pieces. */
  imports: Map<string, TPiece[]>;
  /** The modules it imports from. */
  from: Set<string>;
}

/** Per module: the values of the names it imports from other modules of the project. */
export function pythonViews(modules: readonly PySource[], bases: Bases, ids: ForeignIds, all: ReadonlySet<string>): Map<string, PythonView> {
  const byFile = new Map(modules.map((m) => [m.file, m]));
  const binds = new Map(modules.map((m) => [m.file, bindings(m.file, m.text, all).filter((b) => byFile.has(b.module))]));
  const lines = new Map<string, Lines>();
  const linesOf = (file: string): Lines => lines.get(file) ?? lines.set(file, new Lines(byFile.get(file)!.text)).get(file)!;
  let exports = new Map<string, Map<string, TPiece[]>>();
  const viewOf = (file: string): PythonView => {
    const imports = new Map<string, TPiece[]>();
    const from = new Set<string>();
    for (const b of binds.get(file) ?? []) {
      from.add(b.module);
      const values = exports.get(b.module);
      if (!values) continue;
      const put = (key: string, v: TPiece[]): void => void imports.set(key, foreignPieces(v, b.module, linesOf(b.module), ids));
      if (b.name) {
        const v = values.get(b.name);
        if (v) put(b.key, v);
      } else for (const [name, v] of values) put(`${b.key}.${name}`, v);
    }
    return { imports, from };
  };
  // Values imported through a chain of modules (constants → settings → client) settle in a few rounds.
  for (let round = 0, changed = true; changed && round < 4; round++) {
    const next = new Map<string, Map<string, TPiece[]>>();
    for (const mod of modules) {
      const m = buildModule(mod.text);
      m.foreign = viewOf(mod.file).imports;
      const values = new Map<string, TPiece[]>();
      for (const name of m.root.assigns.keys()) {
        if (!/^\w+$/.test(name)) continue;
        const v = resolveName(name, mod.text.length, makeCtx(m, m.root));
        const flat = flatText(v);
        if ([...bases.legacy, bases.target].some((b) => flat.includes(b))) values.set(name, v);
      }
      next.set(mod.file, values);
    }
    changed = [...next].some(([f, v]) => [...v].some(([n, p]) => flatText(exports.get(f)?.get(n) ?? []) !== flatText(p)));
    exports = next;
  }
  return new Map(modules.map((m) => [m.file, viewOf(m.file)]));
}
