/**
 * What the editor paths (ESLint, --stdin) rest on: the engine's `changesWith` (which files' changes
 * come from the same requests), LiveProject's (those and the other changed files of the write group),
 * and LiveProject's reuse and refresh of one root's analysis.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings, settingsResolver } from '../src/config.js';
import { migrateProject } from '../src/pipeline/js.js';
import { LiveProject } from '../src/live/project.js';
import { tempProject } from './helpers.js';

const BASES = { legacy: ['https://rest.runpod.io/v1'], target: 'https://api.runpod.io/v2' };
const CONSTANTS = "export const REST = 'https://rest.runpod.io/v1';\n";
const VOLUMES = "import { REST } from './constants';\nexport const volumes = () => fetch(`${REST}/networkvolumes`);\n";
const ALONE = "export const endpoints = () => fetch('https://rest.runpod.io/v1/endpoints');\n";
const INDEX = "export * from './volumes';\nexport * from './alone';\n";

describe('changesWith', () => {
  it('joins the files one request edits (a base and the path built on it), not every file the imports connect', () => {
    const results = migrateProject(
      [
        { file: '/p/alone.ts', source: ALONE },
        { file: '/p/constants.ts', source: CONSTANTS },
        { file: '/p/index.ts', source: INDEX },
        { file: '/p/volumes.ts', source: VOLUMES },
      ],
      // How the run resolves the imports (run/project.ts hands the engine this table).
      { bases: BASES, imports: { '/p/volumes.ts': { './constants': '/p/constants.ts' }, '/p/index.ts': { './volumes': '/p/volumes.ts', './alone': '/p/alone.ts' } } },
    );
    expect(results.get('/p/constants.ts')!.changesWith).toEqual(['/p/volumes.ts']);
    expect(results.get('/p/volumes.ts')!.changesWith).toEqual(['/p/constants.ts']);
    expect(results.get('/p/alone.ts')!.output).not.toBeNull();
    expect(results.get('/p/alone.ts')!.changesWith).toBeUndefined();
    expect(results.get('/p/index.ts')!.output).toBeNull();
  });
});

describe('LiveProject', () => {
  function live(dir: string): LiveProject {
    const load = () => {
      const settings = loadSettings({ searchFrom: dir });
      return { settings, settingsFor: settingsResolver({ searchFrom: dir }, settings) };
    };
    return new LiveProject({ root: dir, load });
  }

  it("answers from one analysis, re-analyses a file's component for other text, and sees files written since", async () => {
    const dir = tempProject({ 'constants.ts': CONSTANTS, 'volumes.ts': VOLUMES, 'alone.ts': ALONE, 'index.ts': INDEX });
    const project = live(dir);
    const file = (name: string) => path.join(dir, name);
    const volumes = await project.answer(file('volumes.ts'), VOLUMES);
    const rules = (a: { findings: Array<{ ruleId: string }> }) => a.findings.map((f) => f.ruleId);
    expect(rules(volumes)).toContain('resource-path');
    expect(rules(volumes)).not.toContain('pod-action');
    // The engine's (the base volumes.ts builds on), then the rest of the write group: index.ts joins alone.ts.
    expect(volumes.changesWith).toEqual([file('constants.ts'), file('alone.ts')]);
    // Unsaved text: the same component with the new text (the base it imports still resolves).
    const edited = await project.answer(file('volumes.ts'), `${VOLUMES}export const stop = (id: string) => fetch(\`\${REST}/pods/\${id}/stop\`, { method: 'POST' });\n`);
    expect(rules(edited)).toEqual([...rules(volumes), 'pod-action']);
    // A file written after the analysis was built: analysed with the files it imports.
    const later = "import { REST } from './constants';\nexport const templates = () => fetch(`${REST}/templates/t1/update`, { method: 'POST', body: '{}' });\n";
    fs.writeFileSync(file('later.ts'), later);
    const answer = await project.answer(file('later.ts'), later);
    expect(rules(answer)).toContain('update-alias');
    // A file the analysis used changed on disk (the base is v2 already): the next answer for its component follows.
    await new Promise((r) => setTimeout(r, 300));
    fs.writeFileSync(file('constants.ts'), "export const REST = 'https://api.runpod.io/v2';\n");
    const after = await project.answer(file('volumes.ts'), VOLUMES);
    expect(rules(after)).toContain('resource-path');
    // constants.ts no longer changes; alone.ts still does, in the same write group, and so does later.ts (its
    // /update path on the v2 base is migrated like any v1 path left on v2).
    expect(after.changesWith).toEqual([file('alone.ts'), file('later.ts')]);
  });
});
