/**
 * The yardstick of issue "v1 is dead" in the suite: ../shared/real-behaviour runs ten real client
 * modules before migration against a v1 stub and after it against a v2 stub, checks every v2 request
 * against the v2 spec and every result against v1's. No scenario may be wrong, and no fewer may be
 * correct than the floor recorded in test/real-behaviour.floor.json, so no later change can quietly
 * undo what the migration does for real code. ../shared is read-only in CI: the harness is copied to a
 * temporary folder (made writable: the tool refuses to write read-only files) with its own `npm ci`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir } from './helpers.js';

const SHARED = path.join(REPO, '..', 'shared');
const HARNESS = path.join(SHARED, 'real-behaviour');
const present = fs.existsSync(path.join(HARNESS, 'run.mjs'));
if (!present) console.warn(`[real-behaviour.test] ${HARNESS} is absent: the real-behaviour yardstick is skipped`);

interface Floor {
  scenarios: number;
  correct: number;
}

describe('real behaviour of migrated real clients (../shared/real-behaviour)', () => {
  it.skipIf(!present)('no scenario is wrong, and no fewer are correct than the recorded floor', () => {
    const floor = JSON.parse(fs.readFileSync(path.join(REPO, 'test', 'real-behaviour.floor.json'), 'utf8')) as Floor;
    const work = tempDir('v2-migrate-behaviour-');
    const harness = path.join(work, 'real-behaviour');
    fs.cpSync(HARNESS, harness, { recursive: true });
    execFileSync('chmod', ['-R', 'u+w', harness]);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: harness, stdio: 'ignore' });
    const run = spawnSync(process.execPath, ['run.mjs', REPO, '--jobs', '2'], {
      cwd: harness,
      encoding: 'utf8',
      maxBuffer: 256 << 20,
      env: { ...process.env, BEHAVIOUR_SPEC_DIR: path.join(SHARED, 'spec'), BEHAVIOUR_TMP: work },
    });
    const last = /real behaviour: (\d+)\/(\d+) scenarios correct, (\d+) held, (\d+) wrong/.exec(run.stdout);
    expect(last, `${run.stdout.slice(-4000)}\n${run.stderr.slice(-2000)}`).not.toBeNull();
    const [, correct, total, , wrong] = last!.map(Number);
    const wrongLines = run.stdout.split('\n').filter((l) => /^\s+WRONG /.test(l));
    expect(wrongLines, 'wrong scenarios').toEqual([]);
    expect(wrong).toBe(0);
    expect(total).toBe(floor.scenarios);
    expect(correct).toBeGreaterThanOrEqual(floor.correct);
  }, 1_800_000);
});
