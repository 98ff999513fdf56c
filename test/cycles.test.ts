import path from 'node:path';
import { cruise } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers.js';

/**
 * No import cycles in the tool's own modules, checked by dependency-cruiser on what tsc emits
 * (dist/src, built before the tests): the imports that run. dependency-cruiser reads TypeScript
 * through the `typescript` API, which the native TypeScript 7 compiler does not ship; type-only
 * imports are erased in the output and cannot change load order.
 */
describe('module graph', () => {
  it('has no import cycles in src/', async () => {
    const result = await cruise([path.join(REPO, 'dist', 'src')], {
      validate: true,
      ruleSet: { forbidden: [{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } }] },
      exclude: { path: 'node_modules' },
      doNotFollow: { path: 'node_modules' },
    });
    const output = result.output as { modules: unknown[]; summary: { violations: Array<{ from: string; cycle?: Array<{ name: string }> }> } };
    expect(output.modules.length).toBeGreaterThan(100);
    const cycles = output.summary.violations.map((v) => [v.from, ...(v.cycle ?? []).map((c) => c.name)].join(' → '));
    expect(cycles).toEqual([]);
  });
});
