import type { Ctx } from '../context.js';
import { bindingOf, keyName, lookupScope, memberName, unwrap } from '../scope.js';
import type { P, t } from '../ast.js';
import { pathsMatching } from '../walk.js';
import { staticValue, type Static } from './static.js';

/** A property of a request body object literal. */
export interface BodyProp {
  key: string;
  /** The ObjectProperty path. */
  prop: P<t.ObjectProperty>;
  value: P;
  static: Static;
  shorthand: boolean;
}

/** A later `body.field = value` write on the variable the body literal is bound to. */
export interface BodyWrite {
  key: string;
  /** The member expression's property (renamed in place). */
  property: P<t.MemberExpression['property']>;
  /** The assigned value. */
  value: P;
  statement: P;
  static: Static;
}

export interface BodyObject {
  object: P<t.ObjectExpression>;
  props: Map<string, BodyProp>;
  /** Spread elements (`...base`): their fields cannot be verified. */
  spreads: P[];
  writes: BodyWrite[];
  /** Writes whose field is only known at run time (`body[key] = value`, `Object.assign(body, …)`). */
  opaqueWrites: P[];
}

export function readBody(object: P<t.ObjectExpression>, ctx: Ctx, via: ReadonlyArray<P<t.Identifier>>): BodyObject {
  const props = new Map<string, BodyProp>();
  const spreads: P[] = [];
  object.node.properties.forEach((prop, i) => {
    const path = object.get('properties', i);
    if (prop.type === 'SpreadElement') return void spreads.push(path);
    const key = keyName(prop.key, prop.computed);
    if (key === null || prop.type !== 'ObjectProperty') return;
    props.set(key, { key, prop: path as P<t.ObjectProperty>, value: path.get('value'), static: staticValue(path.get('value'), ctx), shorthand: !!prop.shorthand });
  });
  return { object, props, spreads, writes: via.flatMap((id) => writesTo(id, ctx)), opaqueWrites: via.flatMap(opaqueWritesTo) };
}

/** `id[key] = value` and `Object.assign(id, …)` on the same binding as `id`: fields only known at run time. */
export function opaqueWritesTo(idPath: P<t.Identifier>): P[] {
  const name = idPath.node.name;
  const scope = lookupScope(idPath, name);
  if (!scope) return [];
  const isId = (n: t.Node): boolean => n.type === 'Identifier' && n.name === name;
  const found = pathsMatching(scope.path, (n) =>
    (n.type === 'AssignmentExpression' && n.left.type === 'MemberExpression' && n.left.computed && isId(n.left.object)) ||
    (n.type === 'CallExpression' && (n.callee.type === 'MemberExpression' || n.callee.type === 'OptionalMemberExpression') && memberName(n.callee) === 'assign' && n.callee.object.type === 'Identifier' && n.callee.object.name === 'Object' && !!n.arguments[0] && isId(n.arguments[0])),
  );
  return found.filter((p) => {
    const target = p.node.type === 'AssignmentExpression' ? p.get('left', 'object') : p.get('arguments', 0);
    return lookupScope(target, name) === scope;
  });
}

/** `id.key = value` statements on the same binding as `id`. */
export function writesTo(idPath: P<t.Identifier>, ctx: Ctx): BodyWrite[] {
  const binding = bindingOf(idPath);
  if (binding.kind !== 'var') return [];
  const scope = lookupScope(idPath, idPath.node.name);
  if (!scope) return [];
  const out: BodyWrite[] = [];
  const assignments = pathsMatching(scope.path, (n): n is t.AssignmentExpression => n.type === 'AssignmentExpression' && n.operator === '=' && n.left.type === 'MemberExpression' && !n.left.computed);
  for (const p of assignments) {
    const obj = unwrap(p.get('left', 'object'));
    if (obj.node.type !== 'Identifier' || obj.node.name !== idPath.node.name || lookupScope(obj, obj.node.name) !== scope) continue;
    const key = memberName(p.node.left);
    if (key) out.push({ key, property: p.get('left', 'property') as P<t.MemberExpression['property']>, value: p.get('right'), statement: p.parentPath, static: staticValue(p.get('right'), ctx) });
  }
  return out;
}
