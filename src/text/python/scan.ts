/**
 * Python: requests / httpx / sessions / aiohttp / urllib calls with URLs resolved through constants,
 * f-strings, `+`, `.format`, env defaults and wrappers in the same file; dict bodies with v1 fields;
 * v1 response fields and bare-array list reads; helper-built paths; leftover v1 URLs in literals;
 * GraphQL operations (inventory).
 */
import type { HttpMethod } from '../../map/operations.js';
import { PATH_TEMPLATES, isParam, templatesCompatible } from '../../map/match.js';
import { V1_RESOURCES } from '../../map/match.js';
import { templateOf } from '../../url/plan.js';
import type { QueryParam } from '../fields.js';
import { flatText, isCompleteUrl, planRequest, planValue, shapeFor, textPiece, type Collector, type EditsOrReason, type TPiece } from '../plan.js';
import { checkLooseBodyField, checkQueryParam, checkResponseField, isListOp, mentionsGraphql, scanGraphql } from '../fields.js';
import { clientFilter, paramEntries } from './query.js';
import { IGNORED_QUERY_PARAMS } from '../../map/responses.js';
import { bodyDict, bodySource, checkDict, literalValue, NOT_LITERAL, ownedBy, reportUnseenBody, sourceText } from './bodies.js';
import { rebuildDict } from './rebuild.js';
import { bindArgs, callersOf, envLookup, evalRange, makeCtx, type Ctx } from './eval.js';
import { buildModule, fnOf, returnStarts, splitTop, type Arg, type Assign, type Call, type Module, type Scope, type Tok } from './model.js';
import { parsePoints, planList } from './lists.js';
import { planResponseReads } from './responses.js';
import { reportModelFields } from './models.js';
import { lastStartingBy } from '../../util/lines.js';
import { pushTo } from '../../util/multimap.js';
import { BASE_KEYWORDS, BODY_KEYWORDS, HTTP_MODULES, isClientConstructor, ownShapeCall } from './clients/index.js';
import { isOp } from './syntax.js';
import { argOf, type HttpCall, type Kind } from './clients/types.js';

const METHOD_MEMBERS: Record<string, HttpMethod> = { get: 'GET', post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE' };
const HTTP_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const CLIENTISH = /(?:^|[._])(?:session|sess|client|http|s|api)$/i;
/** Names of the v1 list filters v2 ignores (any list): candidates for a client-side filter. */
const LIST_FILTERS = new Set(Object.values(IGNORED_QUERY_PARAMS).flatMap((list) => list.map((p) => p.param)));
/** Methods of a client object that send no request. */
const CLIENT_LIFECYCLE = new Set(['close', 'aclose', '__enter__', '__exit__', '__aenter__', '__aexit__']);

/** The assignment a receiver (`s`, `self.session`) gets its value from, as a call's callee and args. */
function receiverCtor(m: Module, recv: string, scope: Scope, at: number): { callee: string; args: Arg[]; scope: Scope } | null {
  let as: Assign | undefined;
  if (recv.startsWith('self.')) as = m.assignsByName.get(recv)?.[0];
  else {
    // The nearest enclosing scope that assigns the name: its last assignment before the call, else its first.
    for (let s: Scope | null = scope; s && !as; s = s.parent) {
      const list = s.assigns.get(recv) ?? [];
      as = list.filter((x) => x.at < at).pop() ?? list[0];
    }
  }
  if (!as) return null;
  const call = m.callByCalleeTok.get(as.a);
  if (!call || call.close !== as.b - 1) return null;
  return factoryCtor(m, call) ?? { callee: call.callee, args: call.args, scope: as.scope };
}

/**
 * `client_for(settings)` where `client_for` is a function of this module that returns a client it
 * constructs (`return httpx.Client(base_url=…)`) on every path: that constructor call, in its function.
 */
function factoryCtor(m: Module, call: Call): { callee: string; args: Arg[]; scope: Scope } | null {
  if (isClientConstructor(call.callee)) return null;
  const defs = (m.defsByName.get(call.callee) ?? []).filter((d) => d.kind === 'def');
  const fn = defs.length === 1 ? defs[0] : undefined;
  const returns = fn ? returnStarts(m, fn) : [];
  const ctors = returns.map((i) => m.callByCalleeTok.get(i + 1)).filter((c): c is Call => !!c && isClientConstructor(c.callee) && m.toks[c.close + 1]?.type === 'newline');
  const first = ctors[0];
  return fn && first && ctors.length === returns.length ? { callee: first.callee, args: first.args, scope: fn } : null;
}

function httpCallOf(m: Module, call: Call): HttpCall | null {
  const member = call.member;
  const own = ownShapeCall(m, call);
  if (own) return own;
  // Own keys only (`in` would take requests.constructor(…) for a method).
  if (!Object.hasOwn(METHOD_MEMBERS, member) && member !== 'request') return null;
  const recv = call.receiver;
  if (!recv) return null;
  let kind: Kind;
  let base: HttpCall['base'];
  if (HTTP_MODULES.has(recv)) kind = 'module';
  else {
    const ctor = receiverCtor(m, recv.replace(/\(\)$/, ''), call.scope, m.toks[call.calleeTok]!.start);
    const direct = recv.endsWith('()') ? recv.slice(0, -2) : null;
    if ((ctor && isClientConstructor(ctor.callee)) || (direct && isClientConstructor(direct))) {
      kind = 'client';
      const b = ctor?.args.find((a) => a.kind === 'kw' && BASE_KEYWORDS.has(a.name ?? ''));
      if (b && ctor) base = { toks: m.toks, a: b.a, b: b.b, scope: ctor.scope };
    } else kind = 'guess';
  }
  const url = member === 'request' ? argOf(call, 1, 'url') : argOf(call, 0, 'url');
  if (!url) return null;
  const methodArg = member === 'request' ? argOf(call, 0, 'method') : undefined;
  const body = call.args.find((a) => a.kind === 'kw' && BODY_KEYWORDS.includes(a.name!)) ?? (member === 'request' ? undefined : member !== 'get' && member !== 'delete' ? call.args.filter((a) => a.kind === 'pos')[1] : undefined);
  return {
    call,
    kind,
    url,
    ...(member === 'request' ? (methodArg ? { methodArg } : {}) : { memberMethod: METHOD_MEMBERS[member]! }),
    ...(body ? { body } : {}),
    ...(base ? { base } : {}),
  };
}

interface Evaluated {
  url: TPiece[];
  methodPieces: TPiece[] | null;
  method: HttpMethod | undefined;
}

function evaluate(m: Module, site: HttpCall, ctx: Ctx): Evaluated {
  let url = evalRange(m.toks, site.url.a, site.url.b, ctx);
  if (site.base) {
    const first = url[0];
    const absolute = first?.kind === 'text' && /^[a-z][a-z0-9+.-]*:\/\//i.test(first.text);
    if (!absolute) {
      const base = evalRange(site.base.toks, site.base.a, site.base.b, makeCtx(m, site.base.scope));
      // httpx joins `base_url` and a relative path with one slash; the slash is not written anywhere.
      const slash = first?.kind === 'text' && first.text.startsWith('/') ? [] : [textPiece('/', first?.origin.start ?? 0, { editable: false, literal: -1 })];
      url = [...base, ...slash, ...url];
    }
  }
  let methodPieces: TPiece[] | null = null;
  let method: HttpMethod | undefined = site.memberMethod;
  if (site.methodArg) {
    methodPieces = evalRange(m.toks, site.methodArg.a, site.methodArg.b, ctx);
    const only = methodPieces.length === 1 && methodPieces[0]!.kind === 'text' ? methodPieces[0].text.toUpperCase() : null;
    method = only && HTTP_METHODS.has(only) ? (only as HttpMethod) : undefined;
  }
  return { url, methodPieces, method };
}

/** Contexts for a request reached through a chain of wrapper calls (innermost caller first). */
function instanceCtx(m: Module, site: HttpCall, chain: readonly Call[]): { ctx: Ctx; outer: Ctx } {
  const outerScope = chain.length ? chain[chain.length - 1]!.scope : site.call.scope;
  let ctx = makeCtx(m, outerScope);
  const outer = ctx;
  for (let k = chain.length - 1; k >= 0; k--) {
    const call = chain[k]!;
    const innerScope = k === 0 ? site.call.scope : chain[k - 1]!.scope;
    const innerFn = fnOf(innerScope);
    const env = bindArgs(innerFn, call.args, m.toks, call.receiver !== '', ctx);
    ctx = { m, scope: innerScope, fn: innerFn, env, used: new Set(), depth: 0 };
  }
  return { ctx, outer };
}

const unboundHole = (pieces: readonly TPiece[] | null): boolean => !!pieces?.some((p) => p.kind === 'hole' && p.unboundParam);

function quoteOf(m: Module): string {
  let d = 0;
  let s = 0;
  for (const t of m.toks) if (t.type === 'string') t.str!.quote[0] === '"' ? d++ : s++;
  return s > d ? "'" : '"';
}

/** What the project knows about a module's imports (text/project.ts). */
export interface PythonLinks {
  /** Names imported from other modules (`NAME`, `alias.NAME`) → their values there. */
  imports?: ReadonlyMap<string, TPiece[]>;
  /** The module imports from one that talks to RunPod REST: its v1 response reads are reported. */
  readsRunpod?: boolean;
}

/** A request as the scanner read it: its method, its URL (holes as HOLE), and its body when it is a dict literal. */
export interface ReadRequest {
  method: HttpMethod | undefined;
  url: string;
  /** The body's JSON value; fields whose value is not a literal hold NOT_LITERAL (bodies.ts). */
  body?: unknown;
}

export function scanPython(c: Collector, text: string, links: PythonLinks = {}, read?: ReadRequest[]): void {
  const m = buildModule(text);
  if (links.imports) m.foreign = links.imports;
  const quote = quoteOf(m);
  const sites = m.calls.map((call) => httpCallOf(m, call)).filter((s): s is HttpCall => !!s);
  const handledCalls = new Set<Call>(sites.map((s) => s.call));
  const covered = new Set<number>();
  // Field strings read on a provable response (planned with their request): the likely-read pass skips them.
  const provable = new Set<number>();
  for (const site of sites) expand(c, m, site, [], quote, covered, provable, read);
  helperPaths(c, m, handledCalls);
  literalPass(c, m, covered);
  holdUncoveredBases(c, m, covered, handledCalls);
  // GraphQL documents: every string in a file that names the GraphQL endpoint, or any string that reads
  // like a document (`mutation { … }`, `query Name(…) { … }`) when the endpoint is configured elsewhere.
  const graphqlFile = mentionsGraphql(text);
  for (const t of m.toks) {
    if (t.type !== 'string') continue;
    const body = text.slice(t.str!.bodyStart, t.str!.bodyEnd);
    if (graphqlFile || /\b(query|mutation)\b[^{}"']*\{/.test(body)) scanGraphql(c, text, t.str!.bodyStart, t.str!.bodyEnd);
  }
  if ((c.talksRest || links.readsRunpod) && !mentionsGraphql(text)) responseReads(c, m, provable);
  // Models of v1 responses, in a file that talks to RunPod REST or imports a module that does.
  if (c.talksRest || c.looksRest || links.readsRunpod) reportModelFields(c, m);
}

/** Plan one request (through each caller of the wrappers it is in); `read` collects the requests as read. */
function expand(c: Collector, m: Module, site: HttpCall, chain: Call[], quote: string, covered: Set<number>, provable: Set<number>, read?: ReadRequest[]): void {
  const { ctx, outer } = instanceCtx(m, site, chain);
  // The names the URL reads: a base constant is only safe to move if requests read every use of it.
  const reads = new Set<number>();
  m.recorder = reads;
  const ev = evaluate(m, site, ctx);
  m.recorder = null;
  // A client object (`client = httpx.Client(base_url=…)`) is read through its receiver.
  if (site.kind === 'client' || site.base) reads.add(m.toks[site.call.calleeTok]!.start);
  const bodyPieces = site.body ? evalRange(m.toks, site.body.a, site.body.b, ctx) : null;
  const shape = shapeFor(ev.url, c.bases);
  const segments = shape.segments.map((s) => s.text);
  const needsMore =
    (unboundHole(ev.url) && (shape.base === 'unknown' || (shape.base !== 'other' && shape.base !== 'job' && segments.includes(null) && !templateOf(shape) && templatesCompatible(segments).length > 0))) ||
    (ev.method === undefined && unboundHole(ev.methodPieces)) ||
    (!!site.body && unboundHole(bodyPieces) && site.kind !== 'guess');
  if (needsMore && outer.used.size && chain.length < 3) {
    const callers = callersOf(m, outer.fn);
    if (callers.length) {
      for (const caller of callers) expand(c, m, site, [...chain, caller], quote, covered, provable, read);
      return;
    }
  }
  // A call on an unknown receiver is a request only if its URL is visibly RunPod's.
  if (site.kind === 'guess' && !(shape.base === 'legacy' || shape.base === 'target' || (shape.base === 'unknown' && CLIENTISH.test(site.call.receiver)))) return;
  // Through a wrapper the request is reported at its outermost caller, unless the request inside the
  // wrapper is marked (a v1 branch kept on purpose): then there, where the marker covers it.
  const anchor = chain.length && !c.requestMarked(m.toks[site.call.calleeTok]!.start) ? chain[chain.length - 1]! : site.call;
  const ranges = (chain.length ? chain : [site.call]).map((call) => [m.toks[call.calleeTok]!.start, m.toks[call.close]!.end] as const);
  const local = (p: TPiece): TPiece => (p.kind === 'text' && ranges.some(([s, e]) => p.origin.start >= s && p.origin.start < e) ? { ...p, origin: { ...p.origin, local: true } } : p);
  const url = ev.url.map(local);
  // `params={"desiredStatus": "RUNNING"}`: query parameters of the request.
  // Keyword arguments of the outermost caller that reach the request through `**kwargs` at every level.
  const forwarded = forwardedKwargs(m, site, chain);
  const kwarg = (names: readonly string[]): Arg | undefined => (chain.length ? forwarded : site.call)?.args.find((x) => x.kind === 'kw' && names.includes(x.name ?? ''));
  const argCtx = chain.length ? outer : ctx;
  const params = kwarg(['params']);
  const pdict = params ? bodyDict(m, m.toks, params.a, params.b, argCtx) : null;
  const query: QueryParam[] = [];
  if (pdict && isOp(pdict.toks[pdict.a], '{')) {
    for (const [x] of splitTop(pdict.toks, pdict.a + 1, pdict.b - 1)) {
      const key = pdict.toks[x];
      if (key?.type !== 'string' || key.str!.f || !isOp(pdict.toks[x + 1], ':')) continue;
      const name = m.text.slice(key.str!.bodyStart, key.str!.bodyEnd);
      query.push({ name, at: key.str!.bodyStart, editable: !name.includes('\\') });
    }
  }
  // List filters v2 ignores, written in the call's own params dict: filtered on the client where the list
  // is unwrapped (lists.ts), so planned after the request, not reported with it.
  const entries = !chain.length && params ? paramEntries(m, site.call, params) : null;
  const filterable = new Set(entries?.filter((e) => LIST_FILTERS.has(e.name)).map((e) => e.name) ?? []);
  const outcome = planRequest(c, {
    // `requests` / `httpx` called as a module; a session or client object; urllib; a client-ish receiver.
    client: site.kind === 'module' ? site.call.receiver : site.kind === 'client' ? 'session' : site.kind === 'urllib' ? 'urllib' : 'unknown',
    url,
    query: query.filter((q) => !filterable.has(q.name)),
    anchor: m.toks[anchor.calleeTok]!.start,
    method: ev.method,
    setMethod: (to) => setMethod(m, site, chain, ev, to, ranges),
    setJsonBody: (body) => (forwarded ? (bodyKwarg(forwarded, outer) ? 'the call already sends a body' : insertArg(m, forwarded, `json=${dictText(body, quote)}`)) : setJsonBody(m, site, chain, ctx, body, quote)),
    pinV1Base: () => (chain.length ? 'its URL is built inside a helper other requests share' : pinFieldBase(m.text, url)),
  });
  if (outcome.shape.base === 'legacy' || outcome.shape.base === 'target') for (const r of reads) covered.add(r);
  if (read) {
    const sent = site.body ? { arg: site.body, ctx } : forwarded ? bodyKwarg(forwarded, outer) : undefined;
    const source = sent ? bodySource(m, m.toks, sent.arg.a, sent.arg.b, sent.ctx) : undefined;
    const body = source?.kind === 'dict' ? literalValue(m, source.dict.toks, source.dict.a, source.dict.b) : source ? NOT_LITERAL : undefined;
    read.push({ method: ev.method, url: flatText(url), ...(body !== undefined ? { body } : {}) });
  }
  if (!outcome.op) return;
  const body = site.body ? { arg: site.body, ctx } : forwarded ? bodyKwarg(forwarded, outer) : undefined;
  if (body && outcome.shape.base === 'legacy') {
    const source = bodySource(m, m.toks, body.arg.a, body.arg.b, body.ctx);
    // Reported at the body when the request's own call writes it, else at the request.
    const own = chain.length ? (forwarded ?? chain[chain.length - 1]) : site.call;
    const written = !!own && body.arg.a > own.open && body.arg.b <= own.close;
    const at = (written ? m.toks[body.arg.a] : m.toks[anchor.calleeTok])?.start ?? 0;
    if (source.kind === 'dict') {
      const { dict } = source;
      // The literal written in this request's own call, or in a name only that call reads (not inside a wrapper others call).
      const atCall = !!own && ownedBy(m, dict, own);
      if (!atCall || !rebuildDict(c, m, dict, outcome)) checkDict(c, m, dict, outcome, atCall);
      for (const [x, y] of splitTop(dict.toks, dict.a + 1, dict.b - 1)) {
        if (isOp(dict.toks[x], '**')) reportUnseenBody(c, outcome.op, dict.toks[x]?.start ?? at, sourceText(m, dict.toks, x, y), true);
      }
    } else reportUnseenBody(c, outcome.op, at, sourceText(m, m.toks, body.arg.a, body.arg.b));
  } else if (body) {
    const dict = bodyDict(m, m.toks, body.arg.a, body.arg.b, body.ctx);
    if (dict) checkDict(c, m, dict, outcome, false);
  }
  // `self._rest("POST", "/pods", **spec)`: the keyword arguments, so the body, are not visible.
  const spread = forwarded?.args.find((x) => x.kind === 'dstar');
  if (spread && !body && outcome.shape.base === 'legacy') reportUnseenBody(c, outcome.op, m.toks[spread.a]?.start ?? 0, `**${sourceText(m, m.toks, spread.a, spread.b)}`);
  const onRest = outcome.shape.base === 'legacy' || outcome.shape.base === 'target';
  // What answers: the call itself, or the one that sends the request it built (`urlopen(req)`).
  const answer = site.response ?? site.call;
  const points = !chain.length && onRest ? parsePoints(m, answer) : 'unwrapped';
  if (points !== 'unwrapped') for (const at of planResponseReads(c, m, answer, outcome.op, outcome.request, points.map((p) => p.first))) provable.add(at);
  const filter = entries && params && onRest && filterable.size === entries.length ? clientFilter(m, outcome.op, params, entries) : null;
  const listed = isListOp(outcome.op) && onRest ? planList(c, m, { call: answer, chain, op: outcome.op, request: outcome.request, quote, filter }) : { filtered: false };
  if (!listed.filtered && onRest) for (const q of query.filter((x) => filterable.has(x.name))) checkQueryParam(c, outcome.op, q.name, q.at, q.editable);
}

/**
 * The outermost caller of a wrapper chain whose keyword arguments reach the request unchanged: each call
 * on the way passes `**kw`, the `**` parameter of the function it is written in, and names no body of its
 * own (`self._rest("POST", path, json=body)` over `client.request(method, url, **kwargs)`).
 */
function forwardedKwargs(m: Module, site: HttpCall, chain: readonly Call[]): Call | undefined {
  const outermost = chain[chain.length - 1];
  if (!outermost || site.kind === 'urllib') return undefined;
  const passes = (call: Call): boolean => {
    const fn = fnOf(call.scope);
    const star = fn.params.find((p) => p.star === '**');
    if (!star || fn.params.some((p) => !p.star && (BODY_KEYWORDS.includes(p.name) || p.name === 'params'))) return false;
    const spreads = call.args.some((x) => x.kind === 'dstar' && x.b === x.a + 1 && m.toks[x.a]?.value === star.name);
    return spreads && !call.args.some((x) => x.kind === 'kw' && (BODY_KEYWORDS.includes(x.name ?? '') || x.name === 'params'));
  };
  return [site.call, ...chain.slice(0, -1)].every(passes) ? outermost : undefined;
}

/** The body keyword argument (`json=`, `data=`, …) a call passes, with the context it is evaluated in. */
function bodyKwarg(call: Call, ctx: Ctx): { arg: Arg; ctx: Ctx } | undefined {
  const arg = call.args.find((x) => x.kind === 'kw' && BODY_KEYWORDS.includes(x.name ?? ''));
  return arg ? { arg, ctx } : undefined;
}

function setMethod(m: Module, site: HttpCall, chain: readonly Call[], ev: Evaluated, to: HttpMethod, ranges: ReadonlyArray<readonly [number, number]>): EditsOrReason {
  if (site.memberMethod && site.kind !== 'urllib' && !site.methodArg) {
    if (chain.length) return 'the method is fixed inside a wrapper other requests share';
    const t = m.toks[site.call.memberTok]!;
    return [{ start: t.start, end: t.end, text: to.toLowerCase() }];
  }
  const p = ev.methodPieces;
  if (!p || p.length !== 1 || p[0]!.kind !== 'text' || !p[0].origin.editable) return 'its method is not a literal the tool can see';
  const piece = p[0];
  if (!ranges.some(([s, e]) => piece.origin.start >= s && piece.origin.start < e)) return 'its method literal is shared with other requests';
  const replacement = piece.text === piece.text.toLowerCase() ? to.toLowerCase() : to;
  return [{ start: piece.origin.start, end: piece.origin.start + piece.text.length, text: replacement }];
}

function dictText(body: Readonly<Record<string, string>>, q: string): string {
  return `{${Object.entries(body).map(([k, v]) => `${q}${k}${q}: ${q}${v}${q}`).join(', ')}}`;
}

function insertArg(m: Module, call: Call, text: string): EditsOrReason {
  if (call.args.some((a) => a.kind === 'star' || a.kind === 'dstar')) return 'the call passes *args/**kwargs';
  const last = call.args[call.args.length - 1];
  if (!last) return 'the call has no arguments';
  const at = m.toks[last.b - 1]!.end;
  return [{ start: at, end: at, text: `, ${text}` }];
}

function setJsonBody(m: Module, site: HttpCall, chain: readonly Call[], ctx: Ctx, body: Readonly<Record<string, string>>, q: string): EditsOrReason {
  if (!chain.length) {
    if (site.kind === 'urllib') return 'urllib needs the body encoded by hand';
    const b = site.body;
    const first = b ? m.toks[b.a] : undefined;
    const next = b ? m.toks[b.a + 1] : undefined;
    // `json={}`: an empty body written at the call is replaced.
    if (b && b.kind === 'kw' && b.name === 'json' && b.b === b.a + 2 && first && next && isOp(first, '{') && isOp(next, '}')) {
      return [{ start: first.start, end: next.end, text: dictText(body, q) }];
    }
    if (b) return 'the call already sends a body';
    return insertArg(m, site.call, `json=${dictText(body, q)}`);
  }
  // Through a wrapper: the body is the wrapper's parameter (`json=body`, `data=json.dumps(body).encode()`)
  // and the caller did not pass it: the caller passes it now.
  const b = site.body;
  const caller = chain[0];
  if (chain.length !== 1 || !b || !caller) return 'the body is built inside a wrapper the tool cannot follow';
  const source = bodySource(m, m.toks, b.a, b.b, ctx);
  if (source.kind !== 'param') return source.kind === 'dict' ? 'the call already sends a body' : 'the body is built inside a wrapper the tool cannot follow';
  const binding = source.ctx.env?.get(source.name);
  if (binding !== 'missing') return binding ? 'the call already sends a body' : 'the body is built inside a wrapper the tool cannot follow';
  // Encoded by the wrapper itself (`data=json.dumps(body)`): JSON only if the wrapper says so.
  if (!(b.kind === 'kw' && b.name === 'json') && !sendsJsonType(m)) return 'the wrapper does not send Content-Type: application/json';
  return insertArg(m, caller, `${source.name}=${dictText(body, q)}`);
}

/** The file's code names the JSON content type (a header the wrapper sends, or a constant it reads). */
function sendsJsonType(m: Module): boolean {
  return m.toks.some((t) => t.type === 'string' && /application\/json/i.test(m.text.slice(t.start, t.end)));
}

/** `_url("pods", pod_id, "stop")`: a path assembled by a helper the tool cannot follow. */
function helperPaths(c: Collector, m: Module, handled: ReadonlySet<Call>): void {
  const importsV1 = [...m.foreign.values()].some((v) => c.bases.legacy.some((b) => flatText(v).includes(b)));
  const anywhere = c.talksRest || importsV1 || c.bases.legacy.some((b) => m.text.includes(b));
  // With no v1 base in sight (it is in a settings file), only a helper whose result an HTTP call sends to.
  const sent = (call: Call): boolean => [...handled].some((h) => h.open < call.calleeTok && call.close < h.close);
  for (const call of m.calls) {
    if (handled.has(call) || call.args.length < 1 || call.args.some((a) => a.kind !== 'pos')) continue;
    if (!anywhere && !sent(call)) continue;
    const segs: Array<string | null> = [];
    let literal = false;
    for (const arg of call.args) {
      const t = m.toks[arg.a]!;
      if (arg.b === arg.a + 1 && t.type === 'string' && !t.str!.f) {
        literal = true;
        segs.push(...m.text.slice(t.str!.bodyStart, t.str!.bodyEnd).split('/').filter(Boolean));
      } else segs.push(null);
    }
    if (!literal || !segs[0] || !V1_RESOURCES.has(segs[0])) continue;
    const fits = PATH_TEMPLATES.filter((t) => fitsTemplate(segs, t.v1Segments));
    if (!fits.length) continue;
    // A module whose requests go through such a helper talks to RunPod REST: its importers read its responses.
    c.looksRest = true;
    const changes = fits.some((t) => t.operations.some((o) => o.change !== 'path') || t.v2Path !== t.v1Path.replace(/\{[^}]+\}/g, '{id}'));
    if (!changes) continue;
    const display = '/' + segs.map((s) => s ?? '{…}').join('/');
    const forms = [...new Set(fits.flatMap((t) => t.operations.map((o) => `${o.method} ${t.v1Path} → ${o.v2 ? `${o.v2.method} /v2${o.v2.path}${o.v2.body ? ` ${JSON.stringify(o.v2.body)}` : ''}` : 'no v2 equivalent'}`)))];
    c.report('unresolved-url', m.toks[call.calleeTok]!.start, `${call.callee}(…) builds the v1 path ${display} at run time, so it was not rewritten; in v2: ${forms.join('; ')}.`);
  }
}

function fitsTemplate(segs: ReadonlyArray<string | null>, t: readonly string[]): boolean {
  return segs.length === t.length && segs.every((s, i) => s === null ? isParam(t[i]!) : isParam(t[i]!) || s === t[i]);
}

/** v1 URLs in string expressions no understood request used: constants, defaults, arguments to unknown code. */
function literalPass(c: Collector, m: Module, covered: Set<number>): void {
  const toks = m.toks;
  const assigns = [...m.assignsByName.values()].flat();
  const done = new Set<number>();
  const envVars = new Map<number, string>();
  for (const call of m.calls) {
    const env = envLookup(m, toks, call.callee, call.args);
    if (env?.def && env.name) for (let i = env.def.a; i < env.def.b; i++) envVars.set(i, env.name);
  }
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (t.type !== 'string' || done.has(i)) continue;
    const [a, b] = expressionAround(toks, i);
    for (let k = a; k < b; k++) done.add(k);
    const strings = toks.slice(a, b).filter((x) => x.type === 'string');
    if (strings.every((s) => c.consumed.has(s.start))) continue;
    const raw = strings.some((s) => c.bases.legacy.some((l) => m.text.slice(s.start, s.end).includes(l))) || strings.some((s) => s.str!.f) || b - a > 1;
    if (!raw) continue;
    const ctx = makeCtx(m, m.scopeOfTok[i]!);
    const reads = new Set<number>();
    m.recorder = reads;
    let pieces = evalRange(toks, a, b, ctx);
    m.recorder = null;
    const env = envVars.get(i);
    if (env) pieces = pieces.map((p) => (p.kind === 'text' ? { ...p, origin: { ...p.origin, envVar: env } } : p));
    if (!c.bases.legacy.some((l) => flatText(pieces).includes(l))) continue;
    // Only text written in this expression is this expression's business; names it reads are planned where they are written.
    const own = pieces.some((p) => p.kind === 'text' && p.origin.literal >= toks[a]!.start && p.origin.literal < toks[b - 1]!.end && flatText([p]).length > 0);
    if (!own) continue;
    planValue(c, pieces, { anchor: toks[a]!.start, own: [toks[a]!.start, toks[b - 1]!.end] });
    // A URL this run plans as a whole is a use that moves with the base it reads.
    for (const r of reads) covered.add(r);
    // A bare base not assigned to a name (`Client(base_url="https://…/v1")`, `return "https://…/v1"`):
    // code the tool cannot see appends paths to it, so it stays until that code is migrated.
    const assigned = assigns.some((as) => as.a <= a && b <= as.b);
    if (!assigned && !isCompleteUrl(pieces, c.bases)) {
      for (const s of strings) if (c.bases.legacy.some((l) => m.text.slice(s.start, s.end).includes(l))) c.hold(s.start, c.lines.pos(s.start).line);
    }
  }
}

/** The `+` / `%` / `.format()` expression a string token is part of (token range). */
function expressionAround(toks: readonly Tok[], i: number): [number, number] {
  let a = i;
  while (toks[a - 1]?.type === 'string') a--;
  let b = i + 1;
  while (toks[b]?.type === 'string') b++;
  // `.format(…)` / `.rstrip(…)` after the strings.
  while (isOp(toks[b], '.') && toks[b + 1]?.type === 'name' && isOp(toks[b + 2], '(') && toks[b + 2]!.match! > b) b = toks[b + 2]!.match! + 1;
  // Operands joined by `+` on either side.
  for (;;) {
    if (!isOp(toks[a - 1], '+')) break;
    const start = operandStart(toks, a - 2);
    if (start < 0) break;
    a = start;
  }
  for (;;) {
    if (!isOp(toks[b], '+')) break;
    const end = operandEnd(toks, b + 1);
    if (end < 0) break;
    b = end;
  }
  return [a, b];
}

function operandStart(toks: readonly Tok[], j: number): number {
  let k = j;
  const t = toks[k];
  if (!t) return -1;
  if (t.type === 'string') {
    while (toks[k - 1]?.type === 'string') k--;
    return k;
  }
  if (isOp(t, ')') && t.match! >= 0) k = t.match! - 1;
  else if (t.type !== 'name') return -1;
  // dotted name / call chain
  while (k >= 0 && (toks[k]!.type === 'name' || (isOp(toks[k], ')') && toks[k]!.match! >= 0))) {
    if (isOp(toks[k], ')')) k = toks[k]!.match! - 1;
    if (isOp(toks[k - 1], '.')) k -= 2;
    else break;
  }
  return Math.max(k, 0);
}

function operandEnd(toks: readonly Tok[], j: number): number {
  let k = j;
  const t = toks[k];
  if (!t) return -1;
  if (t.type === 'string') {
    while (toks[k]?.type === 'string') k++;
  } else if (t.type === 'name') {
    k++;
    while (isOp(toks[k], '.') && toks[k + 1]?.type === 'name') k += 2;
  } else return -1;
  while (isOp(toks[k], '(') && toks[k]!.match! > k) k = toks[k]!.match! + 1;
  while (isOp(toks[k], '.') && toks[k + 1]?.type === 'name' && isOp(toks[k + 2], '(')) k = toks[k + 2]!.match! + 1;
  return k;
}

/** `pod["desiredStatus"]`, `p.get("costPerHr")`, `body["imageName"] = …` in a file that talks to RunPod REST. */
function responseReads(c: Collector, m: Module, provable: ReadonlySet<number>): void {
  const check = (toks: readonly Tok[]): void => {
    for (let i = 1; i < toks.length - 1; i++) {
      const t = toks[i]!;
      if (t.type !== 'string' || t.str!.f) continue;
      const field = m.text.slice(t.str!.bodyStart, t.str!.bodyEnd);
      if (!/^[A-Za-z]+$/.test(field)) continue;
      const prev = toks[i - 1]!;
      const subscript = isOp(prev, '[') && isOp(toks[i + 1], ']') && (toks[i - 2]?.type === 'name' || isOp(toks[i - 2], ')') || isOp(toks[i - 2], ']'));
      const getter = isOp(prev, '(') && toks[i - 2]?.value === 'get' && isOp(toks[i - 3], '.');
      if ((!subscript && !getter) || provable.has(t.start)) continue;
      const writes = subscript && isOp(toks[i + 2], '=');
      if (writes) {
        checkLooseBodyField(c, field, t.start);
      } else checkResponseField(c, field, t.start);
    }
  };
  check(m.toks);
  for (const t of m.toks) {
    if (t.type !== 'string' || !t.str!.f) continue;
    for (const f of t.str!.fields) check(f.toks);
  }
}

/** Name tokens of the file, those inside f-string fields included. */
function nameTokens(m: Module): Tok[] {
  const out: Tok[] = [];
  const add = (toks: readonly Tok[]): void => {
    toks.forEach((t, i) => {
      if (t.type !== 'name') return;
      const prev = toks[i - 1];
      // Not an attribute (`x.NAME`), a keyword argument (`f(NAME=…)`) or a definition (`def NAME`).
      if (prev && isOp(prev, '.')) return;
      if (isOp(toks[i + 1], '=') && prev && (isOp(prev, '(') || isOp(prev, ','))) return;
      if (prev?.type === 'name' && ['def', 'class', 'import', 'as'].includes(prev.value)) return;
      out.push(t);
    });
  };
  add(m.toks);
  for (const t of m.toks) if (t.type === 'string' && t.str!.f) for (const f of t.str!.fields) add(f.toks);
  return out;
}

/**
 * As in the JS engine, bases move with their paths: a v1 literal assigned to a name stays v1 when some
 * read of that name is not part of a request this run migrates (code the tool cannot follow would
 * otherwise send its v1 paths to the v2 host). Reads inside another assignment count through that
 * assignment's own reads. A bare base passed to code the tool does not know (`Client(base_url=…)`)
 * stays too.
 */
function holdUncoveredBases(c: Collector, m: Module, covered: ReadonlySet<number>, requests: ReadonlySet<Call>): void {
  // A URL written in a request's arguments (`r = requests.get("https://…/v1/pods")`) is not what the name holds.
  const inRequest = (t: Tok): boolean => [...requests].some((call) => m.toks[call.open]!.start < t.start && t.start < m.toks[call.close]!.start);
  const legacyIn = (t: Tok): boolean => t.type === 'string' && c.bases.legacy.some((b) => m.text.slice(t.start, t.end).includes(b)) && !inRequest(t);
  const names = nameTokens(m);
  const byName = new Map<string, Tok[]>();
  for (const t of names) pushTo(byName, t.value, t);
  const targets = new Set<number>();
  for (const list of m.assignsByName.values()) for (const as of list) targets.add(as.at);
  const assigns = [...m.assignsByName.values()].flat();
  const readsOf = (name: string): number[] => {
    if (name.startsWith('self.')) {
      const attr = name.slice(5);
      const out: number[] = [];
      m.toks.forEach((t, i) => {
        if (t.type === 'name' && t.value === attr && isOp(m.toks[i - 1], '.') && m.toks[i - 2]?.value === 'self' && !isOp(m.toks[i + 1], '=')) out.push(m.toks[i - 2]!.start);
      });
      return out;
    }
    return (byName.get(name) ?? []).filter((t) => !targets.has(t.start)).map((t) => t.start);
  };
  // A read by code that only prints (`print(f"using {BASE}")`, `logger.info(…)`) sends no request.
  const callByOpen = new Map<number, Call>(m.calls.map((call) => [call.open, call]));
  const printed = (r: number): boolean => {
    // The innermost call around the read: walk back over bracket groups to the unmatched `(`.
    const at = lastStartingBy(m.toks.length, (i) => m.toks[i]!.start, r);
    for (let i = at - 1; i >= 0; i--) {
      const t = m.toks[i]!;
      if (t.type === 'newline') return false;
      if (t.match === undefined) continue;
      if (t.match < i) {
        i = t.match;
        continue;
      }
      if (t.value !== '(') continue; // inside a list or dict: keep looking outwards
      const call = callByOpen.get(i);
      if (!call) return false;
      return call.callee === 'print' || call.callee === 'pprint' || (/log/i.test(call.receiver) && /^(debug|info|warning|warn|error|exception|critical|log)$/.test(call.member));
    }
    return false;
  };
  // Closing a client object (`await self._client.aclose()`, `with client:`) sends no request either.
  const closes = (r: number): boolean => {
    const i = lastStartingBy(m.toks.length, (k) => m.toks[k]?.start ?? 0, r);
    const after = m.toks[i]?.value === 'self' && isOp(m.toks[i + 1], '.') ? i + 2 : i;
    return isOp(m.toks[after + 1], '.') && CLIENT_LIFECYCLE.has(m.toks[after + 2]?.value ?? '') && isOp(m.toks[after + 3], '(');
  };
  const uncovered = (name: string, depth: number, seen: Set<string>): number | null => {
    if (seen.has(name)) return null;
    seen.add(name);
    for (const r of readsOf(name)) {
      if (covered.has(r) || printed(r) || closes(r)) continue;
      // A read inside another assignment's value counts through that assignment's reads.
      const outer = assigns.find((as) => as.name !== name && m.toks[as.a] && m.toks[as.a]!.start <= r && r < m.toks[as.b - 1]!.end);
      if (outer && depth < 6) {
        const u = uncovered(outer.name, depth + 1, seen);
        if (u === null) continue;
        return u;
      }
      return r;
    }
    return null;
  };
  for (const as of assigns) {
    if (as.scope.kind === 'class') continue; // class attributes are read as self.X / cls.X: not followed
    const lits = m.toks.slice(as.a, as.b).filter(legacyIn);
    if (!lits.length) continue;
    const use = uncovered(as.name, 0, new Set());
    if (use !== null) for (const t of lits) c.hold(t.start, c.lines.pos(use).line);
  }
  // Imported v1 values: every read here must be part of a request this run migrates, or the module
  // that defines them keeps them on v1.
  const importLines = new Set(m.lines.filter((l) => ['import', 'from'].includes(m.toks[l.a]?.value ?? '')).map((l) => m.toks[l.a]!.start));
  const onImportLine = (at: number): boolean => {
    const line = m.lines[m.lineOfTok[lastStartingBy(m.toks.length, (i) => m.toks[i]!.start, at)] ?? -1];
    return !!line && importLines.has(m.toks[line.a]!.start);
  };
  for (const [name, pieces] of m.foreign) {
    const lits = pieces.filter((p) => p.kind === 'text' && p.origin.foreign && c.bases.legacy.some((b) => p.text.includes(b))).map((p) => p.origin.literal);
    if (!lits.length) continue;
    const dot = name.indexOf('.');
    const reads =
      dot < 0
        ? readsOf(name).filter((r) => !onImportLine(r))
        : m.toks.flatMap((t, i) => (t.type === 'name' && t.value === name.slice(0, dot) && isOp(m.toks[i + 1], '.') && m.toks[i + 2]?.value === name.slice(dot + 1) && !isOp(m.toks[i - 1], '.') ? [t.start] : []));
    const use = reads.find((r) => !covered.has(r) && !printed(r) && !assigns.some((as) => m.toks[as.a] && m.toks[as.a]!.start <= r && r < m.toks[as.b - 1]!.end && uncovered(as.name, 1, new Set([name])) === null));
    if (use !== undefined) for (const l of new Set(lits)) c.hold(l, c.lines.pos(use).line);
  }
}
/**
 * `f"{BASE}/pods?name={n}"` → `f"https://rest.runpod.io/v1/pods?name={n}"`: the f-string field the URL starts
 * with, spelled out as the plain base text it holds (a blocked request keeps its v1 URL while the base it
 * shared moves).
 */
function pinFieldBase(text: string, url: readonly TPiece[]): EditsOrReason {
  const first = url.findIndex((p) => p.kind === 'text' && p.origin.local);
  const base = url.slice(0, first);
  const local = url[first];
  if (first <= 0 || !local || base.some((p) => p.kind !== 'text' || /[{}"'\\]/.test(p.text))) return 'its base is not a plain value read at the start of the URL';
  const field = /\{\s*[A-Za-z_][\w.]*\s*\}$/.exec(text.slice(Math.max(0, local.origin.start - 200), local.origin.start));
  const opening = local.origin.start - (field?.[0].length ?? 0);
  if (!field || !/(?:^|[^\w])(?:[rR]?[fF]|[fF][rR])["']$/.test(text.slice(Math.max(0, opening - 4), opening))) return 'its URL does not start with an f-string field that holds its base';
  return [{ start: opening, end: local.origin.start, text: flatText(base) }];
}
