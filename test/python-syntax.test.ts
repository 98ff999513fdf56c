/**
 * The Python scanner reads tree-sitter-python (src/text/python/syntax.ts): tokens in order with
 * f-string fields and escapes, `def` / `class` with their parameters, assignments, calls with their
 * callee and arguments, imports; each text is parsed once, the well-formedness check included.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import * as grammars from '../src/text/grammars.js';
import { pythonSyntax, type Tok } from '../src/text/python/syntax.js';
import { buildModule } from '../src/text/python/model.js';
import { scanText } from '../src/text/index.js';

const BASES = { legacy: ['https://rest.runpod.io/v1'], target: 'https://api.runpod.io/v2' };

beforeAll(() => grammars.loadGrammars(['python']));

const SOURCE = [
  '@app.get("/x")',
  'async def fetch(self, pod, timeout=30, *args, retries: int = 2, **kw):',
  '    return requests.Session().get(f"{BASE}/pods/{pod}", json={"a": [1, 2]}, *args, **kw)',
  'class Client(Base):',
  '    root = url = "https://rest.runpod.io/v1"',
  '    def stop(self, pid): self.last: str = x[0].post(pid, data=None)',
  'with open(p) as fh, httpx.Client(base_url=B) as c:',
  '    pass',
  'from .cfg import (A as B, C)',
  'import a.b as ab, d',
  '',
].join('\n');

const text = (toks: readonly Tok[], a: number, b: number): string => toks.slice(a, b).map((t) => t.value).join(' ');

describe('Python syntax from tree-sitter-python', () => {
  it('reads definitions with their parameters and defaults', () => {
    const s = pythonSyntax(SOURCE);
    expect(s.definitions.map((d) => ({ kind: d.kind, name: d.name, keyword: s.toks[d.headerTok]!.value, params: d.params.map((p) => `${p.star ?? ''}${p.name}${p.def ? `=${text(s.toks, ...p.def)}` : ''}`) }))).toEqual([
      { kind: 'def', name: 'fetch', keyword: 'def', params: ['self', 'pod', 'timeout=30', '*args', 'retries=2', '**kw'] },
      { kind: 'class', name: 'Client', keyword: 'class', params: [] },
      { kind: 'def', name: 'stop', keyword: 'def', params: ['self', 'pid'] },
    ]);
  });

  it('reads assignments: chains, annotations, attributes and with … as', () => {
    const s = pythonSyntax(SOURCE);
    expect(s.assignments.map((a) => [a.name, text(s.toks, a.a, a.b)])).toEqual([
      ['root', '"https://rest.runpod.io/v1"'],
      ['url', '"https://rest.runpod.io/v1"'],
      ['self.last', 'x [ 0 ] . post ( pid , data = None )'],
      ['fh', 'open ( p )'],
      ['c', 'httpx . Client ( base_url = B )'],
    ]);
  });

  it('reads calls with their callee chain and arguments, not those inside f-string fields', () => {
    const s = pythonSyntax(SOURCE);
    expect(s.calls.map((c) => ({ callee: c.callee, receiver: c.receiver, first: s.toks[c.calleeTok]!.value, args: c.args.map((a) => `${a.kind}${a.name ? ` ${a.name}` : ''}: ${text(s.toks, a.a, a.b)}`) }))).toEqual([
      { callee: 'app.get', receiver: 'app', first: 'app', args: ['pos: "/x"'] },
      { callee: 'requests.Session().get', receiver: 'requests.Session()', first: 'requests', args: ['pos: f"{BASE}/pods/{pod}"', 'kw json: { "a" : [ 1 , 2 ] }', 'star: args', 'dstar: kw'] },
      { callee: 'requests.Session', receiver: 'requests', first: 'requests', args: [] },
      { callee: 'post', receiver: '', first: 'post', args: ['pos: pid', 'kw data: None'] },
      { callee: 'open', receiver: '', first: 'open', args: ['pos: p'] },
      { callee: 'httpx.Client', receiver: 'httpx', first: 'httpx', args: ['kw base_url: B'] },
    ]);
    const fstring = s.toks.find((t) => t.type === 'string' && t.str?.f);
    expect(fstring?.str?.fields.map((f) => f.toks.map((t) => t.value))).toEqual([['BASE'], ['pod']]);
  });

  it('reads imports', () => {
    expect(pythonSyntax(SOURCE).imports).toEqual([
      { local: 'B', module: '.cfg', name: 'A' },
      { local: 'C', module: '.cfg', name: 'C' },
      { local: 'ab', module: 'a.b', name: null },
      { local: 'd', module: 'd', name: null },
    ]);
  });

  it('nests scopes as the grammar does and marks logical lines', () => {
    const m = buildModule(SOURCE);
    expect(m.scopes.map((s) => `${s.kind} ${s.name} in ${s.parent?.name ?? '-'}`)).toEqual(['module <module> in -', 'def fetch in <module>', 'class Client in <module>', 'def stop in Client']);
    expect(m.lines).toHaveLength(10);
    expect(m.assignsByName.get('self.last')?.[0]?.scope.name).toBe('stop');
  });

  it('reads escapes from the grammar and counts syntax errors', () => {
    const s = pythonSyntax('a = "x\\ty" r"\\d"\nb = (1,\n');
    expect(s.toks.filter((t) => t.type === 'string').map((t) => t.str?.escapes)).toEqual([[[6, 8]], []]);
    expect(s.errors).toBeGreaterThan(0);
    expect(pythonSyntax('a = 1\n').errors).toBe(0);
  });

  it('gives each of several assignments on one line its own value', () => {
    // The hand tokenizer took the line's last value for its first target: BASE read as the docs URL.
    const r = scanText('BASE = "https://rest.runpod.io/v1"; DOCS = "https://docs.runpod.io"\nrequests.post(f"{BASE}/pods/{pid}/stop")\n', 'a.py', BASES);
    expect(r.output).toBe('BASE = "https://api.runpod.io/v2"; DOCS = "https://docs.runpod.io"\nrequests.post(f"{BASE}/pods/{pid}/action", json={"action": "stop"})\n');
    expect(r.findings.map((f) => `${f.line}:${f.column} ${f.ruleId}`)).toEqual(['1:8 base-url', '2:1 pod-action']);
  });

  it('parses a file once for its scan and the check of its rewrite', () => {
    const parse = vi.spyOn(grammars, 'parseWith');
    const source = 'import requests\nrequests.get("https://rest.runpod.io/v1/pods")  # once\n';
    expect(scanText(source, 'once.py', BASES).output).toContain('https://api.runpod.io/v2/pods');
    expect(parse.mock.calls.map(([grammar, parsed]) => [grammar, parsed === source])).toEqual([
      ['python', true],
      ['python', false],
    ]);
    parse.mockRestore();
  });
});
