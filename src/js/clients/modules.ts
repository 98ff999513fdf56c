/** Recognising a client library's value in code: its import, its require, or a global it defines. */
import { bindingOf, keyName, memberName, requiredModule, unwrap } from '../scope.js';
import type { P, t } from '../ast.js';
import type { Resolved } from '../values.js';

/** The module an identifier was imported or required from, with the imported name. */
export function moduleOf(idPath: P): { source: string; imported: string } | null {
  const b = bindingOf(idPath);
  if (b.kind === 'import') return { source: b.source, imported: b.imported };
  if (b.kind === 'var' && b.init) {
    const init = unwrap(b.init).node;
    const direct = requiredModule(init);
    if (direct) return { source: direct, imported: b.keyPath[0] ?? 'default' };
    // require('axios').default
    if (init.type === 'MemberExpression' && requiredModule(init.object)) return { source: requiredModule(init.object)!, imported: memberName(init) ?? 'default' };
  }
  return null;
}

/** A library as code names it: the modules it is imported from, and the export names that are the client. */
export interface Library {
  modules: ReadonlySet<string>;
  /** Named exports that are the client itself (`default` always is). */
  names: ReadonlySet<string>;
  /** A global the runtime defines (`$fetch` in Nuxt), used without an import. */
  global?: string;
}

/** Is the resolved value the library's client (its default or a named export, imported or required)? */
export function isLibraryValue(r: Resolved, lib: Library): boolean {
  const n = r.path.node;
  const named = (name: string): boolean => name === 'default' || lib.names.has(name);
  if (n.type === 'ImportDefaultSpecifier' || n.type === 'ImportNamespaceSpecifier' || n.type === 'ImportSpecifier') {
    const source = (r.path.parentPath.parentPath.node as t.ImportDeclaration).source.value;
    return lib.modules.has(source) && (n.type !== 'ImportSpecifier' || named(keyName(n.imported) ?? ''));
  }
  if (n.type === 'Identifier') {
    if (lib.global && n.name === lib.global && bindingOf(r.path).kind === 'global') return true;
    const m = moduleOf(r.path);
    return !!m && lib.modules.has(m.source) && named(m.imported);
  }
  if (n.type === 'CallExpression') {
    const source = requiredModule(n);
    return !!source && lib.modules.has(source);
  }
  return false;
}
