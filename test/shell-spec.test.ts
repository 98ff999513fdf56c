/**
 * Every curl request the text engine writes in a shell or Markdown fixture (`fixtures/text/{shell,
 * markdown}/*.output`) is a valid v2 request: its method and path are an operation of
 * runpod-v2.openapi.json, and its JSON body, when written literally, validates against that
 * operation's request schema. A request counts as written when its command changed and no finding that
 * needs a person is left on its lines.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadGrammars, scanText } from '../src/text/index.js';
import { fencesOf } from '../src/text/fences.js';
import { flatText } from '../src/text/plan.js';
import { parseCurl } from '../src/text/shell/curl.js';
import { programIndex, ShellScope } from '../src/text/shell/scope.js';
import { literalOf, shellSyntax } from '../src/text/shell/syntax.js';
import { HOLE } from '../src/url/pieces.js';
import { listFiles, REPO } from './helpers.js';
import { specProblems, v2Spec, v2SpecPresent, type Json } from './v2-spec.js';

const BASES = { legacy: ['https://rest.runpod.io/v1'], target: 'https://api.runpod.io/v2' };
const SHELL_FENCES = new Set(['bash', 'sh', 'shell', 'console', 'zsh']);

interface Written {
  file: string;
  line: number;
  method: string;
  path: string;
  body: unknown;
}

/** The shell texts of a fixture: the file, or its shell fences (with the line each starts on). */
function shellTexts(file: string, text: string): Array<{ text: string; line: number }> {
  if (!file.endsWith('.md')) return [{ text, line: 1 }];
  return fencesOf(text)
    .filter((f) => SHELL_FENCES.has(f.info.trim().split(/\s/)[0] ?? ''))
    .map((f) => ({ text: text.slice(f.contentStart, f.contentEnd).replace(/^\$ /gm, '  '), line: f.line }));
}

/** The v2 curl requests of a shell text: method, path after /v2 (holes as `{}`), literal JSON body. */
function curlRequests(text: string): Array<{ line: number; lastLine: number; command: string; method: string; path: string; body: unknown }> {
  const { cmds } = shellSyntax(text);
  const scope = new ShellScope(undefined);
  scope.defineAll(cmds);
  const lineOf = (offset: number): number => text.slice(0, offset).split('\n').length;
  return cmds.flatMap((cmd) => {
    const at = programIndex(cmd);
    const program = cmd.words[at];
    if (!program || literalOf(program) !== 'curl') return [];
    const curl = parseCurl(cmd, at);
    if (!curl.url || !curl.method) return [];
    const url = flatText(scope.pieces(curl.url.parts, curl.url.start));
    const v2 = url.indexOf(BASES.target);
    if (v2 < 0) return [];
    const [rest = ''] = url.slice(v2 + BASES.target.length).split(/[?#]/);
    const data = curl.data[0];
    const literal = data ? literalOf(data) : null;
    let body: unknown;
    try {
      body = literal === null ? undefined : JSON.parse(literal);
    } catch {
      body = undefined;
    }
    return [{ line: lineOf(cmd.start), lastLine: lineOf(cmd.end), command: text.slice(cmd.start, cmd.end), method: curl.method, path: rest.split(HOLE).join('{}'), body }];
  });
}

/** The spec operation for a method and a path whose holes are `{}`, with its request schema name. */
function operation(method: string, p: string): { schema: string | null } | null {
  const paths: Json = v2Spec().paths;
  const segs = p.split('/').filter(Boolean);
  for (const [template, ops] of Object.entries(paths)) {
    const t = template.replace(/^\/v2/, '').split('/').filter(Boolean);
    if (t.length !== segs.length || !t.every((s, i) => s === segs[i] || (s.startsWith('{') && /^[^/]*\{\}[^/]*$|^[\w-]+$/.test(segs[i] ?? '')))) continue;
    const op: Json | undefined = (ops as Json)[method.toLowerCase()];
    if (!op) continue;
    const ref: string | undefined = op.requestBody?.content?.['application/json']?.schema?.$ref;
    return { schema: ref?.split('/').pop() ?? null };
  }
  return null;
}

beforeAll(() => loadGrammars(['bash', 'hcl', 'python', 'toml']));

describe.skipIf(!v2SpecPresent)('shell and Markdown requests the tool writes are valid v2 requests', () => {
  const outputs = listFiles(path.join(REPO, 'fixtures', 'text')).filter((f) => /\/(shell|markdown)\/[^/]+\.output$/.test(f));

  it('finds the written requests', () => {
    expect(written().length).toBeGreaterThan(10);
  });

  it('each has a v2 method and path, and a body its request schema accepts', () => {
    const problems = written().flatMap((w) => {
      const op = operation(w.method, w.path);
      if (!op) return [`${w.file}:${w.line}: ${w.method} /v2${w.path} is not a v2 operation`];
      if (!op.schema || w.body === undefined) return [];
      return specProblems(op.schema, w.body).map((p) => `${w.file}:${w.line}: ${w.method} /v2${w.path} body: ${p}`);
    });
    expect(problems).toEqual([]);
  });

  function written(): Written[] {
    return outputs.flatMap((out) => {
      const input = out.replace(/\.output$/, '');
      const rel = path.relative(REPO, input);
      const before = readFileSync(input, 'utf8');
      const after = readFileSync(out, 'utf8');
      // Lines where a finding still needs a person, in the output's own scan.
      const open = new Set(scanText(after, rel, BASES).findings.filter((f) => !f.fixable && f.severity !== 'info').map((f) => f.line));
      const unchanged = new Set(shellTexts(input, before).flatMap((s) => curlRequests(s.text).map((r) => r.command)));
      return shellTexts(out, after).flatMap((s) =>
        curlRequests(s.text)
          .map((r) => ({ ...r, line: r.line + s.line - 1, lastLine: r.lastLine + s.line - 1 }))
          .filter((r) => !unchanged.has(r.command) && ![...open].some((l) => l >= r.line && l <= r.lastLine))
          .map((r) => ({ file: rel, line: r.line, method: r.method, path: r.path, body: r.body })),
      );
    });
  }
});

it('the shell-spec test reads the fixtures folder', () => {
  expect(existsSync(path.join(REPO, 'fixtures', 'text', 'shell'))).toBe(true);
});
