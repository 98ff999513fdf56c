/**
 * POSIX shell quoting for turning a v1 `dockerStartCmd` argv into the v2 `args` string: an element
 * with spaces or shell characters is single-quoted, so `["bash", "-lc", "python x.py"]` becomes
 * `bash -lc 'python x.py'` and still runs as three arguments.
 */
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function shellQuote(arg: string): string {
  if (arg === '') return "''";
  if (SAFE.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function shellJoin(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}
