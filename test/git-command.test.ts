import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../src/run/git-command.js';
import { tempProject } from './helpers.js';

describe('git as the tool runs it', () => {
  it('never runs a command the checkout names in its own config (core.fsmonitor)', () => {
    const dir = tempProject({ 'a.ts': 'export {};\n' });
    const marker = path.join(dir, 'ran');
    const init = spawnSync('git', ['init', '-q'], { cwd: dir });
    if (init.status !== 0) return void console.warn('skipped: git is not available');
    fs.writeFileSync(path.join(dir, 'hook.sh'), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    spawnSync('git', ['config', 'core.fsmonitor', path.join(dir, 'hook.sh')], { cwd: dir });
    // The hook runs when git is asked plainly (so the test can fail), and not when the tool asks.
    spawnSync('git', ['status', '--porcelain'], { cwd: dir });
    const plainRan = fs.existsSync(marker);
    fs.rmSync(marker, { force: true });
    expect(git(['status', '--porcelain'], dir).status).toBe(0);
    expect(fs.existsSync(marker)).toBe(false);
    if (!plainRan) console.warn('note: this git did not run core.fsmonitor for a plain status either');
  });
});
