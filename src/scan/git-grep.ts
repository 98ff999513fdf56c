import os from 'node:os';
import { gitEntries } from '../run/git-command.js';

/** A UTF-16 byte order mark, either way round: the byte screen looks into such a file whatever its bytes. */
const UTF16_MARKS = [Buffer.from([0xff, 0xfe]), Buffer.from([0xfe, 0xff])];

/**
 * Asks `git grep` which tracked files below `dir` (that repository's own, as they are in the work tree)
 * hold one of `needles` as bytes, or a UTF-16 byte order mark anywhere; each is handed to `onMatch`
 * (relative, with '/') as git prints it. git reads the files on its own threads, in C, which is most
 * of what a lint of a tree with no RunPod usage costs otherwise. git reads only regular files (never
 * through a symbolic link). Resolves to whether git answered (false: not installed, or a repository
 * it refuses).
 *
 * Tracked files only: with `--untracked`, git grep also applies the ignore rules to tracked files, and
 * would pass over a tracked file under a .gitignore rule.
 */
export async function grepFiles(dir: string, needles: readonly string[], onMatch: (file: string) => void): Promise<boolean> {
  const { args, input } = grepCommand(needles);
  return (await gitEntries(args, dir, onMatch, { input, exitCodes: [0, 1] })) !== null;
}

/** The `git grep` grepFiles runs, and its standard input. */
export function grepCommand(needles: readonly string[]): { args: string[]; input: Buffer } {
  // One fixed string a line on standard input (a needle could start with '-', and the marks are not UTF-8; an empty line would match every file).
  const input = Buffer.concat([...needles.filter((n) => n.length > 0).map((n) => Buffer.from(n, 'latin1')), ...UTF16_MARKS].flatMap((p) => [p, Buffer.from('\n')]));
  // -a: binary files too (the screen reads every file's bytes); paths relative to `dir`, and this
  // repository's files only, whatever its config says (grep.fullName, submodule.recurse). git's threads
  // leave one core to the run, which works through the listing meanwhile on its one thread: on two
  // cores, a second grep thread slows that (the longer of the two) more than it speeds git up.
  const threads = Math.max(1, os.availableParallelism() - 1);
  return { args: ['-c', 'grep.fullName=false', '-c', 'submodule.recurse=false', '-c', `grep.threads=${threads}`, 'grep', '-l', '-z', '-a', '-F', '--no-color', '-f', '-'], input };
}
