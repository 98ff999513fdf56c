import fs from 'node:fs';
import yargs from 'yargs';
import { ConfigError, loadSettings } from './config.js';
import { REPORTERS, FORMATS } from './report/index.js';
import type { Mode } from './report/types.js';
import { dirtyFiles } from './run/git.js';
import { writeAtomic } from './run/files.js';
import { run, type RunResult } from './run/runner.js';

/** Exit codes: the contract CI scripts rely on. */
export const EXIT = { clean: 0, findings: 1, usage: 2 } as const;

class UsageError extends Error {}

interface Args {
  paths: string[];
  dryRun: boolean;
  format: string;
  config?: string;
  legacyBaseUrl?: string[];
  baseUrl?: string;
  quiet: boolean;
  allowDirty: boolean;
  maxWarnings: number;
}

function version(): string {
  const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Exit code for a finished run (see README "Exit codes"). */
function exitCode(mode: Mode, result: RunResult, maxWarnings: number): number {
  const all = result.results.flatMap((r) => r.findings);
  if (mode === 'lint') {
    const errors = all.filter((f) => f.severity === 'error').length;
    const warnings = all.filter((f) => f.severity === 'warning').length;
    return errors > 0 || (maxWarnings >= 0 && warnings > maxWarnings) ? EXIT.findings : EXIT.clean;
  }
  const needsPerson = all.some((f) => !f.fixable && f.severity !== 'info');
  const pending = mode === 'dry-run' && result.summary.changed > 0;
  return needsPerson || pending ? EXIT.findings : EXIT.clean;
}

async function execute(mode: Mode, args: Args, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const cwd = process.cwd();
  const paths = args.paths.length ? args.paths : ['.'];
  const settings = loadSettings({ searchFrom: paths[0]!, ...(args.config ? { config: args.config } : {}), ...(args.legacyBaseUrl ? { legacyBaseUrl: args.legacyBaseUrl } : {}), ...(args.baseUrl ? { baseUrl: args.baseUrl } : {}) });
  let result: RunResult;
  try {
    result = await run(paths, cwd, settings);
  } catch (error) {
    if (error instanceof Error && /no such file or directory/.test(error.message)) throw new UsageError(error.message);
    throw error;
  }
  if (mode === 'write') {
    const changed = result.results.filter((r) => r.changed);
    if (!args.allowDirty) {
      const dirty = dirtyFiles(changed.map((r) => r.absPath));
      if (dirty.length) {
        const list = changed.filter((r) => dirty.includes(r.absPath)).map((r) => `  ${r.path}`);
        err.write(`v2-migrate: refusing to rewrite files with uncommitted changes (commit or stash them, or pass --allow-dirty):\n${list.join('\n')}\n`);
        return EXIT.usage;
      }
    }
    for (const r of changed) writeAtomic(r.absPath, r.bytes!);
  }
  const color = args.format === 'text' && 'isTTY' in out && !!(out as NodeJS.WriteStream).isTTY && !process.env.NO_COLOR;
  out.write(REPORTERS[args.format]!({ ...result, mode, quiet: args.quiet, color }));
  return exitCode(mode, result, args.maxWarnings);
}

/** Run the CLI with `argv` (without node and script); resolves to the exit code. */
export async function main(argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  let code: number = EXIT.clean;
  const action = (mode: Mode) => async (args: Args) => {
    code = await execute(args.dryRun && mode === 'write' ? 'dry-run' : mode, args, out, err);
  };
  const cli = yargs(argv)
    .scriptName('v2-migrate')
    .usage('$0 [paths..]  rewrite RunPod REST v1 calls to REST v2 in place\n$0 --dry-run [paths..]  show the diff and findings, write nothing\n$0 lint [paths..]  report v1 usage (for CI)')
    .command('$0 [paths..]', 'Rewrite files in place (refuses files with uncommitted changes)', (y) =>
      y.positional('paths', { type: 'string', array: true, default: [], describe: 'Files or folders (default: .)' }).option('dry-run', { type: 'boolean', default: false, describe: 'Write nothing; print a unified diff and the findings' }).option('allow-dirty', { type: 'boolean', default: false, describe: 'Rewrite files even if they have uncommitted changes' }),
      action('write') as never,
    )
    .command('lint [paths..]', 'Report v1 usage; exit 1 on errors or too many warnings', (y) =>
      y.positional('paths', { type: 'string', array: true, default: [], describe: 'Files or folders (default: .)' }).option('max-warnings', { type: 'number', default: 0, describe: 'Warnings allowed before lint fails (-1: no limit)' }),
      action('lint') as never,
    )
    .option('format', { type: 'string', choices: FORMATS, default: 'text', describe: 'Output format' })
    .option('config', { type: 'string', describe: 'Config file (default: nearest v2-migrate.config.json or package.json "v2-migrate")' })
    .option('legacy-base-url', { type: 'string', array: true, describe: 'Extra v1 base URL to migrate (repeatable), e.g. a proxy' })
    .option('base-url', { type: 'string', describe: 'v2 base URL to write (default https://api.runpod.io/v2)' })
    .option('quiet', { type: 'boolean', default: false, describe: 'Report errors only, no summary' })
    .strict()
    .version(version())
    .help()
    .alias('h', 'help')
    .wrap(Math.min(110, process.stdout.columns || 100))
    .exitProcess(false)
    .fail((msg, error) => {
      throw error ?? new UsageError(msg);
    });
  try {
    let helpShown = false;
    await cli.parseAsync(argv, {}, (e, _argv, output) => {
      if (output) {
        (e ? err : out).write(output + '\n');
        helpShown = true;
      }
    });
    if (helpShown && code === EXIT.clean) return EXIT.clean;
    return code;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError || (error instanceof Error && error.name === 'YError')) {
      err.write(`v2-migrate: ${error.message}\nRun v2-migrate --help for usage.\n`);
      return EXIT.usage;
    }
    err.write(`v2-migrate: internal error: ${error instanceof Error ? error.stack : String(error)}\n`);
    return EXIT.usage;
  }
}
