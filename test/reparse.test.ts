/**
 * Re-parse before write for shell, Terraform and Dockerfiles: a rewrite whose result would not read
 * as well as the original under the file's grammar (tree-sitter-bash, tree-sitter-hcl, dockerfile-ast)
 * is not written; the file gets an internal-error finding and its findings are no longer fixable.
 * A broken rewrite is simulated by appending a fragment to every rewritten text (`applyEdits`).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';

const broken = vi.hoisted(() => ({ tail: '' }));
vi.mock('../src/text/source.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/text/source.js')>();
  return { ...original, applyEdits: (text: string, edits: Parameters<typeof original.applyEdits>[1]) => original.applyEdits(text, edits) + broken.tail };
});

const { loadGrammars, scanText } = await import('../src/text/index.js');
const BASES = { legacy: ['https://rest.runpod.io/v1'], target: 'https://api.runpod.io/v2' };

beforeAll(() => loadGrammars(['bash', 'hcl', 'python', 'toml']));

const CASES: Array<{ file: string; text: string; tail: string; harmless: string }> = [
  { file: 'park.sh', text: 'API=https://rest.runpod.io/v1\ncurl -X POST "$API/pods/$1/stop"\n', tail: 'if [ -n "$2" ]; then\n', harmless: '# parked\n' },
  { file: 'main.tf', text: 'locals {\n  api = "https://rest.runpod.io/v1/pods"\n}\n', tail: 'output "x" {\n  value = \n', harmless: '# pods\n' },
  { file: 'Dockerfile', text: 'FROM alpine\nENV API=https://rest.runpod.io/v1\n', tail: 'RUN true\n', harmless: '# built\n' },
];

describe('re-parse before write', () => {
  for (const { file, text, tail, harmless } of CASES) {
    it(`${file}: a rewrite that breaks the grammar is refused with internal-error`, () => {
      broken.tail = tail;
      const result = scanText(text, file, BASES);
      expect(result.output).toBeNull();
      expect(result.findings.at(-1)).toMatchObject({ ruleId: 'internal-error', line: 1 });
      expect(result.findings.some((f) => f.fixable)).toBe(false);
    });
    it(`${file}: a rewrite that keeps it is written`, () => {
      broken.tail = harmless;
      const result = scanText(text, file, BASES);
      expect(result.output).toContain('https://api.runpod.io/v2');
      expect(result.findings.map((f) => f.ruleId)).not.toContain('internal-error');
    });
  }
});
