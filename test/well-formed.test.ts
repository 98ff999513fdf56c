/**
 * The re-parse before a rewritten file is written (src/text/well-formed.ts): a rewrite that breaks the
 * file's structure is refused, the file is left as it was and an internal-error says so. The grammars
 * read the original once: the scan's parse is the check's.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Finding } from '../src/findings.js';
import * as grammars from '../src/text/grammars.js';
import { scanText } from '../src/text/index.js';
import { refuseBrokenRewrite, stillWellFormed } from '../src/text/well-formed.js';
import { jsonSyntax } from '../src/text/json.js';
import { dockerfileInstructions } from '../src/text/dockerfile-ast.js';

const BASES = { legacy: ['https://rest.runpod.io/v1'], target: 'https://api.runpod.io/v2' };

beforeAll(() => grammars.loadGrammars(['bash', 'python', 'toml', 'hcl']));

const fixable: Finding = { ruleId: 'base-url', severity: 'error', line: 2, column: 8, message: 'base', fixable: true };

describe('re-parse before write', () => {
  it('JSON: a rewrite may not add parse errors; a file that was already broken may stay so', () => {
    const before = '{\n  // staging\n  "api": "https://rest.runpod.io/v1",\n}\n';
    expect(stillWellFormed('json', before, before.replace('rest.runpod.io/v1', 'api.runpod.io/v2'))).toBe(true);
    expect(stillWellFormed('json', before, before.replace('v1",', 'v2,'))).toBe(false);
    const broken = '{ "api": "https://rest.runpod.io/v1" ';
    expect(stillWellFormed('json', broken, broken.replace('rest.runpod.io/v1', 'api.runpod.io/v2'))).toBe(true);
  });

  it('YAML: a rewrite may not add errors, split a scalar or turn part of it into a comment', () => {
    const before = 'jobs:\n  stop:\n    run: curl -X POST https://rest.runpod.io/v1/pods/p1/stop\n    note: see https://rest.runpod.io/v1\n';
    expect(stillWellFormed('yaml', before, before.replaceAll('rest.runpod.io/v1', 'api.runpod.io/v2'))).toBe(true);
    // `: ` inside a plain scalar starts a nested mapping (an error).
    expect(stillWellFormed('yaml', before, before.replace('/stop', "/action -H Content-Type: application/json"))).toBe(false);
    // ` #` inside a plain scalar silently cuts it: a comment appears.
    expect(stillWellFormed('yaml', before, before.replace('see https', 'see #https'))).toBe(false);
    // A closing quote that moves makes the value a different node.
    const quoted = 'url: "https://rest.runpod.io/v1"\n';
    expect(stillWellFormed('yaml', quoted, 'url: "https://api.runpod.io/v2" x"\n')).toBe(false);
  });

  it('Markdown: the fences stay the same, in the same order with the same info strings', () => {
    const before = '# Ops\n\n> ```bash\n> curl https://rest.runpod.io/v1/pods\n> ```\n\n```python\nprint(1)\n```\n';
    expect(stillWellFormed('markdown', before, before.replace('rest.runpod.io/v1', 'api.runpod.io/v2'))).toBe(true);
    expect(stillWellFormed('markdown', before, before.replace('> curl', '> ```\n> curl'))).toBe(false);
    expect(stillWellFormed('markdown', before, before.replace('> ```bash\n> curl', '> ```bash\ncurl'))).toBe(false);
  });

  it('shell, Python, TOML and Terraform: a rewrite may not add syntax errors', () => {
    expect(stillWellFormed('shell', 'curl "$API/pods"\n', 'curl "$API/pods\n')).toBe(false);
    expect(stillWellFormed('python', 'u = "https://x/v1"\n', 'u = "https://x/v2\n')).toBe(false);
    expect(stillWellFormed('toml', 'u = "https://x/v1"\n', 'u = "https://x/v2"\n')).toBe(true);
    expect(stillWellFormed('toml', 'u = "https://x/v1"\n', 'u = "https://x/v2\n')).toBe(false);
    expect(stillWellFormed('hcl', 'url = "https://x/v1"\n', 'url = "https://x/v2\n')).toBe(false);
  });

  it('parses the original once with each grammar: the scan and the check share it', () => {
    const parse = vi.spyOn(grammars, 'parseWith');
    const cases = [
      ['run.sh', 'bash', 'curl -s "https://rest.runpod.io/v1/pods" # sh\n'],
      ['a.py', 'python', 'import requests\nrequests.get("https://rest.runpod.io/v1/pods")  # py\n'],
      ['pyproject.toml', 'toml', 'api = "https://rest.runpod.io/v1"  # toml\n'],
      ['main.tf', 'hcl', 'locals {\n  api = "https://rest.runpod.io/v1" # tf\n}\n'],
    ] as const;
    for (const [file, grammar, text] of cases) {
      parse.mockClear();
      const result = scanText(text, file, BASES);
      expect(result.output, file).toContain('https://api.runpod.io/v2');
      expect(parse.mock.calls.map(([g, parsed]) => [g, parsed === text ? 'original' : 'rewrite']), file).toEqual([
        [grammar, 'original'],
        [grammar, 'rewrite'],
      ]);
    }
    parse.mockRestore();
  });

  it('JSON and Dockerfiles: the scan and the check read the original once too', () => {
    const json = '{ "api": "https://rest.runpod.io/v1" }\n';
    expect(scanText(json, 'config.json', BASES).output).toBe('{ "api": "https://api.runpod.io/v2" }\n');
    expect(jsonSyntax(json)).toBe(jsonSyntax(json));
    const docker = 'FROM x\nENV API=https://rest.runpod.io/v1\n';
    expect(scanText(docker, 'Dockerfile', BASES).output).toBe('FROM x\nENV API=https://api.runpod.io/v2\n');
    expect(dockerfileInstructions(docker)).toBe(dockerfileInstructions(docker));
  });

  it('refuses a breaking rewrite: nothing is written, nothing is fixable, an internal-error is reported', () => {
    const before = 'env:\n  RUNPOD_API: https://rest.runpod.io/v1\n';
    const result = refuseBrokenRewrite('yaml', before, { findings: [fixable], output: 'env:\n  RUNPOD_API: [https://api.runpod.io/v2\n' });
    expect(result.output).toBeNull();
    expect(result.findings.map((f) => [f.ruleId, f.fixable])).toEqual([
      ['base-url', false],
      ['internal-error', false],
    ]);
    const good = { findings: [fixable], output: 'env:\n  RUNPOD_API: https://api.runpod.io/v2\n' };
    expect(refuseBrokenRewrite('yaml', before, good)).toBe(good);
  });
});
