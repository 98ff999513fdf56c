/**
 * The gate invariant, as a property over every fixture (and, when MIRROR_ROOT points at the real
 * clients' snapshots, over every real client of ../shared/real-clients/clients.tsv): `lint` leaves no
 * REST v1 base URL in code (not a comment, not Markdown prose) without a warning or an error at its
 * line, in the gate or taken out of it by a marker.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, copyDir, realClientTrees, REPO, tempProject } from './helpers.js';
import { commentSyntaxFor } from '../src/markers/syntax.js';
import { insideComment, walkCommentLines } from '../src/markers/comments.js';
import { DEFAULT_SKIPPED_DIRS, NEVER_SCANNED_DIRS } from '../src/scan/skipped-dirs.js';
import { otherLanguageOf } from '../src/scan/kinds.js';
import { codeRanges } from '../src/js/components.js';

const V1 = 'https://rest.runpod.io/v1';

interface JsonFinding {
  line: number;
  column?: number;
  message?: string;
  severity: string;
  ruleId: string;
  fixable?: boolean;
}
interface JsonFile {
  path: string;
  findings: JsonFinding[];
  suppressed: JsonFinding[];
}

/** Lines of files under `dir` holding the v1 base with no warning or error there (`path:line`). */
function unreported(dir: string): { scanned: number; missing: string[] } {
  const run = cli(['lint', '--format', 'json', '.'], dir);
  expect(run.code, run.stderr).not.toBe(2);
  const doc = JSON.parse(run.stdout) as { files: JsonFile[]; summary: { files: number } };
  const reported = new Map<string, Set<number>>();
  for (const f of doc.files) reported.set(f.path, new Set([...f.findings, ...f.suppressed].filter((x) => x.severity !== 'info').map((x) => x.line)));
  const missing: string[] = [];
  const scannedFiles = listScanned(dir);
  for (const rel of scannedFiles) {
    const text = fs.readFileSync(path.join(dir, rel), 'utf8');
    if (!text.includes(V1)) continue;
    const markdown = !!commentSyntaxFor(rel).fences;
    // An HTML page's markup is text for readers, like Markdown prose.
    const code = /\.html?$/.test(rel) ? codeRanges(text, rel) : null;
    const lineStarts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];
    walkCommentLines(text, rel, (i, line, syntax, inBlock, fenced) => {
      const at = line.indexOf(V1);
      if (at < 0 || /[\w-]/.test(line.charAt(at + V1.length))) return;
      // Code only: not a comment, not Markdown prose, not a page's markup.
      if ((markdown && !fenced) || insideComment(line.slice(0, at), syntax, inBlock)) return;
      if (code && !code.some(([s, e]) => lineStarts[i]! + at >= s && lineStarts[i]! + at < e)) return;
      if (!reported.get(rel)?.has(i + 1)) missing.push(`${rel}:${i + 1}`);
    });
  }
  return { scanned: doc.summary.files, missing };
}

/** Files lint scans: the kinds it discovers (JS/TS, the text engine's languages, the languages it only lists), outside the folders it always skips. */
function listScanned(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!NEVER_SCANNED_DIRS.includes(e.name) && !DEFAULT_SKIPPED_DIRS.includes(e.name)) walk(r);
      } else if ((SCANNED.test(e.name) || otherLanguageOf(e.name)) && !isOwnReport(path.join(dir, r))) out.push(r);
    }
  };
  walk('');
  return out;
}
/** The tool's own JSON reports and fixture expectations (findings with rule ids) are not scanned. */
const isOwnReport = (file: string): boolean => file.endsWith('.json') && fs.readFileSync(file, 'utf8').includes('"ruleId"');
const SCANNED = /\.(m|c)?(j|t)sx?$|\.(py|sh|bash|zsh|ya?ml|json|toml|md|http|tf|env)$|^\.env|^Dockerfile/;

describe('gate invariant: no v1 base URL without a warning or error at its line', () => {
  it('holds on every fixture', () => {
    const dir = tempProject({});
    copyDir(path.join(REPO, 'fixtures'), path.join(dir, 'fixtures'));
    const { scanned, missing } = unreported(dir);
    expect(scanned).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });

  it('holds for a base no engine sees used: a shell library that only defines it', () => {
    const dir = tempProject({ 'lib/common.sh': '#!/usr/bin/env bash\nAPI_BASE="${API_BASE:-https://rest.runpod.io/v1}"\n' });
    const run = cli(['lint', '.'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/lib\/common\.sh\n {2}2:\d+ {2}error {2}REST v1 base URL/);
    expect(unreported(dir).missing).toEqual([]);
  });

  it('holds in languages neither engine reads: each v1 URL in their code is an other-language error with its v2 form', () => {
    const dir = tempProject({
      'svc/pods.go': 'package svc\n\n// was https://rest.runpod.io/v1 before the move\nconst listURL = "https://rest.runpod.io/v1/pods"\n\nfunc stopURL(id string) string { return "https://rest.runpod.io/v1/pods/" + id + "/stop" }\n',
      'web/pods.php': '<?php\n# list and start\n$res = file_get_contents("https://rest.runpod.io/v1/pods/{$id}/start", false, $ctx);\n',
      'ops/Stop-Pod.ps1': '<# https://rest.runpod.io/v1 is retired #>\nInvoke-RestMethod -Uri "https://rest.runpod.io/v1/pods/$($pod.id)/stop" -Method Post\nInvoke-RestMethod -Uri "https://rest.runpod.io/v1/pods" # v2-migrate-keep-v1 -- the audit job reads v1 until Friday\n',
      'ok/client.rb': 'BASE = "https://api.runpod.io/v2"\n',
    });
    const run = cli(['lint', '--format', 'json', '.'], dir);
    expect(run.code).toBe(1);
    const doc = JSON.parse(run.stdout) as { files: JsonFile[] };
    const got = doc.files.flatMap((f) => f.findings.map((x) => `${f.path}:${x.line}:${x.column} ${x.ruleId} ${x.severity} ${x.message!.match(/in v2: [^.]*|is not a documented[^.]*|the path goes on[^.]*/)?.[0]}`));
    expect(got).toEqual([
      'ops/Stop-Pod.ps1:2:25 other-language error in v2: POST /pods/{podId}/stop → POST /v2/pods/{id}/action {"action":"stop"}',
      'svc/pods.go:4:18 other-language error in v2: GET /pods → GET /v2/pods; POST /pods → POST /v2/pods',
      'svc/pods.go:6:42 other-language error the path goes on past /pods/ where the code builds it, so its v2 form depends on the rest (the resource renames, /action and /update changes of v2 may apply)',
      'web/pods.php:3:27 other-language error in v2: POST /pods/{podId}/start → POST /v2/pods/{id}/action {"action":"start"}',
    ]);
    expect(doc.files.find((f) => f.path === 'ops/Stop-Pod.ps1')!.suppressed.map((x) => x.line)).toEqual([3]);
    expect(unreported(dir).missing).toEqual([]);
  });

  it('a v1 URL in a component\'s markup (not its <script> code) is an error that says so', () => {
    const dir = tempProject({
      'src/Pod.svelte': '<script>\n  export let id;\n</script>\n<a href="https://rest.runpod.io/v1/pods/{id}">raw</a>\n',
    });
    const run = cli(['lint', '.'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/4:10 {2}error {2}REST v1 base URL https:\/\/rest\.runpod\.io\/v1 is still here.*in this component's markup, and v2-migrate rewrites only its <script> code/);
    expect(unreported(dir).missing).toEqual([]);
  });

  it('an HTML page\'s text is prose (info), its <script> code is gated', () => {
    const dir = tempProject({
      'site/index.html': '<p>The old API lived at <a href="https://rest.runpod.io/v1/pods">https://rest.runpod.io/v1/pods</a>.</p>\n<script>\n  const API = "https://rest.runpod.io/v1";\n  fetch(API + "/pods/" + id + "/whatever");\n</script>\n',
    });
    const run = cli(['lint', '--format', 'json', '.'], dir);
    const doc = JSON.parse(run.stdout) as { files: JsonFile[] };
    expect(doc.files[0]!.findings.map((x) => `${x.line}:${x.column} ${x.ruleId} ${x.severity}`)).toEqual(['1:34 prose-url info', '3:15 base-url error', '4:3 unknown-path error']);
    expect(unreported(dir).missing).toEqual([]);
  });

  it('leaves comments and Markdown prose alone: they are not code', () => {
    const dir = tempProject({
      'client.py': 'BASE = "https://api.runpod.io/v2"  # was https://rest.runpod.io/v1 until the migration\n# OLD_BASE = "https://rest.runpod.io/v1"\n',
      'client.ts': "/**\n * Talks to REST v2; https://rest.runpod.io/v1 is retired.\n */\nexport const BASE = 'https://api.runpod.io/v2'; // not https://rest.runpod.io/v1\n",
      'run.sh': '#!/bin/sh\n# formerly https://rest.runpod.io/v1/pods\ncurl -s "https://api.runpod.io/v2/pods"\n',
    });
    const run = cli(['lint', '.'], dir);
    expect(run.stdout).toMatch(/0 errors, 0 warnings, 0 info/);
    expect(run.code).toBe(0);
  });

  it('a marked line stays out of the gate', () => {
    const dir = tempProject({ 'lib/common.sh': '#!/usr/bin/env bash\nAPI_BASE="${API_BASE:-https://rest.runpod.io/v1}"  # rp-migrate: keep-v1 (pinned by the ops team)\n' });
    const run = cli(['lint', '.'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1 kept on purpose');
  });

  it('correct v2 code gives no finding: a v2 flashboot enum next to a v2 call', () => {
    const v2 = fs.readFileSync(path.join(REPO, 'fixtures/text/python/v2_serverless.py'), 'utf8');
    const dir = tempProject({ 'deploy.py': v2.slice(0, v2.indexOf('\n\ndef legacy_deploy')) + '\n' });
    const run = cli(['lint', '.'], dir);
    expect(run.stdout).toContain('0 errors, 0 warnings, 0 info');
    expect(run.code).toBe(0);
  });

  it('v1 code marked keep-v1 (a line, a wrapper\'s request, a region with its body) stays out of the gate', () => {
    const dir = tempProject({});
    fs.copyFileSync(path.join(REPO, 'fixtures/text/python/rollback_flag.py'), path.join(dir, 'pods.py'));
    const doc = JSON.parse(cli(['lint', '--format', 'json', '.'], dir).stdout) as { files: JsonFile[] };
    expect(doc.files[0]!.findings).toEqual([]);
    expect(doc.files[0]!.suppressed.map((f) => `${f.line} ${f.ruleId}`)).toEqual(['8 base-url', '15 pod-action', '27 body-field', '27 body-field', '27 body-field', '27 body-field']);
    expect(cli(['lint', '.'], dir).code).toBe(0);
  });

  const mirror = process.env.MIRROR_ROOT;
  const clients = realClientTrees();
  it.skipIf(!clients)('holds on every real client (MIRROR_ROOT)', () => {
    const missing: string[] = [];
    for (const { repo, dir } of clients ?? []) missing.push(...unreported(dir()).missing.map((m) => `${repo} ${m}`));
    expect(missing).toEqual([]);
  }, 600_000);

  // RunPod's own helper's regression corpora (testdata/runpod-migrate/ of runpod/runpod-plugins-official),
  // read from the mirror, never copied: what its CI asserts holds for lint in the REST scope.
  const plugins = mirror ? path.join(mirror, 'runpod+runpod-plugins-official', 'repo') : '';
  it.skipIf(!plugins || !fs.existsSync(plugins))("agrees with RunPod's helper on its regression corpora (MIRROR_ROOT)", () => {
    const root = tempProject({});
    execFileSync('bash', ['-c', `git --git-dir="${plugins}" archive HEAD testdata/runpod-migrate | tar -x -C "${root}"`]);
    const lint = (corpus: string): { code: number | null; files: Map<string, JsonFile> } => {
      const dir = path.join(root, 'testdata', 'runpod-migrate', corpus);
      const run = cli(['lint', '--format', 'json', '.'], dir);
      const doc = JSON.parse(run.stdout) as { files: JsonFile[] };
      expect(unreported(dir).missing).toEqual([]);
      return { code: run.code, files: new Map(doc.files.map((f) => [f.path, f])) };
    };
    const gated = (f: JsonFile | undefined): JsonFinding[] => f?.findings ?? [];

    const correct = lint('correct-v2');
    expect([...correct.files.values()].flatMap(gated)).toEqual([]);
    expect(correct.code).toBe(0);

    const markers = lint('markers');
    expect([...markers.files.values()].flatMap(gated)).toEqual([]);
    expect(markers.code).toBe(0);

    const migrated = lint('migrated-v2');
    expect(gated(migrated.files.get('gpu_farm/endpoints.py'))).toEqual([]);
    expect(migrated.files.get('gpu_farm/runpod_client.py')!.suppressed.length).toBeGreaterThan(0);
    // The unmarked `if USE_V1:` branch (a v1 response read) is what stays in the gate; requests on
    // `V1_BASE if USE_V1 else V2_BASE` with the v1 side marked are v2 with a kept fallback.
    expect(gated(migrated.files.get('gpu_farm/runpod_client.py')).map((f) => f.ruleId)).toEqual(['response-field', 'response-field']);

    const indirect = lint('indirection');
    for (const file of ['config/settings.yaml', '.env.example', 'gen/openapi.json']) expect(gated(indirect.files.get(file)).map((f) => f.ruleId), file).toContain('base-url');
    // client.py builds its paths on settings.yaml's base_url: that base cannot move before them.
    expect(gated(indirect.files.get('config/settings.yaml')).find((f) => f.ruleId === 'base-url')).toMatchObject({ fixable: false });
    expect(gated(indirect.files.get('app/client.py')).map((f) => f.ruleId)).toContain('unresolved-url');
    expect(gated(indirect.files.get('app/report.py')).map((f) => f.ruleId)).toEqual(['response-field', 'response-field']);
  }, 120_000);
});
