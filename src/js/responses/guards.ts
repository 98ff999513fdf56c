/**
 * Is a `res.json()` call reached only when the response failed (`if (!res.ok) { … res.json() … }`),
 * only when it succeeded, or either way? Judged from the conditions around the call and from early
 * exits before it (`if (!res.ok) throw …; return res.json()`), within the enclosing function.
 */
import { isFunction, memberName } from '../scope.js';
import type { N, P } from '../ast.js';
import { bareExpression, parentOf } from './tree.js';

export type Outcome = 'ok' | 'error';

/** The comparison that holds when `op` does not. */
const NEGATED: Readonly<Record<string, string>> = { '===': '!==', '==': '!=', '!==': '===', '!=': '==', '>=': '<', '<': '>=', '>': '<=', '<=': '>' };

const strip = (n: N): N => n && bareExpression(n);

/** `name.ok` / `name.status` (also `name?.ok`). */
function responseMember(n: N, name: string): 'ok' | 'status' | null {
  const x = strip(n);
  if (x?.type !== 'MemberExpression' && x?.type !== 'OptionalMemberExpression') return null;
  const obj = strip(x.object);
  if (obj.type !== 'Identifier' || obj.name !== name) return null;
  const m = memberName(x);
  return m === 'ok' || m === 'status' ? m : null;
}

/**
 * What `status <op> value` holding says. A test against 204 (no content) only sets an empty success
 * apart: `status !== 204` is any other answer, a success or not.
 */
function statusOutcome(op: string, value: number): Outcome | null {
  switch (op) {
    case '>=':
      return value >= 300 ? 'error' : null;
    case '>':
      return value >= 299 ? 'error' : null;
    case '<':
      return value <= 400 && value > 200 ? 'ok' : null;
    case '<=':
      return value < 400 && value >= 200 ? 'ok' : null;
    case '===':
    case '==':
      return value >= 200 && value < 300 ? 'ok' : value >= 400 ? 'error' : null;
    case '!==':
    case '!=':
      return value >= 200 && value < 300 && value !== 204 ? 'error' : null;
  }
  return null;
}

/** What `test` being true (or, with `holds` false, being false) says about response `name`. */
export function testOutcome(test: N, name: string, holds = true): Outcome | null {
  const t = strip(test);
  if (!t) return null;
  if (t.type === 'UnaryExpression' && t.operator === '!') return testOutcome(t.argument, name, !holds);
  const m = responseMember(t, name);
  if (m === 'ok') return holds ? 'ok' : 'error';
  if (t.type === 'BinaryExpression') {
    const left = responseMember(t.left, name);
    const right = strip(t.right);
    if (left === 'ok' && right.type === 'BooleanLiteral') {
      const eq = t.operator === '===' || t.operator === '==';
      const ne = t.operator === '!==' || t.operator === '!=';
      if (eq || ne) return (right.value === eq) === holds ? 'ok' : 'error';
    }
    const op = holds ? t.operator : NEGATED[t.operator];
    if (left === 'status' && right.type === 'NumericLiteral' && op) return statusOutcome(op, right.value);
  }
  if (t.type === 'LogicalExpression' && t.operator !== '??') {
    const a = testOutcome(t.left, name, holds);
    const b = testOutcome(t.right, name, holds);
    // `a && b` holding (or `a || b` failing) says both; otherwise only what both sides agree on.
    return (t.operator === '&&') === holds ? a ?? b : a === b ? a : null;
  }
  return null;
}

/** Does this statement always leave the enclosing block (return, throw, continue, break)? */
function exits(stmt: N): boolean {
  if (!stmt) return false;
  if (stmt.type === 'ReturnStatement' || stmt.type === 'ThrowStatement' || stmt.type === 'ContinueStatement' || stmt.type === 'BreakStatement') return true;
  if (stmt.type === 'BlockStatement') return exits(stmt.body[stmt.body.length - 1]);
  if (stmt.type === 'IfStatement') return !!stmt.alternate && exits(stmt.consequent) && exits(stmt.alternate);
  return false;
}

/** Whether `at` runs only when response variable `name` succeeded or failed (null: either, or unknown). */
export function outcomeAt(at: P, name: string): Outcome | null {
  let child: P = at;
  for (let q = parentOf(at); q; child = q, q = parentOf(q)) {
    const n = q.value;
    const c = child.value;
    if (isFunction(n)) return null;
    if ((n.type === 'IfStatement' || n.type === 'ConditionalExpression') && n.test !== c) {
      const o = testOutcome(n.test, name, n.consequent === c);
      if (o) return o;
    }
    if (n.type === 'LogicalExpression' && n.right === c && n.operator !== '??') {
      const o = testOutcome(n.left, name, n.operator === '&&');
      if (o) return o;
    }
    const body: N[] | null = n.type === 'BlockStatement' || n.type === 'Program' ? n.body : n.type === 'SwitchCase' ? n.consequent : null;
    if (body) {
      const index = body.indexOf(c);
      for (let i = index - 1; i >= 0; i--) {
        const s = body[i];
        if (s.type !== 'IfStatement') continue;
        // Past `if (test) return …` only code where the test failed runs, and the other way round.
        const o = exits(s.consequent) && !s.alternate ? testOutcome(s.test, name, false) : s.alternate && exits(s.alternate) && !exits(s.consequent) ? testOutcome(s.test, name, true) : null;
        if (o) return o;
      }
    }
  }
  return null;
}
