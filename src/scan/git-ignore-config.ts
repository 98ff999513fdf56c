import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitOutput } from '../run/git-command.js';
import { ignoreRules, type IgnoreRules } from './ignore-rules.js';

/** How git ignores files in a work tree, beyond its .gitignore files. */
export interface GitIgnoreConfig {
  /**
   * `core.excludesFile` (or its default, `$XDG_CONFIG_HOME/git/ignore`) and then the repository's
   * `info/exclude`, later winning, as git orders them; null when neither has a rule. A file ignored
   * only there (a local `.env`) is one the user never meant to share, so the tool neither reads nor
   * rewrites it.
   */
  excludes: IgnoreRules | null;
  /** `core.ignoreCase`: whether patterns match names in any case (git sets it on case-insensitive file systems). */
  ignoreCase: boolean;
}

/** Where git cannot say: the file system's usual case rule. */
const PLATFORM_IGNORE_CASE = process.platform === 'darwin' || process.platform === 'win32';

/**
 * Git is asked once for both settings and once where `info/exclude` lives (a linked worktree keeps it
 * in the main repository), the two at the same time. Outside a work tree (`top` null): no excludes,
 * and the platform's case rule.
 */
export async function gitIgnoreConfig(top: string | null): Promise<GitIgnoreConfig> {
  if (!top) return { excludes: null, ignoreCase: PLATFORM_IGNORE_CASE };
  const [config, local] = await Promise.all([gitOutput(['config', '-z', '--path', '--get-regexp', '^core\\.(excludesfile|ignorecase)$'], top), gitOutput(['rev-parse', '--git-path', 'info/exclude'], top)]);
  // -z: each entry is `key\nvalue\0` (keys in lower case).
  const settings = new Map((config ?? '').split('\0').filter(Boolean).map((entry) => [entry.slice(0, entry.indexOf('\n')), entry.slice(entry.indexOf('\n') + 1)] as const));
  const ignoreCase = settings.has('core.ignorecase') ? /^(true|yes|on|1)$/i.test(settings.get('core.ignorecase')!) : PLATFORM_IGNORE_CASE;
  const xdg = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  const global = settings.get('core.excludesfile') || path.join(xdg, 'git', 'ignore');
  const localFile = local?.trim();
  const texts = [global, localFile && path.resolve(top, localFile)].flatMap((file) => {
    if (!file) return [];
    try {
      return [fs.readFileSync(file, 'utf8')];
    } catch {
      return [];
    }
  });
  return { excludes: texts.some((t) => /^[^#\s]/m.test(t)) ? ignoreRules(texts.join('\n'), ignoreCase) : null, ignoreCase };
}
