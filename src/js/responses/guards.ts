/**
 * Is a `res.json()` call reached only when the response failed (`if (!res.ok) { … res.json() … }`),
 * only when it succeeded, or either way? Judged from the conditions around the call and from early
 * exits before it (`if (!res.ok) throw …; return res.json()`), within the enclosing function.
 */
import { isFunction, memberName } from '../scope.js';
import type { N, P } from '../ast.js';
import { parentOf } from './tree.js';

export type Outcome = 'ok' | 'error';

/** What a test says about a response when it holds, and when it does not (null: nothing). */
interface Implication {
  whenTrue: Outcome | null;
  whenFalse: Outcome | null;
}

const NOTHING: Implication = { whenTrue: null, whenFalse: null };
const swap = (i: Implication): Implication => ({ whenTrue: i.whenFalse, whenFalse: i.whenTrue });

function strip(n: N): N {
  let x = n;
  while (x && (x.type === 'ParenthesizedExpression' || x.type === 'TSNonNullExpression' || x.type === 'TSAsExpression')) x = x.expression;
  return x;
}

/** `name.ok` / `name.status` (also `name?.ok`). */
function responseMember(n: N, name: string): 'ok' | 'status' | null {
  const x = strip(n);
  if (x?.type !== 'MemberExpression' && x?.type !== 'OptionalMemberExpression') return null;
  const obj = strip(x.object);
  if (obj.type !== 'Identifier' || obj.name !== name) return null;
  const m = memberName(x);
  return m === 'ok' || m === 'status' ? m : null;
}

/** What `status <op> value` holding says, read as the author meant it (`status !== 200`: it failed). */
function statusHolds(op: string, value: number): Outcome | null {
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
      return value >= 200 && value < 300 ? 'error' : null;
  }
  return null;
}

/** `status <op> value` for one status. */
function compare(op: string, status: number, value: number): boolean | null {
  switch (op) {
    case '>=':
      return status >= value;
    case '>':
      return status > value;
    case '<':
      return status < value;
    case '<=':
      return status <= value;
    case '===':
    case '==':
      return status === value;
    case '!==':
    case '!=':
      return status !== value;
  }
  return null;
}

/**
 * What `status <op> value` failing says, strictly: the statuses it leaves must be successes (2xx) and
 * no failures (4xx, 5xx), or the other way round. `status === 204` failing says nothing (a 200 and a
 * 500 are both left), so what follows an early `if (res.status === 204) return` is not an error branch.
 */
function statusFails(op: string, value: number): Outcome | null {
  let success = false;
  let failure = false;
  for (let status = 100; status < 600; status++) {
    if (compare(op, status, value) !== false) continue;
    if (status >= 200 && status < 300) success = true;
    if (status >= 400) failure = true;
  }
  return success === failure ? null : success ? 'ok' : 'error';
}

/** What `test` holding, and failing, says about response `name`. */
function implication(test: N, name: string): Implication {
  const t = strip(test);
  if (!t) return NOTHING;
  if (t.type === 'UnaryExpression' && t.operator === '!') return swap(implication(t.argument, name));
  if (responseMember(t, name) === 'ok') return { whenTrue: 'ok', whenFalse: 'error' };
  if (t.type === 'BinaryExpression') {
    const left = responseMember(t.left, name);
    const right = strip(t.right);
    if (left === 'ok' && right.type === 'BooleanLiteral') {
      const eq = t.operator === '===' || t.operator === '==';
      const ne = t.operator === '!==' || t.operator === '!=';
      if (eq || ne) return right.value === eq ? { whenTrue: 'ok', whenFalse: 'error' } : { whenTrue: 'error', whenFalse: 'ok' };
    }
    if (left === 'status' && right.type === 'NumericLiteral') return { whenTrue: statusHolds(t.operator, right.value), whenFalse: statusFails(t.operator, right.value) };
  }
  if (t.type === 'LogicalExpression') {
    const a = implication(t.left, name);
    const b = implication(t.right, name);
    // `a && b` holds when both do, fails when either does; `a || b` the other way round.
    const both = (x: Outcome | null, y: Outcome | null): Outcome | null => x ?? y;
    const either = (x: Outcome | null, y: Outcome | null): Outcome | null => (x === y ? x : null);
    if (t.operator === '&&') return { whenTrue: both(a.whenTrue, b.whenTrue), whenFalse: either(a.whenFalse, b.whenFalse) };
    if (t.operator === '||') return { whenTrue: either(a.whenTrue, b.whenTrue), whenFalse: both(a.whenFalse, b.whenFalse) };
  }
  return NOTHING;
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
      const i = implication(n.test, name);
      const o = n.consequent === c ? i.whenTrue : i.whenFalse;
      if (o) return o;
    }
    if (n.type === 'LogicalExpression' && n.right === c) {
      const i = implication(n.left, name);
      const o = n.operator === '&&' ? i.whenTrue : n.operator === '||' ? i.whenFalse : null;
      if (o) return o;
    }
    const body: N[] | null = n.type === 'BlockStatement' || n.type === 'Program' ? n.body : n.type === 'SwitchCase' ? n.consequent : null;
    if (body) {
      const index = body.indexOf(c);
      for (let i = index - 1; i >= 0; i--) {
        const s = body[i];
        if (s.type !== 'IfStatement') continue;
        const says = implication(s.test, name);
        if (exits(s.consequent) && !s.alternate && says.whenFalse) return says.whenFalse;
        if (s.alternate && exits(s.alternate) && !exits(s.consequent) && says.whenTrue) return says.whenTrue;
      }
    }
  }
  return null;
}
