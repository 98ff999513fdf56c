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
import type { N } from './scope.js';
import { fieldsOf, isA } from './node-types.js';

export type Steps = ReadonlyArray<string | number>;

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
function flagsOf(value: N): number {
  if (!value || typeof value.type !== 'string') return 0;
  let flags = flagsByType.get(value.type);
  if (flags === undefined) {
    flags = 0;
    CATEGORIES.forEach((types, bit) => {
      if (types.some((t) => isA(value.type, t))) flags! |= 1 << bit;
    });
    flagsByType.set(value.type, flags);
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
  node: N;
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

  const addPattern = (pattern: N, steps: Steps): void => {
    const f = flagsOf(pattern);
    if (f & IDENTIFIER) bind(pattern.name, steps);
    else if (f & ASSIGNMENT_PATTERN) addPattern(pattern.left, [...steps, 'left']);
    else if (f & OBJECT_PATTERN) {
      pattern.properties.forEach((property: N, i: number) => {
        const at = [...steps, 'properties', i];
        const pf = flagsOf(property);
        if (pf & PATTERN) addPattern(property, at);
        else if (pf & PROPERTY) addPattern(property.value, [...at, 'value']);
        else if (pf & SPREAD_PROPERTY) addPattern(property.argument, [...at, 'argument']);
      });
    } else if (f & ARRAY_PATTERN) {
      pattern.elements.forEach((element: N, i: number) => {
        const at = [...steps, 'elements', i];
        const ef = flagsOf(element);
        if (ef & PATTERN) addPattern(element, at);
        else if (ef & SPREAD_ELEMENT) addPattern(element.argument, [...at, 'argument']);
      });
    } else if (f & PROPERTY_PATTERN) addPattern(pattern.pattern, [...steps, 'pattern']);
    else if (f & REST) addPattern(pattern.argument, [...steps, 'argument']);
  };

  // The steps from the scope's node to the value being scanned, pushed and popped as the scan goes:
  // an array of steps is made only for a declaration.
  const walked: Array<string | number> = [];
  const into = (step: string | number, scan: (value: N, above: Above | null) => void, value: N, above: Above | null): void => {
    walked.push(step);
    scan(value, above);
    walked.pop();
  };

  // `above` is the nearest node above `value` (an array's is its owner).
  const scanScope = (value: N, above: Above | null): void => {
    const f = flagsOf(value);
    // ast-types' `path.parent`: for a node, the node above; for an array or a missing field, the node above that.
    const parent = f & NODE ? above : above?.up;
    if (parent && flagsOf(parent.node) & FUNCTION_EXPRESSION && parent.node.id) addPattern(parent.node.id, [...walked.slice(0, parent.depth), 'id']);
    if (!value) return;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) into(i, scanChild, value[i], above);
      return;
    }
    const here: Above = { node: value, depth: walked.length, up: above };
    if (f & FUNCTION) {
      value.params.forEach((param: N, i: number) => addPattern(param, [...walked, 'params', i]));
      into('body', scanChild, value.body, here);
      into('typeParameters', scanScope, value.typeParameters, here);
    } else if (f & TYPE_DECLARATION) {
      // Types only.
    } else if (f & VARIABLE_DECLARATOR) {
      addPattern(value.id, [...walked, 'id']);
      into('init', scanChild, value.init, here);
    } else if (f & IMPORT_SPECIFIER) {
      const key = value.local ? 'local' : value.name ? 'name' : 'id';
      addPattern(value[key], [...walked, key]);
    } else if (f & NODE && !(f & EXPRESSION)) {
      for (const field of fieldsOf(value.type)) into(field, scanChild, value[field], here);
    }
  };

  const scanChild = (value: N, above: Above | null): void => {
    const f = flagsOf(value);
    if (!value || f & EXPRESSION) return;
    if (f & FUNCTION_DECLARATION && value.id !== null) addPattern(value.id, [...walked, 'id']);
    else if (f & CLASS_DECLARATION && value.id !== null) addPattern(value.id, [...walked, 'id']);
    else if (f & INTERFACE) return;
    else if (f & SCOPE) {
      if (f & CATCH_CLAUSE && flagsOf(value.param) & IDENTIFIER) {
        const name: string = value.param.name;
        const had = bindings.has(name);
        into('body', scanScope, value.body, { node: value, depth: walked.length, up: above });
        if (!had) bindings.delete(name);
      }
    } else scanScope(value, above);
  };

  const f = flagsOf(scopeNode);
  if (f & CATCH_CLAUSE) {
    if (scopeNode.param) addPattern(scopeNode.param, ['param']);
  } else if (f & SCOPE) scanScope(scopeNode, null);
  return bindings;
}
