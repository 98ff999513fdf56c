import path from 'node:path';
import { parseForTransform } from './parse.js';
import type { Parsed } from './parsed.js';
import { isEnvFile } from '../scan/kinds.js';
import { codeView, isComponentFile } from './components.js';
import { keyName, memberName, requiredModule } from './scope.js';
import type { N, P, t } from './ast.js';
import type { EnvValueNode } from './ast.js';
import { pushTo } from '../util/multimap.js';
import { dotenvAssignments } from '../scan/dotenv.js';
import { lastStartingBy } from '../util/lines.js';
import { nodeIndex } from './node-index.js';

/**
 * The files of one run that can matter, parsed into a single coordinate space: every file's nodes
 * carry offsets into `combined` (files joined by '\n'), so an edit anywhere is a splice of one
 * string and values can be followed across imports with the same path/scope machinery.
 */
export interface ProjectInput {
  file: string;
  source: string;
  /**
   * The file is analysed in other groups of the run too (a helper several groups import): the run
   * keeps the groups apart only while nothing here looks past it (see Project.crossTalk).
   */
  shared?: boolean;
}

/** `NAME=value` in a .env file, addressable like a string literal. */
export interface EnvEntry {
  name: string;
  value: string;
  file: string;
  /** A node-like record for the value's text, so URL pieces and edits can point at it. */
  node: EnvValueNode;
}

export interface ProjectFile {
  file: string;
  /** Offset of the file's first character in `combined`. */
  start: number;
  /** What the engine reads: the file's text, or a component's code view (js/components.ts). */
  source: string;
  /** A component's own text, when `source` is its code view: edits apply to it unchanged. */
  original?: string;
  kind: 'js' | 'env';
  parsed?: Parsed;
  /** Set when a JS file does not parse. */
  parseError?: unknown;
}

export { isEnvFile };

/** An `import` declaration: the file and the index of the statement in its program body. */
export interface ImportSite {
  file: ProjectFile;
  statement: number;
}


export class Project {
  readonly files: ProjectFile[] = [];
  readonly byPath = new Map<string, ProjectFile>();
  readonly combined: string;
  private readonly env = new Map<string, EnvEntry[]>();
  private readonly exportCache = new Map<string, P | null>();
  private importIndex: Map<ProjectFile, ImportSite[]> | null = null;
  private callIndex: Map<string, ProjectFile[]> | null = null;
  private readonly shared = new Set<ProjectFile>();
  /**
   * Shared files (ProjectInput.shared) the analysis looked past: it asked who imports them or calls
   * one of their functions (the answer would be different with the other groups' files), or a request
   * planned an edit in one. Either way the groups that share the file must be analysed together.
   */
  readonly crossTalk = new Set<string>();

  constructor(
    inputs: readonly ProjectInput[],
    /** Importing file → specifier → imported file, as the run resolved them. */
    private readonly imports: Readonly<Record<string, Readonly<Record<string, string>>>> = {},
  ) {
    let offset = 0;
    for (const input of inputs) {
      const { file } = input;
      const source = isComponentFile(file) ? codeView(input.source, file) : input.source;
      const entry: ProjectFile = { file, start: offset, source, kind: isEnvFile(file) ? 'env' : 'js', ...(source !== input.source ? { original: input.source } : {}) };
      if (entry.kind === 'js') {
        try {
          entry.parsed = parseForTransform(source, file, offset);
        } catch (error) {
          entry.parseError = error;
        }
      } else this.readEnv(entry);
      this.files.push(entry);
      if (input.shared) this.shared.add(entry);
      this.byPath.set(path.resolve(file), entry);
      offset += source.length + 1;
    }
    this.combined = this.files.map((f) => f.source).join('\n');
  }

  /** The file a combined-source offset belongs to. */
  fileAt(offset: number): ProjectFile {
    return this.files[lastStartingBy(this.files.length, (i) => this.files[i]!.start, offset)]!;
  }

  envEntries(name: string): readonly EnvEntry[] {
    return this.env.get(name) ?? [];
  }

  /** Every `NAME=value` of the project's .env files. */
  envValues(): EnvEntry[] {
    return [...this.env.values()].flat();
  }

  private readEnv(entry: ProjectFile): void {
    for (const a of dotenvAssignments(entry.source)) {
      const node: EnvEntry['node'] = { type: 'EnvValue', name: a.name, start: entry.start + a.start, end: entry.start + a.end, value: a.value, loc: { start: { line: a.line, column: a.column }, filename: entry.file } };
      pushTo(this.env, a.name, { name: a.name, value: a.value, file: entry.file, node });
    }
  }

  /** An import specifier resolved to a parsed project file. */
  resolveModule(fromFile: string, specifier: string): ProjectFile | null {
    const file = this.imports[fromFile]?.[specifier];
    const target = file ? this.byPath.get(file) : undefined;
    return target?.parsed ? target : null;
  }

  /**
   * The `import` declarations of the project that load `target`, in file and source order. The
   * reverse index is built once, so asking for the importers of a module every importer shares (a
   * logger, a config) costs its importers, not the project.
   */
  importersOf(target: ProjectFile): readonly ImportSite[] {
    this.lookedPast(target);
    if (!this.importIndex) {
      this.importIndex = new Map();
      for (const file of this.files) {
        if (!file.parsed) continue;
        (file.parsed.root.value.program.body as N[]).forEach((stmt, statement) => {
          const from = stmt.type === 'ImportDeclaration' ? this.resolveModule(file.file, stmt.source.value) : null;
          if (from) pushTo(this.importIndex!, from, { file, statement });
        });
      }
    }
    return this.importIndex.get(target) ?? [];
  }

  /** The project files `file` imports itself (its `import` declarations that resolve to one). */
  importsOf(file: ProjectFile): ProjectFile[] {
    if (!file.parsed) return [];
    const out: ProjectFile[] = [];
    for (const stmt of file.parsed.root.value.program.body as N[]) {
      const target = stmt.type === 'ImportDeclaration' ? this.resolveModule(file.file, stmt.source.value) : null;
      if (target) out.push(target);
    }
    return out;
  }

  /** Note a question about who uses `file` (its importers, the callers of one of its functions). */
  lookedPast(file: ProjectFile): void {
    if (this.shared.has(file)) this.crossTalk.add(file.file);
  }

  /** Note the edits requests plan (before they are arbitrated: a dropped edit counts too). */
  noteEdits(edits: Iterable<{ start: number }>): void {
    if (!this.shared.size) return;
    for (const e of edits) this.lookedPast(this.fileAt(e.start));
  }

  /** Per parsed file, how many of its string literals open with ' and with " (the project's preferred quote is their majority). */
  quoteCounts(): Array<[file: string, single: number, double: number]> {
    return this.files.flatMap((f) => {
      if (!f.parsed) return [];
      let single = 0;
      let double = 0;
      for (const p of nodeIndex(f.parsed).strings) {
        const c = this.combined[p.node.start!];
        if (c === "'") single++;
        else if (c === '"') double++;
      }
      return [[f.file, single, double] as [string, number, number]];
    });
  }

  /** The files that call `name(…)` or `x.name(…)`, in project order (a reverse index built once). */
  filesCalling(name: string): readonly ProjectFile[] {
    if (!this.callIndex) {
      this.callIndex = new Map();
      for (const file of this.files) {
        if (!file.parsed) continue;
        const names = new Set<string>();
        for (const call of nodeIndex(file.parsed).calls) {
          const c = call.node.callee;
          if (c.type === 'Identifier') names.add(c.name);
          else if ((c.type === 'MemberExpression' || c.type === 'OptionalMemberExpression') && !c.computed && c.property.type === 'Identifier') names.add(c.property.name);
        }
        for (const n of names) pushTo(this.callIndex, n, file);
      }
    }
    return this.callIndex.get(name) ?? [];
  }

  /** What `name` is exported as from a project file (ESM and CommonJS), as a path to its value. */
  exportOf(target: ProjectFile, name: string, depth = 0): P | null {
    const key = `${target.file}\0${name}`;
    if (this.exportCache.has(key)) return this.exportCache.get(key)!;
    this.exportCache.set(key, null);
    const found = depth > 8 ? null : this.findExport(target, name, depth);
    this.exportCache.set(key, found);
    return found;
  }

  private findExport(target: ProjectFile, name: string, depth: number): P | null {
    const program = target.parsed!.root.get('program') as P<t.Program>;
    const body = program.node.body;
    for (let i = 0; i < body.length; i++) {
      const stmt = body[i]!;
      const at = (...names: Array<string | number>): P => program.get('body', i, ...names);
      if (stmt.type === 'ExportNamedDeclaration') {
        const d = stmt.declaration;
        if (d?.type === 'VariableDeclaration') {
          const j = d.declarations.findIndex((x) => x.id.type === 'Identifier' && x.id.name === name);
          if (j >= 0 && d.declarations[j]!.init) return at('declaration', 'declarations', j, 'init');
        } else if (d && (d as { id?: { name?: string } | null }).id?.name === name) return at('declaration');
        const s = stmt.specifiers.findIndex((x) => keyName(x.exported) === name);
        if (s >= 0) {
          if (stmt.source) {
            const from = this.resolveModule(target.file, stmt.source.value);
            // With a source, the specifiers are `{ a as b }` (ExportSpecifier, which has `local`).
            return from ? this.exportOf(from, keyName((stmt.specifiers[s] as t.ExportSpecifier).local) ?? name, depth + 1) : null;
          }
          return at('specifiers', s, 'local');
        }
      } else if (stmt.type === 'ExportDefaultDeclaration' && name === 'default') {
        return at('declaration');
      } else if (stmt.type === 'ExportAllDeclaration' && stmt.source) {
        const from = this.resolveModule(target.file, stmt.source.value);
        const found = from && this.exportOf(from, name, depth + 1);
        if (found) return found;
      } else if (stmt.type === 'ExpressionStatement' && stmt.expression.type === 'AssignmentExpression') {
        const left = stmt.expression.left;
        const isModuleExports = (n: N): boolean => n.type === 'MemberExpression' && n.object.type === 'Identifier' && n.object.name === 'module' && memberName(n) === 'exports';
        if (isModuleExports(left)) {
          const value = stmt.expression.right;
          if (name === 'default') return at('expression', 'right');
          if (value.type === 'ObjectExpression') {
            const k = value.properties.findIndex((p) => p.type === 'ObjectProperty' && keyName(p.key, p.computed) === name);
            if (k >= 0) return at('expression', 'right', 'properties', k, 'value');
          }
        } else if (left.type === 'MemberExpression' && memberName(left) === name && ((left.object.type === 'Identifier' && left.object.name === 'exports') || isModuleExports(left.object))) {
          return at('expression', 'right');
        }
      }
    }
    return null;
  }

  /** The project file a module is imported from, for an import specifier or a `require('…')` call path. */
  moduleFor(atPath: P, source: string): ProjectFile | null {
    const from = this.fileAt(atPath.node.start!);
    return this.resolveModule(from.file, source);
  }
}

let current: Project | null = null;
let inspector: ((project: Project) => void) | null = null;

/** Run `fn`, handing every project it analyses to `inspect` (to read what the analysis saw, such as crossTalk). */
export function inspectProjects<T>(inspect: (project: Project) => void, fn: () => T): T {
  const previous = inspector;
  inspector = inspect;
  try {
    return fn();
  } finally {
    inspector = previous;
  }
}

/** The project being analysed (set by migrateProject for the duration of one run; one per thread). */
export function currentProject(): Project | null {
  return current;
}

export function withProject<T>(project: Project, fn: () => T): T {
  const previous = current;
  current = project;
  inspector?.(project);
  try {
    return fn();
  } finally {
    current = previous;
  }
}

export { requiredModule };
