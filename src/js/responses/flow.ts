/**
 * Follow what a request hands back, forward from the client call: the response (`await fetch(…)`,
 * axios' response object), its parsed body (`res.json()`, `res.data`), and, once unwrapped, the list
 * and its items. The value is followed through `await`, `.then`, variables and destructuring, `return`
 * out of the wrappers of the request's call chain (its frames) and of local functions (to their callers),
 * local helpers it is passed to, React state setters, array methods and `structuredClone`. A visitor sees
 * every place the value reaches and every property read of it, and is told where it leaves what the tool
 * can follow and where it is shown as it is (`JSON.stringify`, `console.log`).
 * The value's TypeScript type is carried along from what the code declares (static-type.ts).
 */
import type { Ctx } from '../context.js';
import { enclosingFunction, isFunction, isFunctionPath, keyName, lookupScope, unwrap } from '../scope.js';
import type { CallLike, N, P, t } from '../ast.js';
import { unhandled } from '../exhaustive.js';
import { isResolved, labelOf, resolveExpr } from '../values.js';
import type { ResponseStyle } from '../clients/model.js';
import { outcomeAt } from './guards.js';
import { ANY, annotationOf, awaited, elementOf, frameBindings, memberOf, nonNull, OPAQUE, promiseOf, returnTypeOf, syntheticObject, typeOf, type StaticType } from './static-type.js';
import { callersOf, isIdentifierPath, isTransparentParent, parentOf, propertyName, referenceCount, referencesOf, returnedExpressions, writesOf } from './tree.js';

type Member = t.MemberExpression | t.OptionalMemberExpression;
type Call = t.CallExpression | t.OptionalCallExpression;

export type Kind =
  /** fetch's Response, axios' response object, a ky or got response (promise) */
  | 'response'
  /** `await res.text()` */
  | 'text'
  /** the parsed body as the server sends it (for a list operation: the v2 envelope) */
  | 'json'
  /** the array of a list response (after unwrapping) */
  | 'list'
  /** one object of a response: a pod, an endpoint, a billing record */
  | 'item'
  /** what axios rejects with: `err.response.data` is the error body */
  | 'axios-error';

export interface Value {
  kind: Kind;
  /** A promise of the value (a fetch call, `res.json()`, an async function's result). */
  promise: boolean;
  /** How the client hands back its response (model.ts); `typed` and `unknown` responses are not followed. */
  client: FollowedStyle;
  /** Part of an error response (`res.json()` in a `!res.ok` branch, `err.response.data`). */
  error?: boolean;
  /** Why an error body might not come from this request alone (a catch around several calls). */
  doubt?: string;
  /** Its TypeScript type where it is, as declared along the way (absent: not followed). */
  type?: StaticType;
  /** For a fetch-like response: the type its client's `.json()` gives where the code declares none (absent: `any`). */
  parsedBody?: StaticType;
  /**
   * What the code puts in its place when the request fails otherwise (a `.catch` callback's result,
   * the other side of `||`, `??` or `?:`, another value given to its variable): a read of the value
   * may get one of these instead.
   */
  fallbacks?: readonly P[];
  /**
   * The response a body was parsed from where the code had not tested it yet (`res` of
   * `const body = await res.json(); if (!res.ok) throw …`): where a test says it failed, the body is an error body.
   */
  parsedFrom?: P<t.Identifier>;
  /** Keys a copy of an item sets itself (`{ ...pod, portMappings: … }`): reading them reads the code's value. */
  own?: readonly string[];
}

/** Is the value an error body at `p`: parsed from a failed response, or read where a test says its response failed? */
export function isErrorAt(p: P, v: Value): boolean {
  if (v.error) return true;
  const from = v.parsedFrom;
  if (!from) return false;
  const name = from.value.name;
  return outcomeAt(p, name) === 'error' && lookupScope(p, name) === lookupScope(from, name);
}

/** The value, which may also be any of `others` where it is now. */
function orElse(v: Value, others: readonly P[]): Value {
  return others.length ? { ...v, fallbacks: [...(v.fallbacks ?? []), ...others] } : v;
}

export type FollowedStyle = Exclude<ResponseStyle, 'typed' | 'unknown'>;

/**
 * What a request call evaluates to: a promise of the response, or (ofetch) of the parsed body itself.
 * `body` types the parsed body where the client lets the call declare it (axios' `data`, ofetch's
 * result); a Response (fetch, ky, got) is opaque until it is parsed, then `parsedBody` (else `any`).
 */
export function requestValue(style: FollowedStyle, body: StaticType = ANY, parsedBody?: StaticType): Value {
  const type = style === 'axios' ? syntheticObject({ data: body }) : style === 'body' ? body : OPAQUE;
  return { kind: style === 'body' ? 'json' : 'response', promise: true, client: style, type: promiseOf(type), ...(parsedBody ? { parsedBody } : {}) };
}

/** Clients whose request promise has `.json()` / `.text()` of its own (`await ky.get(url).json()`). */
const BODY_ON_PROMISE: ReadonlySet<FollowedStyle> = new Set(['ky', 'got']);

export interface ReturnTarget {
  /** Where the function's result goes; null: it is dropped (array callbacks). */
  call: P<CallLike> | null;
  /** A `.then` callback: the result is a promise of what it returns. */
  then: boolean;
  /** A `.map` callback: an item it returns is one element of the list the call yields. */
  each?: boolean;
}

export interface Walk {
  /** Frames of the request's call chain: returns from those functions go to the frame's call. */
  readonly ctx: Ctx;
  /** Functions the walk entered (callbacks, helpers), and where their results go. */
  readonly returnTo: ReadonlyMap<N, ReturnTarget>;
  /** Functions whose code is shared with other callers: nothing in them is specific to this request. */
  readonly shared: ReadonlySet<N>;
  readonly depth: number;
}

/** A property read: a member expression, or the property of a destructuring pattern. */
export type Read = P<Member> | P<t.ObjectProperty>;

export interface Visitor {
  /** The value is at `p` (an expression, or an ObjectProperty of a destructuring pattern). True: stop here. */
  at?(p: P, v: Value, w: Walk): boolean | void;
  /**
   * A property read of the value: `p` is the MemberExpression (or the ObjectProperty of a pattern), `call`
   * the call when the property is called. Returns the value the read yields, if it is worth following.
   */
  member?(p: Read, name: string | null, v: Value, w: Walk, call: P | null): Value | null | void;
  /** `Array.isArray(value)`. */
  arrayCheck?(p: P, v: Value, w: Walk): void;
  /** The value leaves what the tool can follow. */
  escape?(p: P, v: Value, why: string, w: Walk): void;
  /** The value is shown as it is: turned into JSON text or printed. Whoever reads that sees its shape. */
  shown?(p: P, v: Value, why: string, w: Walk): void;
  /**
   * The code declares the value's type here (an annotation, a cast, a function's declared return
   * type, `useState<T>`): `v.type` is that type, so it describes what the request hands back.
   */
  declared?(v: Value, w: Walk): void;
}

const MAX_DEPTH = 40;

const HARMLESS_CALLS = new Set(['String', 'Boolean', 'Number', 'Object.keys', 'Object.entries', 'Object.values']);

/** Array methods whose callback receives items, and what the call yields. */
const ARRAY_CALLBACKS: Readonly<Record<string, { params: Array<'item' | 'list' | null>; yields: 'list' | 'item' | null }>> = {
  map: { params: ['item', null, 'list'], yields: null },
  forEach: { params: ['item', null, 'list'], yields: null },
  flatMap: { params: ['item', null, 'list'], yields: null },
  filter: { params: ['item', null, 'list'], yields: 'list' },
  find: { params: ['item', null, 'list'], yields: 'item' },
  findLast: { params: ['item', null, 'list'], yields: 'item' },
  findIndex: { params: ['item', null, 'list'], yields: null },
  findLastIndex: { params: ['item', null, 'list'], yields: null },
  some: { params: ['item', null, 'list'], yields: null },
  every: { params: ['item', null, 'list'], yields: null },
  sort: { params: ['item', 'item'], yields: 'list' },
  toSorted: { params: ['item', 'item'], yields: 'list' },
  reduce: { params: [null, 'item', null, 'list'], yields: null },
  reduceRight: { params: [null, 'item', null, 'list'], yields: null },
};
const ARRAY_YIELDS: Readonly<Record<string, 'list' | 'item'>> = { slice: 'list', reverse: 'list', toReversed: 'list', concat: 'list', at: 'item', pop: 'item', shift: 'item' };

export const deeper = (w: Walk): Walk => ({ ...w, depth: w.depth + 1 });

/** `a.b.c` of a callee, for matching well-known functions. */
function dottedName(n: N): string | null {
  if (n.type === 'Identifier') return n.name;
  if ((n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') && !n.computed) {
    const obj = dottedName(n.object);
    return obj && n.property.type === 'Identifier' ? `${obj}.${n.property.name}` : null;
  }
  return null;
}

/**
 * `setPods` from `const [pods, setPods] = useState(…)` (or `React.useState`): the state variable's
 * declaration, so a value handed to the setter can be followed to the component's reads of the state.
 */
export function stateVariableOf(callee: P): P | null {
  const n = unwrap(callee).value;
  if (n.type !== 'Identifier') return null;
  const scope = lookupScope(callee, n.name);
  const decl: P | undefined = scope?.declaration(n.name);
  const pattern = decl && parentOf(decl);
  if (!pattern || pattern.value.type !== 'ArrayPattern' || pattern.value.elements[1] !== decl.value) return null;
  const declarator = parentOf(pattern);
  const init = declarator?.value.type === 'VariableDeclarator' ? declarator.value.init : null;
  const hook = init && init.type === 'CallExpression' ? dottedName(init.callee) : null;
  if (hook !== 'useState' && hook !== 'React.useState') return null;
  const state = pattern.value.elements[0];
  return state?.type === 'Identifier' ? pattern.get('elements', 0) : null;
}

/** The innermost `try { … }` whose block holds `p` (not crossing functions), with its catch parameter. */
function enclosingTry(p: P): { tryPath: P<t.TryStatement>; param: P } | null {
  let child: P = p;
  for (let q = parentOf(p); q; child = q, q = parentOf(q)) {
    const n = q.value;
    if (isFunction(n)) return null;
    if (n.type === 'TryStatement' && n.block === child.value && n.handler?.param) return { tryPath: q as P<t.TryStatement>, param: q.get('handler', 'param') };
  }
  return null;
}

/** Awaits (and promise-returning calls awaited later) in a try block, not counting nested functions. */
function awaitCount(block: N): number {
  let count = 0;
  const visit = (n: N | null): void => {
    if (!n || typeof n.type !== 'string') return;
    if (isFunction(n)) return;
    if (n.type === 'AwaitExpression') count++;
    for (const key of Object.keys(n)) {
      if (key === 'loc' || key === 'extra' || key.endsWith('Comments')) continue;
      const c = (n as unknown as Record<string, unknown>)[key] as N | Array<N | null> | null;
      if (Array.isArray(c)) c.forEach(visit);
      else if (c && typeof c.type === 'string') visit(c);
    }
  };
  visit(block);
  return count;
}

/** Holders a value leaves the function through whole, wherever it sits in them: why it cannot be followed. */
const ESCAPES: ReadonlyMap<string, string> = new Map([
  ['ArrayExpression', 'it is put in an array'],
  ['ThrowStatement', 'it is thrown'],
  ['YieldExpression', 'it is yielded'],
  ['JSXExpressionContainer', 'it is handed to a component'],
  ['JSXSpreadAttribute', 'it is handed to a component'],
  ['ExportDefaultDeclaration', 'it is exported'],
]);

export class Tracer {
  private readonly seen = new Set<string>();

  constructor(private readonly visitor: Visitor) {}

  /** The value `v` is the value of expression `p`: see where it goes. */
  follow(p: P, v: Value, w: Walk): void {
    const n = p.value;
    if (w.depth > MAX_DEPTH) {
      this.visitor.escape?.(p, v, 'it passes through too many steps', w);
      return;
    }
    const key = `${n.start}:${n.end}:${n.type}:${v.kind}:${v.promise}:${!!v.error}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.visitor.at?.(p, v, w)) return;
    const parent = parentOf(p);
    if (!parent) return;
    const pn = parent.value;
    if (isTransparentParent(pn, n)) {
      const next = { ...v, type: castType(parent, v.type, w.ctx) };
      if (next.type && castAnnotation(pn)) this.visitor.declared?.(next, w);
      return this.follow(parent, next, w);
    }
    switch (pn.type) {
      case 'AwaitExpression':
        if (v.promise) this.awaited(parent, v, w);
        return this.follow(parent, { ...v, promise: false, type: v.type && awaited(v.type) }, w);
      case 'ConditionalExpression':
        if (pn.test !== n) {
          const other = pn.consequent === n ? 'alternate' : 'consequent';
          this.follow(parent, orElse({ ...v, type: joined(v.type, pn[other]) }, [parent.get(other)]), w);
        }
        return;
      case 'LogicalExpression':
        // `a && x` is x or a falsy a, which has no fields either way: only `||` and `??` put another value in.
        if (pn.operator !== '&&') this.follow(parent, orElse({ ...v, type: joined(v.type, pn.left === n ? pn.right : pn.left) }, [parent.get(pn.left === n ? 'right' : 'left')]), w);
        else if (pn.right === n) this.follow(parent, { ...v, type: joined(v.type, pn.left) }, w);
        return;
      case 'SequenceExpression':
        if (pn.expressions[pn.expressions.length - 1] === n) this.follow(parent, v, w);
        return;
      case 'MemberExpression':
      case 'OptionalMemberExpression':
        if (pn.object === n) this.member(parent as P<Member>, v, w);
        return;
      case 'CallExpression':
      case 'OptionalCallExpression':
        if (pn.callee !== n) this.argument(parent as P<Call>, (pn.arguments as N[]).indexOf(n), p, v, w);
        return;
      case 'NewExpression':
        if (pn.callee !== n) this.visitor.escape?.(p, v, `it is passed to new ${labelOf(parent.get('callee'))}(…)`, w);
        return;
      case 'VariableDeclarator':
        if (pn.init === n) this.bind(parent.get('id'), this.storedIn(parent.get('id'), v, n), w);
        return;
      case 'AssignmentExpression':
        if (pn.right === n) this.assigned(parent as P<t.AssignmentExpression>, p, v, w);
        return;
      case 'ReturnStatement':
        return this.returned(p, enclosingFunction(p), v, w);
      case 'ArrowFunctionExpression':
        if (pn.body === n) this.returned(p, parent as P<t.ArrowFunctionExpression>, v, w);
        return;
      case 'ForOfStatement':
        if (pn.right === n && v.kind === 'list' && !v.promise && !pn.await) this.bindLoopTarget(parent.get('left'), { ...v, kind: 'item', type: v.type && elementOf(v.type) }, w);
        return;
      case 'SpreadElement': {
        const holder = parentOf(parent);
        if (holder?.value.type === 'ArrayExpression' && v.kind === 'list' && !v.promise) this.follow(holder, { ...v, type: v.type && { kind: 'array', element: elementOf(v.type) } }, deeper(w));
        // `{ ...pod, portMappings: … }`: a copy of the item, but for the keys the code sets after the spread.
        if (holder && isObjectExpressionPath(holder) && v.kind === 'item' && !v.promise) {
          const own = keysSetAfter(holder.value, pn);
          if (own) this.follow(holder, { ...v, own: [...(v.own ?? []), ...own] }, deeper(w));
        }
        return;
      }
      case 'ObjectProperty':
        if (pn.value === n) this.visitor.escape?.(p, v, 'it is stored in an object', w);
        return;
      default: {
        // Tests, comparisons, template literals, unused expression statements: nothing flows on.
        const why = ESCAPES.get(pn.type);
        if (why) this.visitor.escape?.(p, v, why, w);
      }
    }
  }

  /** Bind the value to a pattern (a variable, a destructuring, a parameter) and follow its reads. */
  bind(pattern: P, v0: Value, w: Walk): void {
    const n = pattern.value;
    const declared = annotationOf(pattern);
    const v = declared && v0.type ? { ...v0, type: typeOf(declared, pattern, frameBindings(pattern, w.ctx)) } : v0;
    if (v !== v0) this.visitor.declared?.(v, w);
    switch (n.type) {
      case 'Identifier':
        for (const ref of referencesOf(pattern)) this.follow(ref, v, deeper(w));
        return;
      case 'AssignmentPattern':
        return this.bind(pattern.get('left'), v, w);
      case 'TSParameterProperty':
        return this.bind(pattern.get('parameter'), v, w);
      case 'ObjectPattern':
        n.properties.forEach((prop, i) => {
          if (prop.type !== 'ObjectProperty') return;
          const pp = pattern.get('properties', i) as P<t.ObjectProperty>;
          const next = this.read(pp, keyName(prop.key, prop.computed), v, w, null);
          if (!next || this.visitor.at?.(pp, next, w)) return;
          this.bind(pp.get('value'), next, deeper(w));
        });
        return;
      case 'ArrayPattern':
        if (v.kind !== 'list' || v.promise) return;
        n.elements.forEach((el, i) => {
          if (el && el.type !== 'RestElement') this.bind(pattern.get('elements', i), { ...v, kind: 'item', type: v.type && elementOf(v.type) }, deeper(w));
        });
        return;
      default:
        this.visitor.escape?.(pattern, v, 'it is stored where the tool cannot follow it', w);
    }
  }

  /** The value handed to a state setter: the state variable holds it, typed by `useState<T>(…)`, else by what syntax cannot see. */
  private toState(state: P, v0: Value, w: Walk): void {
    const arg = stateTypeArgument(state);
    const v = v0.type ? { ...v0, type: arg ? typeOf(arg, state) : OPAQUE } : v0;
    if (v0.type && arg) this.visitor.declared?.(v, w);
    this.bind(state, v, deeper(w));
  }

  private bindLoopTarget(left: P, v: Value, w: Walk): void {
    if (left.value.type === 'VariableDeclaration') this.bind(left.get('declarations', 0, 'id'), v, w);
    else if (isIdentifierPath(left)) this.bindExisting(left, v, w, null);
  }

  /** `x = value` (`from`: the value's expression) for a variable declared elsewhere: follow its reads. */
  private bindExisting(id: P<t.Identifier>, v: Value, w: Walk, from: N | null): void {
    const scope = lookupScope(id, id.value.name);
    const decl: P | undefined = scope?.declaration(id.value.name);
    if (decl) this.bind(decl, this.storedIn(decl, v, from), w);
  }

  /** The value as a variable declared at `decl` holds it: also whatever else the code puts in it. */
  private storedIn(decl: P, v: Value, from: N | null): Value {
    return isIdentifierPath(decl) ? orElse(v, writesOf(decl).filter((x) => x.value !== from)) : v;
  }

  private assigned(assign: P<t.AssignmentExpression>, p: P, v: Value, w: Walk): void {
    const left = assign.value.left;
    if (assign.value.operator !== '=') return;
    const target = assign.get('left');
    if (isIdentifierPath(target)) return this.bindExisting(target, v, deeper(w), assign.value.right);
    if (left.type === 'ObjectPattern' || left.type === 'ArrayPattern') return this.bind(assign.get('left'), v, deeper(w));
    this.visitor.escape?.(p, v, 'it is stored in a property', w);
  }

  /** A property read of the value (member expression `mp`). */
  private member(mp: P<Member>, v: Value, w: Walk): void {
    const m = mp.value;
    const cp = parentOf(mp);
    const call = cp && (cp.value.type === 'CallExpression' || cp.value.type === 'OptionalCallExpression') && cp.value.callee === m ? (cp as P<Call>) : null;
    const name = propertyName(m);
    if (v.promise) {
      if (!call) return;
      if (name === 'then') return this.then(call, v, w);
      if (v.kind === 'response' && BODY_ON_PROMISE.has(v.client) && (name === 'json' || name === 'text')) return this.follow(call, { kind: name, promise: true, client: v.client }, deeper(w));
      if (name === 'catch') {
        if (!call.value.arguments.length) return this.follow(call, v, deeper(w));
        this.rejection(call.get('arguments', 0), v, w);
        return this.follow(call, orElse(v, resultsOf(call.get('arguments', 0))), deeper(w));
      }
      if (name === 'finally') return this.follow(call, v, deeper(w));
      return;
    }
    const typed = (kind: Kind): Value => ({ ...v, kind, type: v.type && (kind === 'item' ? elementOf(v.type) : v.type) });
    if (v.kind === 'list' && call && name) {
      // Own keys only: the code can call pods.hasOwnProperty(id) or pods.constructor.
      const cb = Object.hasOwn(ARRAY_CALLBACKS, name) ? ARRAY_CALLBACKS[name] : undefined;
      if (cb) {
        if (call.value.arguments.length) {
          const values = cb.params.map((k) => (k ? typed(k) : null));
          this.callback(call.get('arguments', 0), values, name === 'map' ? { call, then: false, each: true } : { call: null, then: false }, w);
        }
        if (cb.yields) this.follow(call, typed(cb.yields), deeper(w));
        return;
      }
      const yields = Object.hasOwn(ARRAY_YIELDS, name) ? ARRAY_YIELDS[name] : undefined;
      if (yields) return this.follow(call, typed(yields), deeper(w));
    }
    if (v.kind === 'list' && !call && m.computed && !(m.property.type === 'StringLiteral')) return this.follow(mp, typed('item'), deeper(w));
    const next = this.read(mp, name, v, w, call);
    if (next) this.follow(call && next.promise ? call : mp, next, deeper(w));
  }

  /** What reading property `name` of the value yields (shared by member reads and destructuring). */
  private read(p: Read, name: string | null, v: Value, w: Walk, call: P<Call> | null): Value | null {
    const next = this.readKind(p, name, v, w, call);
    // Where the visitor hands back a value, it is `x.name`: typed as the declaration of x's type says.
    return next && v.type && !next.type ? { ...next, type: memberOf(v.type, name) } : next;
  }

  private readKind(p: Read, name: string | null, v: Value, w: Walk, call: P<Call> | null): Value | null {
    if (v.promise) return null;
    switch (v.kind) {
      case 'response':
        // ky answers a fetch Response; what got's `.body` holds depends on its options, so it is not followed.
        if (v.client === 'got') {
          if (name === 'body' && !call) this.visitor.escape?.(p, v, "it is read as got's .body, a string unless the request sets responseType: 'json'", w);
          return null;
        }
        if (v.client === 'fetch' || v.client === 'ky') {
          if (!call) return null;
          const target = p.value.type === 'MemberExpression' || p.value.type === 'OptionalMemberExpression' ? unwrap(p.get('object')) : null;
          const failed = v.error || (target?.value.type === 'Identifier' && outcomeAt(call, target.value.name) === 'error');
          const untested = !failed && target && isIdentifierPath(target) ? { parsedFrom: target } : {};
          // Response.json() is Promise<any> in the DOM's types; node-fetch 3 and undici say Promise<unknown> (parsedBody).
          if (name === 'json') return { kind: 'json', promise: true, client: v.client, ...(failed ? { error: true } : untested), ...(v.type ? { type: v.parsedBody ?? ANY } : {}) };
          if (name === 'text') return { kind: 'text', promise: true, client: v.client, ...(failed ? { error: true } : {}), ...(v.type ? { type: OPAQUE } : {}) };
          if (name === 'clone') return v;
          return null;
        }
        if (name === 'data' && !call) return { kind: 'json', promise: false, client: 'axios', ...(v.error ? { error: true } : {}), ...(v.doubt ? { doubt: v.doubt } : {}) };
        return null;
      case 'axios-error':
        if (name === 'response' && !call) return { kind: 'response', promise: false, client: 'axios', error: true, ...(v.doubt ? { doubt: v.doubt } : {}) };
        return null;
      case 'text':
        return null;
      case 'item':
        // A key a copy sets itself holds the code's value, not RunPod's.
        if (name !== null && v.own?.includes(name)) return null;
        return this.visitor.member?.(p, name, v, w, call) ?? null;
      case 'json':
      case 'list':
        return this.visitor.member?.(p, name, v, w, call) ?? null;
      default:
        return unhandled(v.kind);
    }
  }

  /** `promise.then(onFulfilled, onRejected)`. */
  private then(call: P<Call>, v: Value, w: Walk): void {
    const args = call.value.arguments;
    if (!args.length) return this.follow(call, v, deeper(w));
    if (args[1]) this.rejection(call.get('arguments', 1), v, w);
    this.callback(call.get('arguments', 0), [{ ...v, promise: false, type: v.type && awaited(v.type) }], { call, then: true }, w);
  }

  /** A rejection handler: for axios it receives the axios error. */
  private rejection(handler: P, v: Value, w: Walk): void {
    if (v.client !== 'axios' || v.error) return;
    this.callback(handler, [{ kind: 'axios-error', promise: false, client: 'axios', error: true }], { call: null, then: false }, w);
  }

  /** An awaited axios promise inside `try`: the catch parameter is the axios error. */
  private awaited(awaitPath: P, v: Value, w: Walk): void {
    if (v.client !== 'axios' || v.error) return;
    const t = enclosingTry(awaitPath);
    if (!t) return;
    const count = awaitCount(t.tryPath.value.block);
    const doubt = count > 1 ? `its try block awaits ${count} things, so the error may come from another call` : undefined;
    this.bind(t.param, { kind: 'axios-error', promise: false, client: 'axios', error: true, ...(doubt ? { doubt } : {}) }, deeper(w));
  }

  /** Call a callback with `values` as its arguments; its result goes to `target`. */
  private callback(cbPath: P, given: Array<Value | null>, target: ReturnTarget, w: Walk): void {
    let values = given;
    const cb = unwrap(cbPath);
    let fn: P<t.Function> | null = null;
    let shared = false;
    if (isFunctionPath(cb)) fn = cb;
    else {
      const state = stateVariableOf(cb);
      if (state) {
        if (values[0]) this.toState(state, values[0], w);
        return;
      }
      const r = resolveExpr(cb, w.ctx);
      if (isResolved(r) && isFunctionPath(r.path)) {
        fn = r.path;
        shared = referenceCount(fn) > 1;
        // Only an inline callback takes its parameters' types from the call; a named one has its own.
        values = values.map((val) => val && untypedParam(val));
      }
    }
    if (!fn) {
      const first = values[0];
      if (first) this.visitor.escape?.(cbPath, first, `it is passed to ${labelOf(cbPath)}, which the tool cannot follow`, w);
      return;
    }
    this.enter(fn, values, target, shared, w);
  }

  private enter(fn: P<t.Function>, values: Array<Value | null>, target: ReturnTarget, shared: boolean, w: Walk): void {
    const returnTo = new Map(w.returnTo).set(fn.value, target);
    const sharedSet = shared ? new Set(w.shared).add(fn.value) : w.shared;
    const inner: Walk = { ...w, returnTo, shared: sharedSet, depth: w.depth + 1 };
    values.forEach((val, i) => {
      if (val && fn.value.params[i] && fn.value.params[i]!.type !== 'RestElement') this.bind(fn.get('params', i), val, inner);
    });
  }

  /** The value is argument `index` of `call`. */
  private argument(callPath: P<Call>, index: number, argPath: P, v: Value, w: Walk): void {
    const call = callPath.value;
    const name = dottedName(call.callee);
    if (name === 'Array.isArray') return this.visitor.arrayCheck?.(argPath, v, w);
    if (name === 'JSON.parse' && v.kind === 'text' && !v.promise && index === 0) return this.follow(callPath, { ...v, kind: 'json', ...(v.type ? { type: ANY } : {}) }, deeper(w));
    // A deep copy reads like the value itself.
    if (name === 'structuredClone' && index === 0) return this.follow(callPath, v, deeper(w));
    if (name === 'JSON.stringify') return index === 0 ? this.visitor.shown?.(argPath, v, 'it is turned into JSON text by JSON.stringify(…)', w) : undefined;
    if (name?.startsWith('console.')) return this.visitor.shown?.(argPath, v, `it is printed by ${name}(…)`, w);
    if (name && HARMLESS_CALLS.has(name)) return;
    const calleePath = callPath.get('callee');
    const state = stateVariableOf(calleePath);
    if (state) return index === 0 ? this.toState(state, v, w) : undefined;
    const r = resolveExpr(calleePath, w.ctx);
    if (isResolved(r) && isFunctionPath(r.path) && index >= 0) {
      const fn = r.path;
      const param = fn.value.params[index];
      if (param && param.type !== 'RestElement') {
        const inline = unwrap(calleePath).value === fn.value;
        const arg = inline ? v : untypedParam(v);
        const values: Array<Value | null> = fn.value.params.map((_p, i) => (i === index ? arg : null));
        return this.enter(fn, values, { call: callPath, then: false }, !inline && referenceCount(fn) > 1, w);
      }
    }
    this.visitor.escape?.(argPath, v, `it is passed to ${labelOf(calleePath)}(…), which the tool cannot follow`, w);
  }

  /** The value is returned from `fn`. */
  private returned(p: P, fn: P<t.Function> | null, v: Value, w: Walk): void {
    if (!fn) return this.visitor.escape?.(p, v, 'it is returned from the module', w);
    const async = !!fn.value.async;
    // What the call evaluates to: the function's declared return type, else what it returns.
    const at = (call: P<CallLike> | null, then = false): StaticType | undefined => {
      const t = v.type && returnTypeOf(fn, v.type, call);
      if (t && fn.value.returnType) this.visitor.declared?.({ ...v, type: t }, w);
      return t && then ? promiseOf(awaited(t)) : t;
    };
    const target = w.returnTo.get(fn.value);
    if (target?.each) {
      // `pods.map((p) => normalize(p))`: the items it hands back make up the list `.map` yields.
      if (target.call && v.kind === 'item' && !v.promise && !async) this.follow(target.call, { ...v, kind: 'list', type: v.type && { kind: 'array', element: v.type } }, deeper(w));
      return;
    }
    if (target) {
      if (target.call) this.follow(target.call, { ...v, promise: target.then || async || v.promise, type: at(target.then ? null : target.call, target.then) }, deeper(w));
      return;
    }
    const frame = w.ctx.get(fn.value);
    if (frame) {
      if (frame.call.value.type !== 'NewExpression') this.follow(frame.call, { ...v, promise: async || v.promise, type: at(frame.call) }, deeper(w));
      return;
    }
    if (fn.value.generator) return this.visitor.escape?.(p, v, 'it is yielded by a generator', w);
    const callers = callersOf(fn);
    if (!callers.length) {
      at(null); // no call to type, but the declared return type still describes the value
      return this.visitor.escape?.(p, v, `it is returned from ${functionLabel(fn)}, which nothing in this run calls`, w);
    }
    for (const c of callers) this.follow(c, { ...v, promise: async || v.promise, type: at(c) }, deeper(w));
  }
}

const isObjectExpressionPath = (p: P): p is P<t.ObjectExpression> => p.value.type === 'ObjectExpression';

/** The keys an object literal sets after `spread` (null when one is computed: the tool cannot tell which). */
function keysSetAfter(obj: t.ObjectExpression, spread: N): string[] | null {
  const out: string[] = [];
  for (const prop of obj.properties.slice(obj.properties.findIndex((p) => p === spread) + 1)) {
    if (prop.type === 'SpreadElement') return null;
    const key = keyName(prop.key, prop.computed);
    if (key === null) return null;
    out.push(key);
  }
  return out;
}

/**
 * What a callback hands back: the expressions an inline function returns (none when it only throws),
 * or the callback itself when it is defined elsewhere (what it returns is not looked into).
 */
function resultsOf(cb: P): P[] {
  const fn = unwrap(cb);
  return isFunctionPath(fn) ? returnedExpressions(fn) : [cb];
}

/** The `T` of the `useState<T>(…)` call that declares a state variable, if it is written. */
function stateTypeArgument(state: P): N | undefined {
  // `const [x, setX] = useState<T>(…)`: the declarator's init is the call.
  const call = (parentOf(parentOf(state)!)?.value as t.VariableDeclarator | undefined)?.init as t.CallExpression | null | undefined;
  return (call?.typeParameters ?? call?.typeArguments)?.params?.[0];
}

/** A value handed to a parameter that is not typed by its call: `any` unless the parameter declares a type. */
function untypedParam(v: Value): Value {
  return v.type ? { ...v, type: ANY } : v;
}

/** The type `x as T` / `<T>x` casts to (not `as const`, which keeps the type). */
function castAnnotation(n: N): N | null {
  if (n.type !== 'TSAsExpression' && n.type !== 'TSTypeAssertion') return null;
  const ann = n.typeAnnotation;
  const asConst = ann?.type === 'TSTypeReference' && ann.typeName.type === 'Identifier' && ann.typeName.name === 'const';
  return asConst ? null : ann;
}

/** The type of `x as T` / `<T>x` / `x!` / `(x)` from the type of x. */
function castType(parent: P, t: StaticType | undefined, ctx: Ctx): StaticType | undefined {
  const n = parent.value;
  if (!t) return t;
  if (n.type === 'TSNonNullExpression') return nonNull(t);
  const ann = castAnnotation(n);
  return ann ? typeOf(ann, parent, frameBindings(parent, ctx)) : t;
}

const EMPTY_FALLBACK = new Set<string>(['NullLiteral', 'ArrayExpression', 'ObjectExpression'] satisfies Array<N['type']>);

/**
 * `x ?? []`, `c ? x : null`: the type of the whole, from x's and what the other side is. Another side
 * that adds no members (null, undefined, an empty literal) keeps x's type; anything else is a union
 * syntax cannot settle, unless x is `any` (which absorbs it).
 */
function joined(t: StaticType | undefined, other: N): StaticType | undefined {
  if (!t || t.kind === 'any') return t;
  const o = other.type === 'TSAsExpression' || other.type === 'ParenthesizedExpression' ? other.expression : other;
  const literal = o as { elements?: unknown[]; properties?: unknown[] }; // an array or object literal when tested
  const empty = (o.type === 'Identifier' && o.name === 'undefined') || (EMPTY_FALLBACK.has(o.type) && !(literal.elements ?? literal.properties ?? []).length);
  return empty ? t : OPAQUE;
}

/** `listPods()` / `an inline function` for messages. */
export function functionLabel(fn: P<t.Function>): string {
  const n = fn.value;
  const id = (n as { id?: t.Identifier | null }).id;
  if (id?.name) return `${id.name}()`;
  if ('key' in n && n.key) {
    const k = keyName(n.key, n.computed);
    if (k) return `${k}()`;
  }
  const parent = parentOf(fn);
  if (parent?.value.type === 'VariableDeclarator' && parent.value.id.type === 'Identifier') return `${parent.value.id.name}()`;
  if ((parent?.value.type === 'ObjectProperty' || parent?.value.type === 'ClassProperty') && parent.value.value === n) {
    const k = keyName(parent.value.key, parent.value.computed);
    if (k) return `${k}()`;
  }
  return 'an inline function';
}
