import type { Ctx } from '../context.js';
import { unwrap } from '../scope.js';
import type { N, P, t } from '../ast.js';
import { isResolved, resolveExpr } from '../values.js';

/** A value known at analysis time, or `UNKNOWN`. */
export const UNKNOWN: unique symbol = Symbol('unknown');
export type Static = unknown;

/** Evaluate literals, arrays and objects of literals, and constants bound to them. */
export function staticValue(path: P, ctx: Ctx, depth = 0): Static {
  if (depth > 20) return UNKNOWN;
  const p = unwrap(path);
  const n: N = p.node;
  switch (n.type) {
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
      return n.value;
    case 'NullLiteral':
      return null;
    case 'TemplateLiteral':
      return n.expressions.length === 0 ? n.quasis[0].value.cooked : UNKNOWN;
    case 'UnaryExpression':
      if (n.operator === '-' && n.argument.type === 'NumericLiteral') return -n.argument.value;
      if (n.operator === '!' && n.argument.type === 'NumericLiteral') return !n.argument.value;
      return UNKNOWN;
    case 'ArrayExpression':
      return (n.elements as N[]).map((e, i) => (e && e.type !== 'SpreadElement' ? staticValue(p.get('elements', i), ctx, depth + 1) : UNKNOWN));
    case 'ObjectExpression': {
      const out: Record<string, Static> = {};
      for (let i = 0; i < n.properties.length; i++) {
        const prop = n.properties[i];
        if (prop.type !== 'ObjectProperty' || prop.computed) return UNKNOWN;
        const key = prop.key.type === 'Identifier' ? prop.key.name : (prop.key as t.StringLiteral | t.NumericLiteral | t.BigIntLiteral).value;
        out[String(key)] = staticValue(p.get('properties', i, 'value'), ctx, depth + 1);
      }
      return out;
    }
    case 'Identifier':
    case 'MemberExpression': {
      if (n.type === 'Identifier' && n.name === 'undefined') return undefined;
      const r = resolveExpr(p, ctx);
      if (!isResolved(r) || r.path === p || r.path.node.type === 'Identifier' || r.path.node.type === 'MemberExpression') return UNKNOWN;
      return staticValue(r.path, r.ctx, depth + 1);
    }
    default:
      return UNKNOWN;
  }
}

export const isKnown = (v: Static): boolean => v !== UNKNOWN && !(Array.isArray(v) && v.includes(UNKNOWN));
