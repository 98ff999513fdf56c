// Types for bench/generate.js (plain JavaScript, also used by test/robustness.test.ts).
export interface TreeManifest {
  root: string;
  /** Every file written, ignored noise included. */
  files: number;
  /** JS/TS source files outside the ignored folders. */
  sources: number;
  bytes: number;
  /** Tree-relative paths (posix) of the generated RunPod files. */
  runpodFiles: string[];
  /** RunPod files that mention a RunPod host (the prefilter's seeds). */
  seeds: string[];
  /** Files a run must change. */
  expectedChanged: string[];
  /** RunPod files (job API, already v2) a run must leave alone. */
  runpodUnchanged: string[];
  /** Relative imports, tree-relative: file → files it imports. */
  imports: Map<string, string[]>;
  /** Files under .gitignore'd folders (node_modules, .cache). */
  ignoredFiles: number;
}

export interface TreeOptions {
  packages: number;
  /** JS/TS source files per package (at least 16). */
  files: number;
  /** Whether every `runpodEvery`-th package holds RunPod code. */
  runpod: boolean;
  seed?: number;
  runpodEvery?: number;
  /** Noise files under node_modules (default: a tenth of the sources, at least 200). */
  nodeModules?: number;
  /** Make the tree a git repository with every file committed (default true; a minimal .git folder where git is not installed). */
  git?: boolean;
}

export function generateTree(root: string, opts: TreeOptions): TreeManifest;
export function importClosure(manifest: TreeManifest, callerHops?: number, helperHops?: number): string[];

export interface SharedTreeOptions {
  /** REST v1 client files, each importing the shared log module. */
  files: number;
}

export function generateSharedImportTree(root: string, opts: SharedTreeOptions): TreeManifest;
