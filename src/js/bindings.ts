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
import { requireDependency } from '../util/lazy.js';

export type Steps = ReadonlyArray<string | number>;

const { namedTypes, getFieldNames }: typeof import('ast-types') = requireDependency('ast-types');

/** A type test of ast-types (non-deep `check` looks at `type` only), answered once per node type. */
function category(...types: Array<{ check(value: unknown): boolean } | undefined>): (node: N) => boolean {
  const memo = new Map<string, boolean>();
  return (node) => {
    if (!node || typeof node.type !== 'string') return false;
    let is = memo.get(node.type);
    if (is === undefined) memo.set(node.type, (is = types.some((t) => !!t && t.check({ type: node.type }))));
    return is;
  };
}

const isNode = category(namedTypes.Node);
const isExpression = category(namedTypes.Expression);
const isFunction = category(namedTypes.Function);
const isPattern = category(namedTypes.Pattern);
const isIdentifier = category(namedTypes.Identifier);
const isScopeType = category(namedTypes.Program, namedTypes.Function, namedTypes.CatchClause);
const isTypeParameterScope = category(namedTypes.Function, namedTypes.ClassDeclaration, namedTypes.ClassExpression, namedTypes.InterfaceDeclaration, namedTypes.TSInterfaceDeclaration, namedTypes.TypeAlias, namedTypes.TSTypeAliasDeclaration);
const isTypeDeclaration = category(namedTypes.TypeAlias, namedTypes.InterfaceDeclaration, namedTypes.TSTypeAliasDeclaration, namedTypes.TSInterfaceDeclaration);
const isInterface = category(namedTypes.InterfaceDeclaration, namedTypes.TSInterfaceDeclaration);
const is = (t: { check(value: unknown): boolean }) => category(t);
const isFunctionExpression = is(namedTypes.FunctionExpression);
const isFunctionDeclaration = is(namedTypes.FunctionDeclaration);
const isClassDeclaration = is(namedTypes.ClassDeclaration);
const isCatchClause = is(namedTypes.CatchClause);
const isAssignmentPattern = is(namedTypes.AssignmentPattern);
const isObjectPattern = is(namedTypes.ObjectPattern);
const isArrayPattern = is(namedTypes.ArrayPattern);
const isPropertyPattern = is(namedTypes.PropertyPattern);
const isRestLike = category(namedTypes.SpreadElementPattern, namedTypes.RestElement, namedTypes.SpreadPropertyPattern);
const isProperty = category(namedTypes.Property, namedTypes.ObjectProperty);
const isSpreadProperty = is(namedTypes.SpreadProperty);
const isSpreadElement = is(namedTypes.SpreadElement);
const isVariableDeclarator = is(namedTypes.VariableDeclarator);
const isImportSpecifier = category(namedTypes.ImportSpecifier, namedTypes.ImportNamespaceSpecifier, namedTypes.ImportDefaultSpecifier);

/** Does this node start a scope (ast-types `Scope.isEstablishedBy`)? */
export const establishesScope = (node: N): boolean => isNode(node) && (isScopeType(node) || isTypeParameterScope(node));

/** The fields ast-types' definition gives a node type, without position and comment fields. */
const fieldsOf = (() => {
  const memo = new Map<string, string[]>();
  return (node: N): string[] => {
    let fields = memo.get(node.type);
    if (!fields) memo.set(node.type, (fields = getFieldNames(node).filter((f: string) => f !== 'type' && f !== 'loc' && f !== 'comments')));
    return fields;
  };
})();

/** A node above the walk's position, as ast-types' `path.parent` sees it. */
interface Above {
  node: N;
  steps: Steps;
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
    if (isIdentifier(pattern)) bind(pattern.name, steps);
    else if (isAssignmentPattern(pattern)) addPattern(pattern.left, [...steps, 'left']);
    else if (isObjectPattern(pattern)) {
      pattern.properties.forEach((property: N, i: number) => {
        const at = [...steps, 'properties', i];
        if (isPattern(property)) addPattern(property, at);
        else if (isProperty(property)) addPattern(property.value, [...at, 'value']);
        else if (isSpreadProperty(property)) addPattern(property.argument, [...at, 'argument']);
      });
    } else if (isArrayPattern(pattern)) {
      pattern.elements.forEach((element: N, i: number) => {
        const at = [...steps, 'elements', i];
        if (isPattern(element)) addPattern(element, at);
        else if (isSpreadElement(element)) addPattern(element.argument, [...at, 'argument']);
      });
    } else if (isPropertyPattern(pattern)) addPattern(pattern.pattern, [...steps, 'pattern']);
    else if (isRestLike(pattern)) addPattern(pattern.argument, [...steps, 'argument']);
  };

  // `above` is the nearest node above `value` (an array's is its owner).
  const scanScope = (value: N, steps: Steps, above: Above | null): void => {
    // ast-types' `path.parent`: for a node, the node above; for an array or a missing field, the node above that.
    const parent = isNode(value) ? above : above?.up;
    if (parent && isFunctionExpression(parent.node) && parent.node.id) addPattern(parent.node.id, [...parent.steps, 'id']);
    if (!value) return;
    const here: Above = { node: value, steps, up: above };
    if (Array.isArray(value)) value.forEach((child, i) => scanChild(child, [...steps, i], above));
    else if (isFunction(value)) {
      value.params.forEach((param: N, i: number) => addPattern(param, [...steps, 'params', i]));
      scanChild(value.body, [...steps, 'body'], here);
      scanScope(value.typeParameters, [...steps, 'typeParameters'], here);
    } else if (isTypeDeclaration(value)) {
      // Types only.
    } else if (isVariableDeclarator(value)) {
      addPattern(value.id, [...steps, 'id']);
      scanChild(value.init, [...steps, 'init'], here);
    } else if (isImportSpecifier(value)) {
      const key = value.local ? 'local' : value.name ? 'name' : 'id';
      addPattern(value[key], [...steps, key]);
    } else if (isNode(value) && !isExpression(value)) {
      for (const field of fieldsOf(value)) scanChild(value[field], [...steps, field], here);
    }
  };

  const scanChild = (value: N, steps: Steps, above: Above | null): void => {
    if (!value || isExpression(value)) return;
    if (isFunctionDeclaration(value) && value.id !== null) addPattern(value.id, [...steps, 'id']);
    else if (isClassDeclaration(value) && value.id !== null) addPattern(value.id, [...steps, 'id']);
    else if (isInterface(value)) return;
    else if (isScopeType(value)) {
      if (isCatchClause(value) && isIdentifier(value.param)) {
        const name: string = value.param.name;
        const had = bindings.has(name);
        scanScope(value.body, [...steps, 'body'], { node: value, steps, up: above });
        if (!had) bindings.delete(name);
      }
    } else scanScope(value, steps, above);
  };

  if (isScopeType(scopeNode)) {
    if (isCatchClause(scopeNode)) {
      if (scopeNode.param) addPattern(scopeNode.param, ['param']);
    } else scanScope(scopeNode, [], null);
  }
  return bindings;
}
