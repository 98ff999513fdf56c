import path from 'node:path';
import { git as runGit } from './git-command.js';

/**
 * Files changed since a git ref: committed since the merge base with it, plus uncommitted and
 * untracked files (what a pull request adds). Absolute paths. Throws when git cannot answer.
 */
export function changedSince(ref: string, cwd: string): Set<string> {
  const git = (args: string[]): string => {
    const r = runGit(args, cwd);
    if (r.status !== 0) throw new Error(`--changed-since ${ref}: git ${args[0]} failed: ${(r.stderr || '').trim() || 'not a git work tree?'}`);
    return r.stdout;
  };
  const root = git(['rev-parse', '--show-toplevel']).trim();
  const lines = [
    ...git(['diff', '--name-only', '-z', `${ref}...HEAD`]).split('\0'),
    ...git(['diff', '--name-only', '-z', 'HEAD']).split('\0'),
    ...git(['ls-files', '--others', '--exclude-standard', '-z']).split('\0').map((f) => path.relative(root, path.resolve(cwd, f))),
  ];
  return new Set(lines.filter(Boolean).map((f) => path.resolve(root, f)));
}
