/**
 * Text-engine fixtures: `fixtures/text/<lang>/<case>.<ext>` (any file the text engine handles, dotfiles
 * such as `.env.example` included), with
 * - `<file>.findings.json`: the expected findings, in order, as `{ ruleId, severity, line, column,
 *   fixable }` plus an optional `message` substring;
 * - `<file>.output` (optional): the migrated text; absent = the file must stay unchanged.
 * Every case is scanned a second time on its own result: that must change nothing and leave nothing fixable.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../src/findings.js';
import { RULES } from '../src/rules/registry.js';
import { isTextEngineFile, loadGrammars, scanText } from '../src/text/index.js';
import { applyFixEdits, fixEdits } from '../src/fixes.js';
import { pythonSyntax } from '../src/text/python/syntax.js';
import { listFiles } from './helpers.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const FIXTURES = path.join(ROOT, 'fixtures', 'text');
const BASES = { legacy: ['https://rest.runpod.io/v1'], target: 'https://api.runpod.io/v2' };

interface ExpectedFinding {
  ruleId: string;
  severity: string;
  line: number;
  column: number;
  fixable: boolean;
  message?: string;
}


beforeAll(() => loadGrammars(['bash', 'hcl', 'python', 'toml']));

const inputs = listFiles(FIXTURES).filter((f) => !f.endsWith('.findings.json') && !f.endsWith('.output'));

function comparable(actual: readonly Finding[], expected: readonly ExpectedFinding[]): ExpectedFinding[] {
  return actual.map((f, i) => {
    const want = expected[i]?.message;
    const base = { ruleId: f.ruleId, severity: f.severity, line: f.line, column: f.column, fixable: f.fixable };
    if (want === undefined) return base;
    return { ...base, message: f.message.includes(want) ? want : f.message };
  });
}

describe('text engine fixtures', () => {
  it('are present and each is a text-engine file with expected findings', () => {
    expect(inputs.length).toBeGreaterThan(20);
    for (const f of inputs) {
      expect(isTextEngineFile(f), `${f} is not a text-engine file`).toBe(true);
      expect(existsSync(`${f}.findings.json`), `${f}.findings.json is missing`).toBe(true);
    }
  });

  for (const file of inputs) {
    const rel = path.relative(ROOT, file).split(path.sep).join('/');
    it(rel, () => {
      const input = readFileSync(file, 'utf8');
      const expected = JSON.parse(readFileSync(`${file}.findings.json`, 'utf8')) as ExpectedFinding[];
      const wantOutput = existsSync(`${file}.output`) ? readFileSync(`${file}.output`, 'utf8') : null;
      const result = scanText(input, rel, BASES);
      expect(comparable(result.findings, expected)).toEqual(expected);
      expect(result.output).toBe(wantOutput);
      // Every edit is some finding's fix (ESLint and --rule make them one by one).
      if (result.output !== null) {
        expect(applyFixEdits(input, fixEdits(result.findings)), "the findings' fixes are the whole change").toBe(result.output);
        expect(result.findings.filter((f) => f.fixable && !f.fix).map((f) => `${f.line}:${f.column} ${f.ruleId}`), 'every fixable finding carries its fix').toEqual([]);
      }
      for (const f of result.findings) {
        expect(f.severity, `${f.ruleId}: severity comes from the registry`).toBe(RULES[f.ruleId].severity);
        if (f.fixable) expect(result.output, `${f.ruleId} at ${f.line}:${f.column} is fixable but nothing changed`).not.toBeNull();
      }
      // Idempotence: the migrated text changes no further and has nothing left to fix.
      const again = scanText(result.output ?? input, rel, BASES);
      expect(again.output).toBeNull();
      expect(again.findings.filter((f) => f.fixable)).toEqual([]);
    });
  }
});

describe('text engine API', () => {
  it('recognises files by name', () => {
    for (const f of ['a.py', 'x/run.sh', 'b.bash', 'c.zsh', 'Dockerfile', 'Dockerfile.gpu', 'worker.Dockerfile', 'README.md', 'doc.mdx', 'k8s.yaml', 'ci.yml', 'openapi.json', 'pyproject.toml', '.env', '.env.example', 'prod.env', 'api.http', 'api.rest', 'main.tf', 'prod.tfvars']) {
      expect(isTextEngineFile(f), f).toBe(true);
    }
    for (const f of ['a.ts', 'b.js', 'c.txt', 'Makefile', 'image.png', '.envrc']) expect(isTextEngineFile(f), f).toBe(false);
  });

  it('leaves unrelated and non-text files alone', () => {
    expect(scanText('print("hello")\n', 'a.py', BASES)).toEqual({ findings: [], output: null });
    expect(scanText('https://rest.runpod.io/v1\n', 'notes.txt', BASES)).toEqual({ findings: [], output: null });
  });

  it('reads Python strings from the grammar: prefixes, triple quotes, f-strings with nested braces and quotes', () => {
    const src = `a = rb"x\\y" + f"{b['k']}/{ {1: 2}[1] }" + """q "r" s""" # c "d"\nx = 1\n`;
    const toks = pythonSyntax(src).toks;
    const strings = toks.filter((t) => t.type === 'string');
    expect(strings.map((t) => t.value)).toEqual([`rb"x\\y"`, `f"{b['k']}/{ {1: 2}[1] }"`, `"""q "r" s"""`]);
    expect(strings[1]!.str!.fields.map((f) => src.slice(f.exprStart, f.exprEnd))).toEqual(["b['k']", '{1: 2}[1]']);
    expect(strings[1]!.str!.fields[0]!.toks.map((t) => t.value)).toEqual(['b', '[', "'k'", ']']);
    expect(toks.filter((t) => t.type === 'newline')).toHaveLength(2);
  });

  it('reads TOML with its grammar: a value in a multi-line array belongs to its key', () => {
    const r = scanText('RUNPOD_URLS = [\n  "https://rest.runpod.io/v1/pods",  # "https://rest.runpod.io/v1"\n]\n[tool.x]\n"quoted.key" = \'https://rest.runpod.io/v1\'\n', 'pyproject.toml', BASES);
    expect(r.output).toBe('RUNPOD_URLS = [\n  "https://api.runpod.io/v2/pods",  # "https://rest.runpod.io/v1"\n]\n[tool.x]\n"quoted.key" = \'https://api.runpod.io/v2\'\n');
    expect(r.findings.map((f) => `${f.line}:${f.column} ${f.ruleId} ${/Deployments may still set (\S+)/.exec(f.message)?.[1] ?? '-'}`)).toEqual(['2:3 base-url RUNPOD_URLS', '5:16 base-url -']);
  });

  it('reads what a Dockerfile runs from dockerfile-ast: ONBUILD RUN, HEALTHCHECK options, RUN flags', () => {
    const text = 'FROM python:3.12\nENV API=https://rest.runpod.io/v1\nONBUILD RUN curl -fsS -X POST "$API/pods/$POD/stop"\nHEALTHCHECK --interval=30s CMD curl -fsS "$API/pods/$POD"\nRUN --mount=type=secret,id=k curl -fsS "$API/templates" -o t.json\n';
    const r = scanText(text, 'Dockerfile', BASES);
    expect(r.output).toBe(text.replace('rest.runpod.io/v1', 'api.runpod.io/v2').replace('"$API/pods/$POD/stop"', `"$API/pods/$POD/action" -H 'Content-Type: application/json' -d '{"action":"stop"}'`));
    expect(r.findings.map((f) => `${f.line}:${f.column} ${f.ruleId} ${f.fixable}`)).toEqual(['2:9 base-url true', '3:13 pod-action true']);
  });

  it('keeps CRLF in shell and .http insertions', () => {
    const sh = scanText('API=https://rest.runpod.io/v1\r\ncurl -X POST "$API/pods/$ID/stop"\r\n', 'a.sh', BASES);
    expect(sh.output).toBe(`API=https://api.runpod.io/v2\r\ncurl -X POST "$API/pods/$ID/action" -H 'Content-Type: application/json' -d '{"action":"stop"}'\r\n`);
    const http = scanText('POST https://rest.runpod.io/v1/pods/p1/stop\r\nAuthorization: Bearer x\r\n\r\n###\r\n', 'a.http', BASES);
    expect(http.output).toBe('POST https://api.runpod.io/v2/pods/p1/action\r\nAuthorization: Bearer x\r\nContent-Type: application/json\r\n\r\n{"action":"stop"}\r\n\r\n###\r\n');
  });

  it('never rewrites an action URL whose request is not visible', () => {
    const r = scanText('STOP_URL = "https://rest.runpod.io/v1/pods/abc/stop"\n', 'a.py', BASES);
    expect(r.output).toBeNull();
    expect(r.findings.map((f) => [f.ruleId, f.fixable])).toEqual([['pod-action', false]]);
  });

  it('keeps CRLF line endings and every other byte', () => {
    const input = 'import requests\r\nBASE = "https://rest.runpod.io/v1"\r\nrequests.get(f"{BASE}/endpoints")\r\n';
    const r = scanText(input, 'a.py', BASES);
    expect(r.output).toBe('import requests\r\nBASE = "https://api.runpod.io/v2"\r\nrequests.get(f"{BASE}/serverless")\r\n');
  });

  it('honours a configured proxy base and target', () => {
    const r = scanText('API=https://proxy.internal/runpod/v1\n', '.env', { legacy: ['https://rest.runpod.io/v1', 'https://proxy.internal/runpod/v1'], target: 'https://api.runpod.io/v2' });
    expect(r.output).toBe('API=https://api.runpod.io/v2\n');
  });

  it('scans a 5 MB Markdown file quickly', () => {
    const chunk = [
      '## Pods',
      '',
      'List them with https://rest.runpod.io/v1/pods or read the guide.',
      '',
      '```bash',
      'curl -s -X POST "$API/pods/$POD_ID/stop" -H "Authorization: Bearer $KEY"',
      'curl -s https://api.runpod.ai/v2/$ENDPOINT/runsync -d \'{"input":{}}\'',
      '```',
      '',
      'Some prose about GPUs, data centers and billing that mentions nothing to migrate at all. '.repeat(8),
      '',
    ].join('\n');
    const text = `API=https://rest.runpod.io/v1\n\n${chunk.repeat(Math.ceil(5_000_000 / chunk.length))}`;
    const t0 = performance.now();
    const r = scanText(text, 'big.md', BASES);
    const ms = performance.now() - t0;
    expect(r.findings.length).toBeGreaterThan(1000);
    expect(ms).toBeLessThan(20_000);
  }, 60_000);
});
