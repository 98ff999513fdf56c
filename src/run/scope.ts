import fs from 'node:fs';
import path from 'node:path';
import { isAtOrBelow, workTreeRoot } from '../util/folders.js';

/**
 * What a run reads versus what it was asked about. A run given one file, one package folder or
 * --changed-since is asked about part of a project, but what must move with that part (the base its
 * requests run on, the wrapper they call, every other request on that base, the .env value) may lie
 * anywhere in the project: a workspace client package, the constants module a folder up. So the run
 * reads the whole project the paths belong to and analyses the import-connected groups of what it was
 * asked about.
 */
export interface RunScope {
  /** What to discover: the projects of the paths asked about, and the files named. */
  roots: string[];
  /** Whether a discovered file is one the user asked about (below a folder named, or a file named). */
  asked: (file: string) => boolean;
  /** Whether the run was asked about less than it reads. */
  partial: boolean;
  /** The folders named (absolute). */
  folders: string[];
}

const readJson = (file: string): Record<string, unknown> | null => {
  try {
    const json = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    return json && typeof json === 'object' ? (json as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/** A monorepo root: npm/yarn `workspaces` in package.json, or pnpm-workspace.yaml. */
const isWorkspaceRoot = (dir: string): boolean => fs.existsSync(path.join(dir, 'pnpm-workspace.yaml')) || readJson(path.join(dir, 'package.json'))?.workspaces !== undefined;
const isPackage = (dir: string): boolean => fs.existsSync(path.join(dir, 'package.json'));

/** The folders from `dir` up to `top` (both included; up to the file system root when `top` is null). */
function foldersUp(dir: string, top: string | null): string[] {
  const out: string[] = [];
  for (let cur = dir; ; cur = path.dirname(cur)) {
    out.push(cur);
    if (cur === top || path.dirname(cur) === cur) return out;
  }
}

/**
 * The project a path belongs to: the monorepo root above its package (npm/yarn/pnpm workspaces),
 * else its package (the nearest package.json), else the git work tree, else the current folder
 * when the path is inside it. Never above the git work tree.
 */
export function projectOf(abs: string, isDir: boolean, cwd: string): string {
  const start = isDir ? abs : path.dirname(abs);
  const top = workTreeRoot(start);
  const up = foldersUp(start, top);
  const pkg = up.find(isPackage);
  const ws = pkg ? up.slice(up.indexOf(pkg)).find(isWorkspaceRoot) : undefined;
  return ws ?? pkg ?? top ?? (isAtOrBelow(cwd, start) ? cwd : start);
}

/** The scope of a run given `targets` (relative to `cwd`; they exist: discovery said so). */
export function runScope(targets: readonly string[], cwd: string): RunScope {
  const named = targets.map((t) => {
    const abs = path.resolve(cwd, t);
    const stat = fs.statSync(abs, { throwIfNoEntry: false });
    if (!stat) throw new Error(`no such file or directory: ${t}`);
    return { abs, isDir: stat.isDirectory(), project: projectOf(abs, stat.isDirectory(), cwd) };
  });
  const projects = [...new Set(named.map((n) => n.project))].sort();
  // A project inside another's is read by the outer one's walk.
  const roots = projects.filter((p) => !projects.some((q) => q !== p && isAtOrBelow(q, p)));
  const partial = named.some((n) => n.abs !== n.project && !(n.isDir && isAtOrBelow(n.abs, n.project)));
  const folders = named.filter((n) => n.isDir).map((n) => n.abs);
  const files = new Set(named.filter((n) => !n.isDir).map((n) => n.abs));
  // A file named is discovered by name too (so a file .gitignore excludes is still taken when named).
  roots.push(...files);
  return { roots, partial, folders, asked: (file) => files.has(file) || folders.some((d) => isAtOrBelow(d, file)) };
}
