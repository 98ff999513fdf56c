import { parse, type ParserPlugin } from '@babel/parser';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTree, type TreeManifest } from '../bench/generate.js';
import { BIN, git, tempProject } from './helpers.js';

/**
 * Robustness sweep: the built CLI over a large, real-world-shaped tree full of awkward input —
 * 60-level folders, symlink loops, unreadable files, 10 MB bundles, BOMs, CRLF and CR-only line
 * endings, non-UTF-8 and UTF-16 text, syntax errors, empty and binary files with JS/TS extensions,
 * very long lines, U+2028, names with spaces and unicode — next to a generated monorepo with RunPod
 * v1 code of every kind (bench/generate.js). Every run must finish in time with exit 0 or 1 (never
 * 2, never an internal-error finding); a write must change every file with v1 code (and the result
 * must parse) and not one byte of any other file; every skipped file that mentions RunPod must be
 * reported with a skipped-file finding.
 */

/** Per CLI run: well under the test timeouts below, so a hang fails with a message, not a vitest timeout. */
const RUN_TIMEOUT_MS = 25_000;
const MB = 1024 * 1024;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

function run(args: string[], cwd: string, timeout = RUN_TIMEOUT_MS): Run {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout, killSignal: 'SIGKILL', maxBuffer: 256 * MB });
  const timedOut = (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
  return { code: r.status, signal: r.signal, stdout: r.stdout ?? '', stderr: r.stderr ?? '', ms: Date.now() - t0, timedOut };
}

/** What a run must look like whatever the input: finished in time, exit 0 or 1, no internal error. */
function expectSane(r: Run, what: string): void {
  expect(r.timedOut, `${what}: still running after ${r.ms} ms (killed)`).toBe(false);
  expect(r.signal, `${what}: killed by ${r.signal}; stderr: ${r.stderr.slice(-600)}`).toBeNull();
  expect([0, 1], `${what}: exit ${r.code}; stderr: ${r.stderr.slice(-600)}`).toContain(r.code);
  expect(r.stderr, what).not.toMatch(/internal error/i);
}

interface JsonFile {
  path: string;
  changed: boolean;
  findings: Array<{ ruleId: string; message: string }>;
  suppressed: Array<{ ruleId: string }>;
}
interface JsonReport {
  files: JsonFile[];
  summary: { files: number; changed: number };
}

function report(r: Run, what: string): JsonReport {
  try {
    return JSON.parse(r.stdout) as JsonReport;
  } catch {
    throw new Error(`${what}: stdout is not one JSON document: ${r.stdout.slice(0, 300)}`);
  }
}

const rules = (rep: JsonReport, file: string): string[] => (rep.files.find((f) => f.path === file)?.findings ?? []).map((f) => f.ruleId);

function pluginsFor(file: string): ParserPlugin[] {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.ts' || ext === '.mts' || ext === '.cts') return ['typescript'];
  if (ext === '.tsx') return ['typescript', 'jsx'];
  return ['jsx'];
}

/** The parse error of a JS/TS text, or null. */
function syntaxError(text: string, file: string): string | null {
  try {
    parse(text.replace(/^\uFEFF/, ''), { sourceType: 'unambiguous', plugins: pluginsFor(file), allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Content hash of every entry under `root` (symlinks by their target, never followed). */
function snapshot(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      const abs = path.join(root, r);
      if (e.isSymbolicLink()) out.set(r, `symlink:${fs.readlinkSync(abs)}`);
      else if (e.isDirectory()) walk(r);
      else if (!e.isFile()) out.set(r, 'special');
      else {
        const mode = fs.statSync(abs).mode & 0o777;
        try {
          out.set(r, `${mode.toString(8)}:${crypto.createHash('sha256').update(fs.readFileSync(abs)).digest('hex')}`);
        } catch {
          out.set(r, `${mode.toString(8)}:unreadable`);
        }
      }
    }
  };
  walk('');
  return out;
}

// ---------------------------------------------------------------------------------------------
// The awkward files
// ---------------------------------------------------------------------------------------------

const V1_TS = `const API = 'https://rest.runpod.io/v1';

export async function stopPod(id: string) {
  return fetch(\`\${API}/pods/\${id}/stop\`, { method: 'POST', headers: { Authorization: 'Bearer k' } });
}
`;
const V1_JS = `const API = 'https://rest.runpod.io/v1';

export async function stopPod(id) {
  return fetch(API + '/pods/' + id + '/stop', { method: 'POST', headers: { Authorization: 'Bearer k' } });
}
`;
const PLAIN_TS = `import { readFile } from 'node:fs/promises';

export async function loadConfig(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
}
`;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const crlf = (s: string): string => s.replace(/\n/g, '\r\n');

/** Minified code, about `bytes` long, with `insert` placed in the middle. */
function bundle(bytes: number, insert = ''): Buffer {
  const parts: string[] = ['!function(){"use strict";'];
  let size = 0;
  for (let n = 0; size < bytes; n++) {
    if (insert && size >= bytes / 2) {
      parts.push(insert);
      size += insert.length;
      insert = '';
    }
    const s = `function a${n}(b,c){var d=b+c*${n};if(d>${n % 97})return d-1;return[d,"k${n}",{x:d}]}var v${n}=a${n}(${n},2);`;
    parts.push(s);
    size += s.length;
  }
  parts.push('}();\n');
  return Buffer.from(parts.join(''));
}
const BUNDLED_V1 = 'var rp=function(i){return fetch("https://rest.runpod.io/v1/pods/"+i+"/stop",{method:"POST"})};';

/** Bytes of an MPEG transport stream (a `.ts` video): sync bytes, NULs and 0xFF stuffing. */
function mpegTs(packets: number): Buffer {
  const b = Buffer.alloc(188 * packets, 0xff);
  for (let i = 0; i < packets; i++) {
    b[i * 188] = 0x47;
    b[i * 188 + 1] = 0x40;
    b[i * 188 + 2] = 0x00;
    b[i * 188 + 3] = 0x10 | (i & 0x0f);
    b[i * 188 + 4] = 0x00;
  }
  return b;
}

type Expect =
  /** Has v1 code: a write changes it, and the result parses. */
  | 'change'
  /** Nothing to migrate (or skipped by design): not one byte may change. */
  | 'same'
  /** Cannot be read as UTF-8 text but mentions RunPod: a skipped-file finding, unchanged. */
  | 'skipped'
  /** Has v1 code but does not parse: a parse-error finding, unchanged. */
  | 'parse-error'
  /** Has v1 code the tool may or may not rewrite (its callers do not parse): in the report either way; if rewritten, it parses. */
  | 'reported';

interface Entry {
  content: string | Buffer;
  expect: Expect;
  /** Extra check on the written bytes. */
  after?: (bytes: Buffer) => void;
}

const DEEP = Array.from({ length: 60 }, (_, i) => `level-${String(i).padStart(2, '0')}`).join('/');
const LONG_STRING = `export const LOGO = 'data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg'.repeat(4000)}';\n`;
const LONG_TOKENS = `export const IDS = [${Array.from({ length: 20000 }, (_, i) => `'id-${i}'`).join(', ')}];\n`;

const ENTRIES: Record<string, Entry> = {
  // 60 levels deep
  [`deep/${DEEP}/api.ts`]: { content: V1_TS, expect: 'change' },
  [`deep/${DEEP}/plain.ts`]: { content: PLAIN_TS, expect: 'same' },
  // symlink targets (the links are made below)
  'loop/real.ts': { content: V1_TS, expect: 'change' },
  'loop/inner/plain.ts': { content: PLAIN_TS, expect: 'same' },
  // bundles: a 10 MB non-.min bundle without a v1 URL is read but never parsed; .min.js is skipped by design
  'public/app.bundle.js': { content: bundle(10 * MB), expect: 'same' },
  'public/vendor.min.js': { content: bundle(2 * MB, BUNDLED_V1), expect: 'same' },
  // BOM
  'enc/bom.ts': { content: Buffer.concat([BOM, Buffer.from(V1_TS)]), expect: 'change', after: (b) => expect(b.subarray(0, 3).equals(BOM), 'BOM kept').toBe(true) },
  'enc/bom-plain.ts': { content: Buffer.concat([BOM, Buffer.from(PLAIN_TS)]), expect: 'same' },
  'enc/bom-only.ts': { content: BOM, expect: 'same' },
  // not UTF-8
  'enc/latin1.ts': { content: Buffer.concat([Buffer.from(V1_TS), Buffer.from('// caf'), Buffer.from([0xe9]), Buffer.from('\n')]), expect: 'skipped' },
  'enc/latin1-plain.ts': { content: Buffer.concat([Buffer.from(PLAIN_TS), Buffer.from('// na'), Buffer.from([0xef]), Buffer.from('ve\n')]), expect: 'same' },
  'enc/late-invalid.js': { content: Buffer.concat([Buffer.from(V1_JS), Buffer.from(`// ${'x'.repeat(20000)}\n// `), Buffer.from([0xc3, 0x28]), Buffer.from('\n')]), expect: 'skipped' },
  // line endings
  'eol/crlf.ts': { content: crlf(V1_TS), expect: 'change', after: (b) => expect(b.toString('utf8').replace(/\r\n/g, ''), 'every line ending stays CRLF').not.toMatch(/[\r\n]/) },
  'eol/crlf-plain.ts': { content: crlf(PLAIN_TS), expect: 'same' },
  'eol/mixed.js': { content: V1_JS.split('\n').map((l, i) => l + (i % 2 ? '\r\n' : '\n')).join(''), expect: 'change' },
  'eol/cr-only.js': { content: V1_JS.replace(/\n/g, '\r'), expect: 'change' },
  // syntax errors
  'broken/syntax.ts': { content: `${V1_TS}\nexport const = ;\n`, expect: 'parse-error' },
  'broken/jsx-in-ts.ts': { content: `${V1_TS}\nexport const el = <div className="x">hi</div>;\n`, expect: 'parse-error' },
  'broken/syntax-plain.ts': { content: 'export function (oops {\n', expect: 'same' },
  'broken/client.ts': { content: `export const BASE = 'https://rest.runpod.io/v1';\nexport const api = (method: string, path: string) => fetch(BASE + path, { method });\n`, expect: 'reported' },
  'broken/calls.ts': { content: `import { api } from './client';\nexport const stop = (id: string) => api('POST', \`/pods/\${id}/stop\`);\nexport const oops = ;\n`, expect: 'same' },
  // empty files
  'empty/empty.ts': { content: '', expect: 'same' },
  'empty/empty.js': { content: '', expect: 'same' },
  'empty/blank.tsx': { content: '\n\n   \n\t\n', expect: 'same' },
  'empty/uses-empty.ts': { content: `import './empty';\nimport './blank';\n${V1_TS}`, expect: 'change' },
  // binary files with a JS/TS extension
  'bin/video.ts': { content: mpegTs(2000), expect: 'same' },
  'bin/blob.js': { content: Buffer.concat([crypto.createHash('sha512').update('seed').digest(), Buffer.from([0, 0, 0, 1]), Buffer.from(' https://rest.runpod.io/v1/pods '), mpegTs(20)]), expect: 'skipped' },
  // very long lines
  'long/base64.ts': { content: LONG_STRING, expect: 'same' },
  'long/base64-v1.ts': { content: `${LONG_STRING}${V1_TS}`, expect: 'change' },
  'long/tokens-v1.ts': { content: `${LONG_TOKENS}${V1_TS}`, expect: 'change' },
  // U+2028 / U+2029 inside strings and comments (line terminators for some tools, not for others)
  'unicode/ls.ts': {
    content: `/* a comment\u2028with a line separator */\nexport const MSG = 'one\u2028two\u2029three';\n${V1_TS}`,
    expect: 'change',
    after: (b) => expect(b.toString('utf8')).toContain("'one\u2028two\u2029three'"),
  },
  'unicode/line.ts': { content: `export const MSG = 'one\u2028two';\n${V1_TS}`, expect: 'change' },
  'unicode/ls-plain.ts': { content: `export const MSG = 'one\u2028two';\n${PLAIN_TS}`, expect: 'same' },
  'unicode/astral.ts': { content: `export const EMOJI = '🚀🧪 ünïcødé';\n${V1_TS}`, expect: 'change', after: (b) => expect(b.toString('utf8')).toContain("'🚀🧪 ünïcødé'") },
  // names with spaces and unicode
  'names/my file ünïcødé 🚀.ts': { content: V1_TS, expect: 'change' },
  'names/dir with spaces/ñandú plain.ts': { content: PLAIN_TS, expect: 'same' },
  'names/-rf.ts': { content: PLAIN_TS, expect: 'same' },
  // .env with a BOM and CRLF, read by code
  'envs/.env': { content: Buffer.concat([BOM, Buffer.from('RUNPOD_API_KEY=\r\nRUNPOD_REST_URL=https://rest.runpod.io/v1\r\n')]), expect: 'change', after: (b) => expect(b.subarray(0, 3).equals(BOM) && !/[^\r]\n/.test(b.toString('utf8')), 'BOM and CRLF kept').toBe(true) },
  'envs/client.ts': { content: `const BASE = process.env.RUNPOD_REST_URL!;\nexport const stop = (id: string) => fetch(\`\${BASE}/pods/\${id}/stop\`, { method: 'POST' });\n`, expect: 'change' },
  // other languages with awkward bytes and nothing to migrate
  'docs/notes.md': { content: Buffer.concat([BOM, Buffer.from(crlf('# Notes\n\nSee https://api.runpod.ai/v2/abc/run for jobs.\n'))]), expect: 'same' },
  'scripts/run.sh': { content: Buffer.concat([Buffer.from('#!/bin/sh\necho "caf'), Buffer.from([0xe9]), Buffer.from('"\n')]), expect: 'same' },
  'scripts/tool.py': { content: mpegTs(3), expect: 'same' },
  // ignored by design
  'node_modules/runpod-sdk/index.js': { content: V1_JS, expect: 'same' },
};
/** A UTF-16 file (what PowerShell's `>` writes) with a v1 URL: not UTF-8, so skipped, and it mentions RunPod. */
const UTF16 = { rel: 'bin/utf16.ts', content: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(V1_TS, 'utf16le')]) };
const UNREADABLE = { v1: 'locked/secret.ts', plain: 'locked/plain.ts' };

// ---------------------------------------------------------------------------------------------
// The sweep
// ---------------------------------------------------------------------------------------------

describe('robustness sweep', () => {
  let dir = '';
  let tree: TreeManifest;
  let before = new Map<string, string>();
  let afterDry = new Map<string, string>();
  let afterWrite = new Map<string, string>();
  let lint: Run;
  let dry: Run;
  let write: Run;
  let again: Run;
  let canLock = false;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'v2-migrate-robustness-'));
    // A real-world-shaped monorepo (RunPod code of every kind among unrelated code), then the awkward files.
    tree = generateTree(dir, { packages: 4, files: 50, runpod: true, runpodEvery: 2, nodeModules: 50, git: false });
    for (const [rel, e] of Object.entries(ENTRIES)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), e.content);
    }
    fs.writeFileSync(path.join(dir, UTF16.rel), UTF16.content);
    // Symlink loops (directories pointing at an ancestor and at themselves), a file link, a dangling link.
    fs.symlinkSync('..', path.join(dir, 'loop', 'up'));
    fs.symlinkSync('.', path.join(dir, 'loop', 'self'));
    fs.symlinkSync('../..', path.join(dir, 'loop', 'inner', 'back'));
    fs.symlinkSync(`../deep/${DEEP.split('/').slice(0, 30).join('/')}`, path.join(dir, 'loop', 'halfway'));
    fs.symlinkSync('../loop/real.ts', path.join(dir, 'names', 'alias.ts'));
    fs.symlinkSync('../nowhere.ts', path.join(dir, 'names', 'dangling.ts'));
    // A named pipe with a .ts name: reading it would block forever.
    const fifo = spawnSync('mkfifo', [path.join(dir, 'names', 'pipe.ts')]);
    if (fifo.status !== 0) console.warn('[robustness.test] mkfifo failed: the named-pipe check is skipped');
    // Unreadable files (chmod 000): only meaningful when chmod stops this user from reading (not root).
    fs.mkdirSync(path.join(dir, 'locked'));
    fs.writeFileSync(path.join(dir, UNREADABLE.v1), V1_TS);
    fs.writeFileSync(path.join(dir, UNREADABLE.plain), PLAIN_TS);
    fs.chmodSync(path.join(dir, UNREADABLE.v1), 0o000);
    fs.chmodSync(path.join(dir, UNREADABLE.plain), 0o000);
    try {
      fs.readFileSync(path.join(dir, UNREADABLE.v1));
    } catch {
      canLock = true;
    }
    if (!canLock) console.warn('[robustness.test] running as a user chmod 000 does not stop (root?): the unreadable-file checks are skipped');

    before = snapshot(dir);
    lint = run(['lint', '--format', 'json', '.'], dir);
    dry = run(['--dry-run', '--format', 'json', '.'], dir);
    afterDry = snapshot(dir);
    write = run(['--format', 'json', '.'], dir);
    afterWrite = snapshot(dir);
    again = run(['--format', 'json', '.'], dir);
  }, 4 * RUN_TIMEOUT_MS + 20_000);

  afterAll(() => {
    if (!dir) return;
    for (const f of Object.values(UNREADABLE)) fs.rmSync(path.join(dir, f), { force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // The locked v1 file is never written: unreadable for most users, read-only (mode 000) for all.
  const expectedChange = (): string[] => [...tree.expectedChanged, ...Object.entries(ENTRIES).filter(([, e]) => e.expect === 'change').map(([rel]) => rel)].sort();

  it('every run finishes in time with exit 0 or 1 and no internal error', () => {
    for (const [what, r] of [['lint', lint], ['dry run', dry], ['write', write], ['second write', again]] as const) {
      expectSane(r, what);
      const rep = report(r, what);
      const internal = rep.files.filter((f) => f.findings.some((x) => x.ruleId === 'internal-error'));
      expect(internal.map((f) => `${f.path}: ${f.findings.find((x) => x.ruleId === 'internal-error')!.message}`), `${what}: internal-error findings`).toEqual([]);
    }
  });

  it('a dry run and lint write nothing', () => {
    expect([...afterDry].filter(([rel, h]) => before.get(rel) !== h).map(([rel]) => rel)).toEqual([]);
  });

  it('a write changes every file with v1 code, and each result still parses', () => {
    const changed = [...afterWrite].filter(([rel, h]) => before.get(rel) !== h).map(([rel]) => rel);
    const missing = expectedChange().filter((rel) => !changed.includes(rel));
    expect(missing, 'files with v1 code that were not rewritten').toEqual([]);
    for (const rel of expectedChange()) {
      if (/(^|\/)\.env/.test(rel)) continue;
      const text = fs.readFileSync(path.join(dir, rel), 'utf8');
      expect(syntaxError(text, rel), `${rel} no longer parses`).toBeNull();
    }
    for (const [rel, e] of Object.entries(ENTRIES)) if (e.after) e.after(fs.readFileSync(path.join(dir, rel)));
    for (const [rel, e] of Object.entries(ENTRIES)) {
      if (e.expect !== 'reported' || afterWrite.get(rel) === before.get(rel)) continue;
      expect(syntaxError(fs.readFileSync(path.join(dir, rel), 'utf8'), rel), `${rel} no longer parses`).toBeNull();
    }
  });

  it('a write changes not one byte of any file with nothing to migrate (symlinks stay links)', () => {
    const want = new Set([...expectedChange(), ...Object.entries(ENTRIES).filter(([, e]) => e.expect === 'reported').map(([rel]) => rel)]);
    const touched = [...new Set([...before.keys(), ...afterWrite.keys()])].filter((rel) => !want.has(rel) && before.get(rel) !== afterWrite.get(rel));
    expect(touched.map((rel) => `${rel}: ${before.get(rel)?.slice(0, 20) ?? 'absent'} -> ${afterWrite.get(rel)?.slice(0, 20) ?? 'absent'}`)).toEqual([]);
  });

  it('reports what it could not migrate: parse errors and skipped files that mention RunPod', () => {
    const rep = report(lint, 'lint');
    for (const [rel, e] of Object.entries(ENTRIES)) {
      if (e.expect === 'parse-error') expect(rules(rep, rel), rel).toContain('parse-error');
      if (e.expect === 'skipped') expect(rules(rep, rel), rel).toContain('skipped-file');
      if (e.expect === 'reported') expect(rules(rep, rel).length, `${rel}: findings`).toBeGreaterThan(0);
    }
    expect(rules(rep, 'broken/calls.ts')).toContain('parse-error');
  });

  it('reports a UTF-16 file that mentions RunPod (skipped: not UTF-8), and leaves it alone', () => {
    expect(rules(report(lint, 'lint'), UTF16.rel)).toContain('skipped-file');
    expect(afterWrite.get(UTF16.rel)).toBe(before.get(UTF16.rel));
  });

  it('counts lines as git and the diff do: a U+2028 inside a string is not a line break', () => {
    const rep = report(lint, 'lint');
    const base = rep.files.find((f) => f.path === 'unicode/line.ts')?.findings.find((f) => f.ruleId === 'base-url') as { line: number } | undefined;
    expect(base, 'a base-url finding for unicode/line.ts').toBeDefined();
    // Line 2 for git, GitHub annotations, editors and v2-migrate's own unified diff (lines split at \n).
    expect(base!.line).toBe(2);
  });

  it('reports files it could not read', (ctx) => {
    if (!canLock) {
      ctx.skip();
      return;
    }
    const rep = report(lint, 'lint');
    expect(rules(rep, UNREADABLE.v1)).toContain('skipped-file');
    expect(afterWrite.get(UNREADABLE.v1)).toBe(before.get(UNREADABLE.v1));
  });

  it('never reports ignored, minified or binary files without a RunPod mention, nor follows symlinks', () => {
    const paths = report(lint, 'lint').files.map((f) => f.path);
    expect(paths.filter((p) => /node_modules\/|\.cache\/|\.min\.js$|^bin\/video\.ts$|^public\/app\.bundle\.js$|^loop\/(up|self|halfway|inner\/back)\/|^names\/(alias|dangling)\.ts$/.test(p))).toEqual([]);
  });

  it('scans every JS/TS file once, at 60 levels deep and behind odd names too', () => {
    const rep = report(dry, 'dry run');
    const changed = rep.files.filter((f) => f.changed).map((f) => f.path);
    for (const rel of [`deep/${DEEP}/api.ts`, 'names/my file ünïcødé 🚀.ts', 'loop/real.ts']) expect(changed, rel).toContain(rel);
    expect(new Set(rep.files.map((f) => f.path)).size).toBe(rep.files.length);
  });

  it('a second write changes nothing', () => {
    expect(report(again, 'second write').summary.changed).toBe(0);
  });
});

describe('robustness: a 10 MB bundle with a v1 URL', () => {
  it('finishes in time without crashing: rewritten (and still parses) or reported, never an internal error', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'v2-migrate-robustness-bundle-'));
    try {
      const file = path.join(dir, 'app.bundle.js');
      const content = bundle(10 * MB, BUNDLED_V1);
      fs.writeFileSync(file, content);
      const r = run(['--format', 'json', '.'], dir);
      expectSane(r, '10 MB bundle');
      const rep = report(r, '10 MB bundle');
      expect(rules(rep, 'app.bundle.js')).not.toContain('internal-error');
      const out = fs.readFileSync(file);
      if (!out.equals(content)) expect(syntaxError(out.toString('utf8'), file)).toBeNull();
      else expect(rules(rep, 'app.bundle.js').length, 'left unchanged without a finding').toBeGreaterThan(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, RUN_TIMEOUT_MS + 10_000);
});

describe('robustness: writing awkward paths', () => {
  const V1_SHORT = `const API = 'https://rest.runpod.io/v1';\nexport const pods = () => fetch(API + '/pods');\n`;

  it('rewrites a file whose name is as long as the file system allows (255 bytes)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'v2-migrate-robustness-name-'));
    try {
      const long = `${'n'.repeat(252)}.ts`;
      for (const f of ['a.ts', long, 'z.ts']) fs.writeFileSync(path.join(dir, f), V1_SHORT);
      const r = run(['--format', 'json', '.'], dir);
      expectSane(r, 'long file name');
      for (const f of ['a.ts', long, 'z.ts']) expect(fs.readFileSync(path.join(dir, f), 'utf8'), f.slice(0, 20)).toContain('https://api.runpod.io/v2');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a symlink named on the command line stays a link, and nothing is written through it (a finding says why)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'v2-migrate-robustness-link-'));
    try {
      fs.mkdirSync(path.join(dir, 'shared'));
      fs.writeFileSync(path.join(dir, 'shared', 'runpod.ts'), V1_SHORT);
      fs.symlinkSync('shared/runpod.ts', path.join(dir, 'alias.ts'));
      const r = run(['--format', 'json', 'alias.ts'], dir);
      expectSane(r, 'symlink named explicitly');
      expect(fs.lstatSync(path.join(dir, 'alias.ts')).isSymbolicLink(), 'alias.ts is still a symlink').toBe(true);
      // Its target may lie outside the tree the user named: it keeps its text.
      expect(fs.readFileSync(path.join(dir, 'shared', 'runpod.ts'), 'utf8')).toBe(V1_SHORT);
      const findings = report(r, 'symlink').files.flatMap((f) => f.findings);
      expect(findings.some((f) => f.ruleId === 'skipped-file' && f.message.includes('symbolic link'))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('robustness: the dirty-tree refusal with very long paths', () => {
  it('refuses to rewrite files with uncommitted changes even when their paths overflow one git command line', (ctx) => {
    const argMax = Number(spawnSync('getconf', ['ARG_MAX'], { encoding: 'utf8' }).stdout.trim()) || 2 * MB;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'v2-migrate-robustness-git-'));
    try {
      // Deep folders with long names: each path is ~3.7 KB, so a few hundred files exceed ARG_MAX.
      let folder = dir;
      for (let i = 0; i < 15; i++) folder = path.join(folder, `${'d'.repeat(230)}${i}`);
      const name = (i: number): string => `${'f'.repeat(200)}${i}.ts`;
      const count = Math.ceil((argMax + 64 * 1024) / (path.join(folder, name(0)).length + 1));
      if (count > 3000) {
        console.warn(`[robustness.test] ARG_MAX is ${argMax}: too many files needed to overflow it; check skipped`);
        ctx.skip();
      }
      fs.mkdirSync(folder, { recursive: true });
      const V1_SHORT = `export const API = 'https://rest.runpod.io/v1';\n`;
      for (let i = 0; i < count; i++) fs.writeFileSync(path.join(folder, name(i)), V1_SHORT);
      git(dir, 'init', '-q');
      git(dir, 'add', '.');
      git(dir, 'commit', '-qm', 'init');
      for (let i = 0; i < count; i++) fs.appendFileSync(path.join(folder, name(i)), '// local edit\n');
      const r = run(['.'], dir);
      expect(r.code, `${count} dirty files: exit ${r.code}; stderr: ${r.stderr.slice(0, 300)}`).toBe(2);
      expect(r.stderr).toMatch(/refusing to rewrite files with uncommitted changes/);
      expect(fs.readFileSync(path.join(folder, name(0)), 'utf8')).toBe(`${V1_SHORT}// local edit\n`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, RUN_TIMEOUT_MS + 20_000);
});

describe('robustness: names in the code that are Object.prototype keys', () => {
  const findingsOf = (r: Run): string[] => (JSON.parse(r.stdout).files as Array<{ path: string; findings: Array<{ ruleId: string; line: number; column: number }> }>).flatMap((f) => f.findings.map((x) => `${f.path}:${x.line}:${x.column} ${x.ruleId}`));
  const cases: Array<[string, Record<string, string>, string[]]> = [
    ['a Markdown fence labelled constructor', { 'README.md': '# x\n\n```constructor\ncurl https://rest.runpod.io/v1/pods\n```\n' }, ['README.md:4:6 base-url']],
    [
      'a listed response asked hasOwnProperty (JS)',
      { 'a.ts': "const BASE = 'https://rest.runpod.io/v1';\nexport async function has(id: string) {\n  const pods = await (await fetch(`${BASE}/pods`)).json();\n  return pods.hasOwnProperty(id);\n}\n" },
      ['a.ts:1:14 base-url', 'a.ts:3:16 list-envelope'],
    ],
    ['requests.constructor(url) (Python): not a request method', { 'b.py': 'import requests\nrequests.constructor("https://rest.runpod.io/v1/pods")\n' }, ['b.py:2:22 base-url']],
  ];
  for (const [name, files, expected] of cases) {
    it(`${name}: analysed like any other name`, () => {
      const r = run(['lint', '--format', 'json'], tempProject(files));
      expect([r.code, r.stderr]).toEqual([1, '']);
      expect(findingsOf(r)).toEqual(expected);
    });
  }
});
