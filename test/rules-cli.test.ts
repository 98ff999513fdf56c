import { describe, expect, it } from 'vitest';
import { RULES, RULE_IDS } from '../src/rules/registry.js';
import { RULE_DOCS, closestRuleId, explainText } from '../src/rules/docs.js';
import { cli, tempProject } from './helpers.js';

describe('v2-migrate rules', () => {
  const dir = tempProject({});

  it('lists every rule with severity, fixable flag and one line of doc', () => {
    const r = cli(['rules'], dir);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    for (const id of RULE_IDS) {
      const line = lines.find((l) => l.startsWith(`${id} `));
      expect(line, id).toBeDefined();
      expect(line).toContain(RULES[id].severity);
      expect(line).toContain(RULES[id].fixable ? 'fixable' : 'manual');
      expect(line).toContain(RULES[id].summary);
    }
  });

  it('--format json', () => {
    const r = cli(['rules', '--format', 'json'], dir);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.rules.map((x: { id: string }) => x.id)).toEqual(RULE_IDS);
    expect(doc.rules.find((x: { id: string }) => x.id === 'pod-reset')).toEqual({ id: 'pod-reset', severity: 'error', fixable: false, summary: RULES['pod-reset'].summary });
  });

  it('--format markdown is a table; sarif is a usage error', () => {
    expect(cli(['rules', '--format', 'markdown'], dir).stdout).toMatch(/^\| rule \| severity \| fix \| what \|\n\|---/);
    expect(cli(['rules', '--format', 'sarif'], dir).code).toBe(2);
  });
});

describe('v2-migrate explain', () => {
  const dir = tempProject({});

  it('prints the doc with a before/after example', () => {
    const r = cli(['explain', 'pod-action'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^pod-action {2}\(error, fixable/);
    expect(r.stdout).toContain(RULES['pod-action'].summary);
    expect(r.stdout).toContain('Before:\n    await fetch(`${BASE}/pods/${id}/stop`');
    expect(r.stdout).toContain("After (v2-migrate writes):\n    await fetch(`${BASE}/pods/${id}/action`");
    const manual = cli(['explain', 'pod-reset'], dir).stdout;
    expect(manual).toContain('After (by hand):');
    expect(manual).toContain('v2-migrate-keep-v1 pod-reset');
  });

  it('--format json and markdown', () => {
    const doc = JSON.parse(cli(['explain', 'update-alias', '--format', 'json'], dir).stdout);
    expect(doc).toMatchObject({ id: 'update-alias', severity: 'error', fixable: true });
    expect(doc.before).toContain('/update');
    expect(doc.after).toContain("'PATCH'");
    expect(cli(['explain', 'update-alias', '--format', 'markdown'], dir).stdout).toMatch(/^## `update-alias`\n[\s\S]*```ts\n/);
  });

  it('exits 2 with a helpful message for an unknown id', () => {
    const r = cli(['explain', 'pod-rest'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown rule id "pod-rest". Did you mean "pod-reset"?');
    expect(r.stderr).toContain('v2-migrate rules');
    const far = cli(['explain', 'zzzzzzzzzzzz'], dir);
    expect(far.code).toBe(2);
    expect(far.stderr).not.toContain('Did you mean');
    expect(cli(['explain'], dir).code).toBe(2);
    expect(closestRuleId('BASE-URL')).toBe('base-url');
  });

  it('every documented example is non-empty and every rule explains', () => {
    for (const [id, d] of Object.entries(RULE_DOCS)) {
      expect(d!.doc.length, id).toBeGreaterThan(80);
      expect(d!.before, id).not.toBe('');
      expect(d!.after, id).not.toBe('');
    }
    for (const id of RULE_IDS) expect(explainText(id), id).toContain(RULES[id].summary);
  });
});

describe('rule docs', () => {
  it('document every registered rule', async () => {
    const { undocumentedRules } = await import('../src/rules/docs.js');
    expect(undocumentedRules()).toEqual([]);
  });
});
