/**
 * What a scope declares, computed the way ast-types' `Scope.scan` does but over plain nodes.
 *
 * ast-types builds a NodePath for every statement-level node of a scope and checks each against its
 * type definitions field by field; that scan was a tenth of a cold run's analysis. This one walks the
 * same nodes in the same order with the same rules (test/bindings.test.ts compares the two on every
 * fixture), and records for each binding only the steps from the scope's node to the declaring
 * identifier, so a NodePath is made only for a declaration somebody asks for.
 *
 * The rules, quirks included: a scope is a Program, a function or a catch clause; `var`, `let`,
 * `const`, function and class declarations anywhere in it (blocks included) bind in it; expressions
 * are not entered (their functions are scopes of their own); a named function expression binds its
 * name in its own scope; a catch clause binds only its parameter, and the declarations of its body
 * bind outside unless they share the parameter's name (only when the parameter is an identifier).
 */
import type { N, t } from './ast.js';
import { fieldsOf, isA } from './node-types.js';

export type Steps = ReadonlyArray<string | number>;

/**
 * What the scan visits: a node, an array of them, or a missing field. The scan tests ast-types'
 * categories (bits below), which TypeScript cannot narrow on, so each branch says what a node of
 * its category is.
 */
type Value = N | ReadonlyArray<N | null> | null | undefined;
/** A node's fields by name (for the categories the scan walks field by field). */
type Fields = Record<string, Value>;

/** The ast-types categories the scan tests, one bit each; a node type's bits are computed once. */
const CATEGORIES: string[][] = [];
const category = (...types: string[]): number => 1 << (CATEGORIES.push(types) - 1);
const NODE = category('Node');
const EXPRESSION = category('Expression');
const FUNCTION = category('Function');
const PATTERN = category('Pattern');
const IDENTIFIER = category('Identifier');
const SCOPE = category('Program', 'Function', 'CatchClause');
const TYPE_PARAMETER_SCOPE = category('Function', 'ClassDeclaration', 'ClassExpression', 'InterfaceDeclaration', 'TSInterfaceDeclaration', 'TypeAlias', 'TSTypeAliasDeclaration');
const TYPE_DECLARATION = category('TypeAlias', 'InterfaceDeclaration', 'TSTypeAliasDeclaration', 'TSInterfaceDeclaration');
const INTERFACE = category('InterfaceDeclaration', 'TSInterfaceDeclaration');
const FUNCTION_EXPRESSION = category('FunctionExpression');
const FUNCTION_DECLARATION = category('FunctionDeclaration');
const CLASS_DECLARATION = category('ClassDeclaration');
const CATCH_CLAUSE = category('CatchClause');
const ASSIGNMENT_PATTERN = category('AssignmentPattern');
const OBJECT_PATTERN = category('ObjectPattern');
const ARRAY_PATTERN = category('ArrayPattern');
const PROPERTY_PATTERN = category('PropertyPattern');
const REST = category('SpreadElementPattern', 'RestElement', 'SpreadPropertyPattern');
const PROPERTY = category('Property', 'ObjectProperty');
const SPREAD_PROPERTY = category('SpreadProperty');
const SPREAD_ELEMENT = category('SpreadElement');
const VARIABLE_DECLARATOR = category('VariableDeclarator');
const IMPORT_SPECIFIER = category('ImportSpecifier', 'ImportNamespaceSpecifier', 'ImportDefaultSpecifier');

const flagsByType = new Map<string, number>();

/** The category bits of a value (0 for anything that is not a node). */
function flagsOf(value: Value): number {
  // An array has no `type`, so it is 0 too.
  const type = value && (value as N).type;
  if (typeof type !== 'string') return 0;
  let flags = flagsByType.get(type);
  if (flags === undefined) {
    flags = 0;
    CATEGORIES.forEach((types, bit) => {
      if (types.some((t) => isA(type, t))) flags! |= 1 << bit;
    });
    flagsByType.set(type, flags);
  }
  return flags;
}

/** Does this node start a scope (ast-types `Scope.isEstablishedBy`)? */
export function establishesScope(node: N): boolean {
  const f = flagsOf(node);
  return (f & NODE) !== 0 && (f & (SCOPE | TYPE_PARAMETER_SCOPE)) !== 0;
}

/** A node above the walk's position, as ast-types' `path.parent` sees it. */
interface Above {
  node: Value;
  /** How many steps from the scope's node lead to it (a prefix of the walk's steps). */
  depth: number;
  up: Above | null;
}

/** Name → steps from the scope's node to each identifier that declares it, in ast-types' order. */
export function scanBindings(scopeNode: N): Map<string, Steps[]> {
  const bindings = new Map<string, Steps[]>();
  const bind = (name: string, steps: Steps): void => {
    const list = bindings.get(name);
    if (list) list.push(steps);
    else bindings.set(name, [steps]);
  };

  const addPattern = (pattern: Value, steps: Steps): void => {
    const f = flagsOf(pattern);
    if (f & IDENTIFIER) bind((pattern as t.Identifier).name, steps);
    else if (f & ASSIGNMENT_PATTERN) addPattern((pattern as t.AssignmentPattern).left, [...steps, 'left']);
    else if (f & OBJECT_PATTERN) {
      (pattern as t.ObjectPattern).properties.forEach((property, i) => {
        const at = [...steps, 'properties', i];
        const pf = flagsOf(property);
        if (pf & PATTERN) addPattern(property, at);
        else if (pf & PROPERTY) addPattern((property as t.ObjectProperty).value, [...at, 'value']);
        else if (pf & SPREAD_PROPERTY) addPattern((property as unknown as Fields).argument, [...at, 'argument']);
      });
    } else if (f & ARRAY_PATTERN) {
      (pattern as t.ArrayPattern).elements.forEach((element, i) => {
        const at = [...steps, 'elements', i];
        const ef = flagsOf(element);
        if (ef & PATTERN) addPattern(element, at);
        else if (ef & SPREAD_ELEMENT) addPattern((element as unknown as t.SpreadElement).argument, [...at, 'argument']);
      });
    } else if (f & PROPERTY_PATTERN) addPattern((pattern as unknown as Fields).pattern, [...steps, 'pattern']);
    else if (f & REST) addPattern((pattern as unknown as Fields).argument, [...steps, 'argument']);
  };

  // The steps from the scope's node to the value being scanned, pushed and popped as the scan goes:
  // an array of steps is made only for a declaration.
  const walked: Array<string | number> = [];
  const into = (step: string | number, scan: (value: Value, above: Above | null) => void, value: Value, above: Above | null): void => {
    walked.push(step);
    scan(value, above);
    walked.pop();
  };

  // `above` is the nearest node above `value` (an array's is its owner).
  const scanScope = (value: Value, above: Above | null): void => {
    const f = flagsOf(value);
    // ast-types' `path.parent`: for a node, the node above; for an array or a missing field, the node above that.
    const parent = f & NODE ? above : above?.up;
    if (parent && flagsOf(parent.node) & FUNCTION_EXPRESSION && (parent.node as t.FunctionExpression).id) {
      addPattern((parent.node as t.FunctionExpression).id, [...walked.slice(0, parent.depth), 'id']);
    }
    if (!value) return;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) into(i, scanChild, value[i], above);
      return;
    }
    const node = value as N;
    const here: Above = { node, depth: walked.length, up: above };
    if (f & FUNCTION) {
      const fn = node as t.Function;
      fn.params.forEach((param, i) => addPattern(param, [...walked, 'params', i]));
      into('body', scanChild, fn.body, here);
      into('typeParameters', scanScope, fn.typeParameters as Value, here);
    } else if (f & TYPE_DECLARATION) {
      // Types only.
    } else if (f & VARIABLE_DECLARATOR) {
      addPattern((node as t.VariableDeclarator).id, [...walked, 'id']);
      into('init', scanChild, (node as t.VariableDeclarator).init, here);
    } else if (f & IMPORT_SPECIFIER) {
      const fields = node as unknown as Fields;
      const key = fields.local ? 'local' : fields.name ? 'name' : 'id';
      addPattern(fields[key], [...walked, key]);
    } else if (f & NODE && !(f & EXPRESSION)) {
      const fields = node as unknown as Fields;
      for (const field of fieldsOf(node.type)) into(field, scanChild, fields[field], here);
    }
  };

  const scanChild = (value: Value, above: Above | null): void => {
    const f = flagsOf(value);
    if (!value || f & EXPRESSION) return;
    const node = value as N;
    if (f & FUNCTION_DECLARATION && (node as t.FunctionDeclaration).id !== null) addPattern((node as t.FunctionDeclaration).id, [...walked, 'id']);
    else if (f & CLASS_DECLARATION && (node as t.ClassDeclaration).id !== null) addPattern((node as t.ClassDeclaration).id, [...walked, 'id']);
    else if (f & INTERFACE) return;
    else if (f & SCOPE) {
      const param = (node as t.CatchClause).param;
      if (f & CATCH_CLAUSE && flagsOf(param) & IDENTIFIER) {
        const name = (param as t.Identifier).name;
        const had = bindings.has(name);
        into('body', scanScope, (node as t.CatchClause).body, { node, depth: walked.length, up: above });
        if (!had) bindings.delete(name);
      }
    } else scanScope(value, above);
  };

  const f = flagsOf(scopeNode);
  if (f & CATCH_CLAUSE) {
    const param = (scopeNode as t.CatchClause).param;
    if (param) addPattern(param, ['param']);
  } else if (f & SCOPE) scanScope(scopeNode, null);
  return bindings;
}
