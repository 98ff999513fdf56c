import ignore, { type Ignore } from 'ignore';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from '../run/git-command.js';

/**
 * The ignore rules git applies to a work tree beyond its .gitignore files: `core.excludesFile` (or
 * its default, `$XDG_CONFIG_HOME/git/ignore`) and then the repository's `info/exclude`, later winning,
 * as git orders them. A file ignored only there (a local `.env`) is one the user never meant to share,
 * so the tool neither reads nor rewrites it. Git is asked where both live (a linked worktree keeps
 * `info/exclude` in the main repository); null when neither has a rule or git cannot answer.
 */
export function gitExcludes(top: string): Ignore | null {
  const ask = (args: string[]): string | null => {
    const r = git(args, top);
    return r.status === 0 ? r.stdout.trim() || null : null;
  };
  const configured = ask(['config', '--path', '--get', 'core.excludesFile']);
  const xdg = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  const global = configured ?? path.join(xdg, 'git', 'ignore');
  const local = ask(['rev-parse', '--git-path', 'info/exclude']);
  const texts = [global, local && path.resolve(top, local)].flatMap((file) => {
    if (!file) return [];
    try {
      return [fs.readFileSync(file, 'utf8')];
    } catch {
      return [];
    }
  });
  return texts.some((t) => /^[^#\s]/m.test(t)) ? ignore().add(texts.join('\n')) : null;
}
