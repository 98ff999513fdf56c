import path from 'node:path';
import { firstLine, git as runGit, gitMissing, GitError } from './git-command.js';

/** Where a shallow clone lacks what --changed-since compares: the usual CI checkout. */
const FULL_CHECKOUT = 'in GitHub Actions check out with fetch-depth: 0';

/**
 * Files changed since a git ref: committed since the merge base with it, plus uncommitted and
 * untracked files (what a pull request adds). Absolute paths. Throws a GitError, in one line, when
 * git cannot answer: no git, no work tree, a ref it does not know or a history too shallow to compare.
 */
export function changedSince(ref: string, cwd: string): Set<string> {
  const flag = `--changed-since ${ref}`;
  // A ref never starts with "-": git would read it as an option (diff --output=… writes a file).
  if (ref.startsWith('-')) throw new GitError(`${flag}: not a git ref`);
  const git = (args: string[]): string => {
    const r = runGit(args, cwd);
    if (gitMissing(r)) throw new GitError(`${flag} needs git, which is not on PATH: install git, or drop --changed-since`);
    if (r.status !== 0) throw new GitError(`${flag}: git ${args[0]} failed: ${firstLine(r.stderr) || r.error?.message || 'no answer'}`);
    return r.stdout;
  };
  const root = git(['rev-parse', '--show-toplevel']).trim();
  const mergeBase = runGit(['merge-base', ref, 'HEAD'], cwd);
  if (mergeBase.status !== 0) throw new GitError(`${flag}: ${whyNoMergeBase(ref, cwd, mergeBase.status, mergeBase.stderr)}`);
  const lines = [
    ...git(['diff', '--name-only', '-z', mergeBase.stdout.trim(), 'HEAD']).split('\0'),
    ...git(['diff', '--name-only', '-z', 'HEAD']).split('\0'),
    ...git(['ls-files', '--others', '--exclude-standard', '-z']).split('\0').map((f) => path.relative(root, path.resolve(cwd, f))),
  ];
  return new Set(lines.filter(Boolean).map((f) => path.resolve(root, f)));
}

/** Why `git merge-base <ref> HEAD` gave no commit: the ref is unknown, or the histories do not meet (here). */
function whyNoMergeBase(ref: string, cwd: string, status: number | null, stderr: string): string {
  const shallow = runGit(['rev-parse', '--is-shallow-repository'], cwd).stdout.trim() === 'true';
  const known = runGit(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd).status === 0;
  if (!known) return shallow ? `${ref} is not in this shallow clone: ${FULL_CHECKOUT}; elsewhere fetch the history (git fetch --unshallow) and the branch` : `no commit ${ref} in this repository (a branch, tag or commit it has; fetch a remote branch first)`;
  // merge-base answers 1, and nothing else, when the two share no commit.
  if (status === 1) return shallow ? `this shallow clone does not reach the commit HEAD branched from ${ref}: ${FULL_CHECKOUT}; elsewhere fetch the history (git fetch --unshallow)` : `${ref} and HEAD have no commit in common`;
  return `git merge-base failed: ${firstLine(stderr) || 'no answer'}`;
}
