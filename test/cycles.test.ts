import path from 'node:path';
import { cruise, type IForbiddenRuleType } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers.js';

/** A layer that must not import another: `from` never imports `to` (paths relative to the repository). */
const below = (name: string, comment: string, from: string, to: string): IForbiddenRuleType => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to } });

/**
 * The house's layers, lowest first: the v1/v2 maps and URL model (map/, url/, plan/), the JS analysis
 * (js/), the planners that turn it into findings and edits (rules/), the pipelines that run them
 * (pipeline/; the text engine, text/, calls the JS pipeline for fenced snippets), then the run (run/), the
 * reports and the CLI. Arrows run one way: no module imports one above it, and no cycle, type-only
 * imports included.
 */
const RULES: IForbiddenRuleType[] = [
  { name: 'no-circular', comment: 'no import cycle, type-only imports included', severity: 'error', from: {}, to: { circular: true } },
  below('maps-below-engines', 'the v1/v2 maps and the URL model know nothing of the engines or the run', '^src/(plan|map|url)/', '^src/(js|text|run)/'),
  below('engines-below-run', 'the engines know nothing of the run that calls them (its types live in run/types.ts, not needed below)', '^src/(js|text)/', '^src/run/'),
  below('analysis-below-planners', 'the JS analysis never calls back into the planners or the pipeline above it', '^src/js/', '^src/(rules|pipeline)/'),
  below('planners-below-pipelines', 'the planners never call the pipeline that runs them', '^src/rules/', '^src/pipeline/'),
];

/**
 * The module graph of src/, read from the TypeScript sources with swc (the native TypeScript 7
 * compiler has no API for dependency-cruiser): `import type` counts as an import, so a cycle or a
 * back-import made only of types is caught too.
 */
describe('module graph', () => {
  it('has no import cycle and no import against the layers in src/', async () => {
    const result = await cruise([path.join(REPO, 'src')], {
      validate: true,
      parser: 'swc',
      baseDir: REPO,
      ruleSet: { forbidden: RULES },
      exclude: { path: 'node_modules' },
      doNotFollow: { path: 'node_modules' },
    });
    const output = result.output as { modules: Array<{ source: string; dependencies: Array<{ resolved: string }> }>; summary: { violations: Array<{ rule: { name: string }; from: string; to: string; cycle?: Array<{ name: string }> }> } };
    expect(output.modules.length).toBeGreaterThan(100);
    // Type-only imports are in the graph: report/types.ts reads only the run's types.
    expect(output.modules.find((m) => m.source === 'src/report/types.ts')?.dependencies.map((d) => d.resolved)).toContain('src/run/types.ts');
    const violations = output.summary.violations.map((v) => `${v.rule.name}: ${[v.from, ...(v.cycle?.length ? v.cycle.map((c) => c.name) : [v.to])].join(' → ')}`);
    expect(violations).toEqual([]);
  });
});
