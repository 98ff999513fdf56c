/**
 * Secrets in output (README "Secrets in reports"): a `.env`-like file's dry-run diff shows only its
 * changed lines, and a value that looks secret (a secret key's value, a URL's password, a RunPod API
 * key, a bearer token) is masked wherever a report would print it: diffs, and finding messages in
 * every format (text, json, sarif, github, markdown) and in ESLint.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../dist/src/eslint/index.js';
import { maskEnvLine, maskSecrets } from '../src/report/secrets.js';
import { cli, tempProject } from './helpers.js';

const SECRETS = ['rpa_K3Y0123456789ABCDEF', 'hunter2', 'rpa_QUERY42', 'proxypass', 's3cr3t-token'];

const leaked = (text: string): string[] => SECRETS.filter((s) => text.includes(s));

describe('maskSecrets', () => {
  it('masks secret values and leaves everything else as it is', () => {
    const cases: Array<[string, string]> = [
      ['postgres://app:hunter2@db.internal/app', 'postgres://app:***@db.internal/app'],
      ['https://rest.runpod.io/v1/pods?api_key=rpa_QUERY42&x=1', 'https://rest.runpod.io/v1/pods?api_key=***&x=1'],
      ['key rpa_K3Y0123456789ABCDEF in prose', 'key *** in prose'],
      ['Authorization: Bearer s3cr3t-token', 'Authorization: Bearer ***'],
      ["headers: { Authorization: 'Bearer s3cr3t-token' }", "headers: { Authorization: '***' }"],
      ['const RUNPOD_API_KEY = "s3cr3t-token";', 'const RUNPOD_API_KEY = "***";'],
      ['{ "apiToken": "s3cr3t-token", "name": "pods" }', '{ "apiToken": "***", "name": "pods" }'],
      ['DB_PASSWORD=hunter2 npm start', 'DB_PASSWORD=*** npm start'],
      // Not secrets: a key read at run time, a template, a host's port, ordinary names and sentences.
      ['const apiKey = process.env.RUNPOD_API_KEY;', 'const apiKey = process.env.RUNPOD_API_KEY;'],
      ['headers: { Authorization: `Bearer ${key}` }', 'headers: { Authorization: `Bearer ${key}` }'],
      ['https://proxy.internal:8443/v1/pods', 'https://proxy.internal:8443/v1/pods'],
      ["fetch(url, { method: 'POST', body: JSON.stringify({ action: 'stop' }) })", "fetch(url, { method: 'POST', body: JSON.stringify({ action: 'stop' }) })"],
      ['REST v1 base URL https://rest.runpod.io/v1 becomes https://api.runpod.io/v2: v1 was retired on 2026-11-15.', 'REST v1 base URL https://rest.runpod.io/v1 becomes https://api.runpod.io/v2: v1 was retired on 2026-11-15.'],
    ];
    for (const [text, masked] of cases) expect(maskSecrets(text), text).toBe(masked);
  });

  it('.env lines: a secret key loses its whole value; another key keeps its value with secrets in it masked', () => {
    expect(maskEnvLine('RUNPOD_API_KEY=some-plain-value')).toBe('RUNPOD_API_KEY=***');
    expect(maskEnvLine('export DB_PASSWORD="hunter2" # prod')).toBe('export DB_PASSWORD=***');
    expect(maskEnvLine('DATABASE_URL=postgres://app:hunter2@db.internal/app')).toBe('DATABASE_URL=postgres://app:***@db.internal/app');
    expect(maskEnvLine('RUNPOD_API_URL=https://api.runpod.io/v2')).toBe('RUNPOD_API_URL=https://api.runpod.io/v2');
    expect(maskEnvLine('# RUNPOD_API_KEY is set in CI')).toBe('# RUNPOD_API_KEY is set in CI');
  });
});

describe('--dry-run of a .env file', () => {
  it('shows only the changed lines, with no context and no unchanged value, and a changed line that holds a secret masked', () => {
    const dir = tempProject({
      '.env': [
        'RUNPOD_API_KEY=rpa_K3Y0123456789ABCDEF',
        'DATABASE_URL=postgres://app:hunter2@db.internal/app',
        'RUNPOD_API_URL=https://rest.runpod.io/v1',
        'LOG_LEVEL=debug',
        'RUNPOD_PODS_URL=https://rest.runpod.io/v1/pods?api_key=rpa_QUERY42',
        '',
      ].join('\n'),
      'src/config.js': "export const RUNPOD_API = process.env.RUNPOD_API_URL ?? 'https://rest.runpod.io/v1';\nexport const PODS = process.env.RUNPOD_PODS_URL;\n",
    });
    const r = cli(['--dry-run'], dir);
    expect(r.stdout).toBe(
      [
        'diff --git a/.env b/.env',
        '--- a/.env',
        '+++ b/.env',
        '@@ -3,1 +3,1 @@',
        '-RUNPOD_API_URL=https://rest.runpod.io/v1',
        '+RUNPOD_API_URL=https://api.runpod.io/v2',
        '@@ -5,1 +5,1 @@',
        '-RUNPOD_PODS_URL=https://rest.runpod.io/v1/pods?api_key=***',
        '+RUNPOD_PODS_URL=https://api.runpod.io/v2/pods?api_key=***',
        '',
        'diff --git a/src/config.js b/src/config.js',
        '--- a/src/config.js',
        '+++ b/src/config.js',
        '@@ -1,2 +1,2 @@',
        "-export const RUNPOD_API = process.env.RUNPOD_API_URL ?? 'https://rest.runpod.io/v1';",
        "+export const RUNPOD_API = process.env.RUNPOD_API_URL ?? 'https://api.runpod.io/v2';",
        ' export const PODS = process.env.RUNPOD_PODS_URL;',
        '',
        '.env',
        '  3:16  error  REST v1 base URL https://rest.runpod.io/v1 becomes https://api.runpod.io/v2: v1 was retired on 2026-11-15. Deployments may still set RUNPOD_API_URL to a v1 URL: update it there too. (fixable)  base-url',
        '  5:17  error  REST v1 base URL https://rest.runpod.io/v1 becomes https://api.runpod.io/v2: v1 was retired on 2026-11-15. Deployments may still set RUNPOD_PODS_URL to a v1 URL: update it there too. (fixable)  base-url',
        '',
        'src/config.js',
        '  1:57  error  REST v1 base URL https://rest.runpod.io/v1 becomes https://api.runpod.io/v2: v1 was retired on 2026-11-15. (fixable)  base-url',
        '',
        '2 files scanned, 2 files would change: 3 errors, 0 warnings, 0 info (3 fixable by running v2-migrate).',
        'Exit code 1: changes pending (run without --dry-run to write them).',
        '',
      ].join('\n'),
    );
    expect(leaked(r.stdout + r.stderr)).toEqual([]);
  });

  it('in code, a context line with a secret literal is shown masked', () => {
    const dir = tempProject({ 'src/api.js': "const RUNPOD_API_KEY = 'rpa_K3Y0123456789ABCDEF';\nexport const pods = () => fetch('https://rest.runpod.io/v1/pods', { headers: { Authorization: `Bearer ${RUNPOD_API_KEY}` } });\n" });
    const r = cli(['--dry-run', '--format', 'text'], dir);
    expect(r.stdout).toContain("@@ -1,2 +1,4 @@\n const RUNPOD_API_KEY = '***';\n-export const pods");
    expect(leaked(r.stdout + r.stderr)).toEqual([]);
  });
});

describe('finding messages in every format', () => {
  // A proxy of v1 whose URL carries its credentials: the base-url message names the base (held here by a path built at run time, so it is a decision too).
  const PROXY = 'https://svc:proxypass@runpod-proxy.internal/v1';
  const MESSAGE =
    'REST v1 base URL https://svc:***@runpod-proxy.internal/v1 becomes https://api.runpod.io/v2: v1 was retired on 2026-11-15. Not rewritten: a request on this base cannot move to v2 as it is (line 2, dynamic-path: its path is built at run time, so what v2 would answer cannot be known); the base and every request on it move together. Settle that request, then run again.';
  const project = () =>
    tempProject({
      'v2-migrate.config.json': JSON.stringify({ legacyBaseUrls: [PROXY] }),
      'src/api.js': `const API = '${PROXY}';\nexport const list = (kind) => fetch(\`\${API}/\${kind}\`, { method: 'GET' });\n`,
    });

  it('text, json, sarif, github and markdown print the message masked', () => {
    const dir = project();
    const lint = (format: string) => {
      const r = cli(['lint', '--format', format], dir);
      expect(r.code, format).toBe(1);
      expect(leaked(r.stdout + r.stderr), format).toEqual([]);
      return r.stdout;
    };
    expect(lint('text')).toContain(`\n  1:13  error  ${MESSAGE}  base-url\n`);
    expect(JSON.parse(lint('json')).files[0].findings[0].message).toBe(MESSAGE);
    expect(JSON.parse(lint('sarif')).runs[0].results[0].message.text).toBe(MESSAGE);
    expect(lint('github')).toContain(`::error file=src/api.js,line=1,col=13,title=base-url::${MESSAGE}\n`);
    expect(lint('markdown')).toContain(`\n- \`src/api.js:1\` — ${MESSAGE}\n`);
  });

  it('ESLint reports the message masked', async () => {
    const dir = project();
    const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: [plugin.configs.recommended] });
    const results = await eslint.lintFiles(['src/api.js']);
    expect(results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'v2-migrate/base-url').map((m) => m.message))).toEqual([MESSAGE]);
  });
});
