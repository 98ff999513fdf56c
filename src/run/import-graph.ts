import path from 'node:path';
import { mayNameOneOf, type ModuleResolver } from '../scan/resolve.js';
import { specifiersInBytes } from './imports.js';
import { readEach } from './read.js';
import type { SpecifiersOf } from './screen.js';

/**
 * Imports between a run's JS/TS files, resolved only where a question needs them. A run asks who
 * imports its few RunPod files (and who imports those), then what the files it takes import; a
 * monorepo of 30,000 files holds ~80,000 specifiers, and resolving each cost most of a run that
 * finds 400 files to migrate. Every file's specifiers are read once; a specifier is resolved when the
 * file's own imports are asked for, or when it may name one of the files whose importers are asked
 * for (`mayNameOneOf`: `./client` cannot name `lib/index.ts`). Answers are those of resolving every
 * specifier.
 */
export class ImportGraph {
  private readonly specifiers = new Map<string, string[]>();
  private readonly imports = new Map<string, string[]>();
  /** Per folder and specifier (resolution depends on nothing else): the run's file it names, or null. */
  private readonly resolved = new Map<string, string | null>();
  /** The names (lower case) of the folders holding some of the run's files that hold a package.json. */
  private readonly packageFolders = new Set<string>();

  /** The specifiers of `files` are those the screen collected, or read again (only runs with files to migrate need them). */
  constructor(
    private readonly files: readonly string[],
    private readonly resolver: ModuleResolver,
    private readonly known: ReadonlySet<string>,
    screened: SpecifiersOf = () => undefined,
  ) {
    const unread: string[] = [];
    for (const file of files) {
      const specs = screened(file);
      if (specs) this.specifiers.set(file, specs);
      else unread.push(file);
    }
    readEach(unread, (file, bytes) => {
      if (bytes) this.specifiers.set(file, specifiersInBytes(bytes));
    });
    const folders = new Set<string>();
    for (const file of known) for (let d = path.dirname(file); !folders.has(d) && path.dirname(d) !== d; d = path.dirname(d)) folders.add(d);
    for (const d of folders) if (resolver.holdsPackage(d)) this.packageFolders.add(path.basename(d).toLowerCase());
  }

  /** Whether the file was read (its imports are known). */
  has(file: string): boolean {
    return this.specifiers.has(file);
  }

  /** The run's files that `file` imports, each once, in the order of its specifiers (undefined: not read). */
  get(file: string): readonly string[] | undefined {
    let targets = this.imports.get(file);
    if (targets) return targets;
    const specs = this.specifiers.get(file);
    if (!specs) return undefined;
    const out = new Set<string>();
    for (const spec of specs) {
      const target = this.resolve(file, spec);
      if (target) out.add(target);
    }
    this.imports.set(file, (targets = [...out]));
    return targets;
  }

  /** The files, in run order and outside `skip`, that import one of `targets`. */
  importersOf(targets: ReadonlySet<string>, skip: ReadonlySet<string>): string[] {
    const mayName = mayNameOneOf(targets, this.packageFolders);
    const out: string[] = [];
    for (const file of this.files) {
      if (skip.has(file)) continue;
      const specs = this.specifiers.get(file);
      if (!specs) continue;
      const known = this.imports.get(file);
      const imports = (spec: string): boolean => {
        if (!mayName(file, spec)) return false;
        const target = this.resolve(file, spec);
        return target !== null && targets.has(target);
      };
      if (known ? known.some((t) => targets.has(t)) : specs.some(imports)) out.push(file);
    }
    return out;
  }

  private resolve(file: string, spec: string): string | null {
    const key = `${path.dirname(file)}\0${spec}`;
    let target = this.resolved.get(key);
    if (target === undefined) this.resolved.set(key, (target = this.resolver.resolve(file, spec, (f) => this.known.has(f))));
    return target;
  }
}
