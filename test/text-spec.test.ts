/**
 * Every curl request the text engine writes is a valid v2 request: in each shell fixture's expected
 * output, a command the tool changed (its text is not in the input) that goes to the v2 base is an
 * operation of runpod-v2.openapi.json, and its literal JSON body validates against the operation's
 * request schema. A request left unfinished on purpose (a TODO(v2-migrate) above it: v2 refuses it
 * loudly) is not checked. The requests are read with the engine's own shell reader and curl model.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadGrammars } from '../src/text/index.js';
import { readShell } from '../src/text/shell.js';
import { parseCurl } from '../src/text/shell/curl.js';
import { programIndex } from '../src/text/shell/scope.js';
import { literalOf } from '../src/text/shell/syntax.js';
import { flatText } from '../src/text/plan.js';
import { HOLE } from '../src/url/pieces.js';
import { REPO, listFiles } from './helpers.js';
import { specProblems, v2Spec, v2SpecPresent, type Json } from './v2-spec.js';

const V2 = 'https://api.runpod.io/v2';

beforeAll(() => loadGrammars(['bash']));

/** Shell outputs with their inputs: text fixtures (`x.sh.output` of `x.sh`) and project fixtures (`expected/` of `input/`). */
function cases(): Array<{ name: string; input: string; output: string }> {
  const text = listFiles(path.join(REPO, 'fixtures', 'text')).filter((f) => /\.(sh|bash)\.output$/.test(f));
  const projects = listFiles(path.join(REPO, 'fixtures', 'projects')).filter((f) => f.includes(`${path.sep}expected${path.sep}`) && /\.(sh|bash)$/.test(f));
  return [
    ...text.map((f) => ({ name: path.relative(REPO, f), input: f.replace(/\.output$/, ''), output: f })),
    ...projects.map((f) => ({ name: path.relative(REPO, f), input: f.replace(`${path.sep}expected${path.sep}`, `${path.sep}input${path.sep}`), output: f })),
  ];
}

/** The spec operation for a method and a concrete path (holes and `{…}` fill any one segment). */
function specOperation(method: string, segments: readonly string[]): Json | undefined {
  const paths: Json = v2Spec().paths;
  for (const [template, ops] of Object.entries(paths)) {
    const want = template.replace(/^\/v2\//, '/').split('/').filter(Boolean);
    if (want.length !== segments.length) continue;
    if (!want.every((w, i) => w.startsWith('{') || segments[i] === w || segments[i]!.includes(HOLE))) continue;
    const op = (ops as Json)[method.toLowerCase()];
    if (op) return op;
  }
  return undefined;
}

interface Written {
  line: number;
  method: string;
  segments: string[];
  body: unknown;
}

/** The curl requests to the v2 base that the tool wrote (changed) in `output`, not left with a TODO. */
function writtenRequests(input: string, output: string): Written[] {
  const { cmds, scope } = readShell(output, {}, () => '');
  const out: Written[] = [];
  for (const cmd of cmds) {
    const at = programIndex(cmd);
    if (at < 0 || literalOf(cmd.words[at]!) !== 'curl' || input.includes(output.slice(cmd.start, cmd.end))) continue;
    const before = output.slice(0, cmd.start).split('\n');
    if (before.slice(-4).some((l) => l.includes('TODO(v2-migrate'))) continue;
    const curl = parseCurl({ ...cmd, words: scope.expandArrays(cmd.words, cmd.start) }, at);
    if (!curl.url) continue;
    const url = flatText(scope.pieces(curl.url.parts, curl.url.start));
    if (!url.startsWith(`${V2}/`)) continue;
    const segments = url.slice(V2.length).split(/[?#]/)[0]!.split('/').filter(Boolean);
    const data = curl.data.length === 1 ? curl.data[0]!.parts : [];
    const literal = data.length === 1 && data[0]!.kind === 'lit' ? data[0]!.text : null;
    let body: unknown;
    try {
      body = literal === null ? undefined : JSON.parse(literal);
    } catch {
      body = undefined;
    }
    out.push({ line: before.length, method: curl.method ?? (curl.data.length ? 'POST' : 'GET'), segments, body });
  }
  return out;
}

describe.skipIf(!v2SpecPresent)('shell requests the text engine writes are valid v2 requests', () => {
  const all = cases();
  it('there are some to check, bodies among them', () => {
    const written = all.flatMap((c) => writtenRequests(readFileSync(c.input, 'utf8'), readFileSync(c.output, 'utf8')));
    expect(written.length).toBeGreaterThan(5);
    expect(written.filter((r) => r.body !== undefined).length).toBeGreaterThan(3);
  });
  for (const c of all) {
    it(c.name, () => {
      for (const r of writtenRequests(readFileSync(c.input, 'utf8'), readFileSync(c.output, 'utf8'))) {
        const op = specOperation(r.method, r.segments);
        expect(op, `line ${r.line}: ${r.method} /v2/${r.segments.join('/')} is a v2 operation`).toBeDefined();
        const ref: string | undefined = op?.requestBody?.content?.['application/json']?.schema?.$ref;
        if (r.body === undefined || !ref) continue;
        expect(specProblems(ref.split('/').pop()!, r.body), `line ${r.line}: the body against ${ref}`).toEqual([]);
      }
    });
  }
});
