import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yargs from 'yargs';
import { ConfigError, loadSettings, settingsResolver } from './config.js';
import { plural } from './report/common.js';
import { reporterFor, FORMATS } from './report/index.js';
import { toolVersion } from './report/tool.js';
import type { Mode } from './report/types.js';
import { RULES, RULE_IDS, isRuleId } from './rules/registry.js';
import { applyBaseline, BaselineError, readBaseline, writeBaseline } from './run/baseline.js';
import { dirtyFiles } from './run/git.js';
import { GitError, gitNotFound } from './run/git-command.js';
import { encode } from './run/files.js';
import { recoverInterrupted, writeTogether, type Recovery } from './run/transaction.js';
import { JOURNAL_NAME, journalLeft } from './run/journal.js';
import { namedPlace, treePlace, writeRefusal, writeRoot, WriteRefused, type WritePlace } from './run/write-guard.js';
import { lockFileFor, takeWriteLock, type LockedOut } from './run/write-lock.js';
import { run } from './run/runner.js';
import type { RunResult } from './run/types.js';
import { makeProgress } from './run/progress.js';
import { changedSince } from './run/changed.js';
import { parseShard } from './run/shard.js';
import { ResultCache, defaultCacheDir } from './run/cache.js';
import { mergedRunResult, mergeReports, MergeError } from './report/merge.js';
import { UsageError } from './cli/usage.js';
import { makeCacheFolder } from './cli/cache-location.js';
import { checkFlags, jobsOf, maxWarningsOf, ruleSelection } from './cli/validate.js';
import { keepRules } from './cli/rule-filter.js';
import { printedConfig } from './cli/print-config.js';
import { EXIT, runExit } from './cli/exit.js';
import { ComponentLog } from './live/component-log.js';
import type { LoadedSettings } from './live/project.js';

export { EXIT };

interface Args {
  paths: string[];
  dryRun: boolean;
  format: string;
  config?: string;
  legacyBaseUrl?: string[];
  baseUrl?: string;
  quiet: boolean;
  allowDirty: boolean;
  maxWarnings: string;
  baseline?: string;
  updateBaseline: boolean;
  jobs?: string;
  changedSince?: string;
  cache: boolean;
  cacheLocation?: string;
  shard?: string;
  outputFile?: string;
  color?: boolean;
  ignorePattern?: string[];
  stdin: boolean;
  stdinFilename?: string;
  printConfig?: string;
  rule?: string[];
  defaultIgnore: boolean;
}

/** Where reports go: standard output, or the --output-file. */
interface Sink {
  write(text: string): void;
  /** Whether colors can show there (a terminal). */
  tty: boolean;
}

function sinkFor(args: Pick<Args, 'outputFile'>, out: NodeJS.WritableStream): Sink {
  if (!args.outputFile) return { write: (text) => void out.write(text), tty: 'isTTY' in out && !!(out as NodeJS.WriteStream).isTTY };
  const file = path.resolve(args.outputFile);
  return {
    write: (text) => {
      refuseOutput(`--output-file ${args.outputFile}`, file, namedPlace(writeRoot(process.cwd())));
      try {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, text);
      } catch (error) {
        throw new UsageError(`--output-file ${args.outputFile}: cannot write (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
      }
    },
    tty: false,
  };
}

/**
 * An output the user named (or the cache the tool places in the tree) where the guard refuses it:
 * a usage error (exit 2) before anything is written.
 */
function refuseOutput(what: string, file: string, place: WritePlace): void {
  const why = writeRefusal(file, place);
  if (why) throw new UsageError(`${what}: not written: ${file} ${why}`);
}

/** What a partial run was asked about, as its summary names it: "in examples/", "changed since main". */
function askedAbout(paths: readonly string[], changedSince: string | undefined): string {
  const shown = paths.length > 3 ? `${paths.slice(0, 2).join(', ')} and ${paths.length - 2} more paths` : paths.join(', ');
  return [paths.length ? `in ${shown}` : '', changedSince ? `changed since ${changedSince}` : ''].filter(Boolean).join(' ');
}

/** A partial run reports (and writes) what must move with the paths named: said on stderr, so machine formats stay whole. */
function pulledInNote(mode: Mode, files: readonly string[], asked: string): string {
  const shown = files.length > 10 ? [...files.slice(0, 10), `… and ${files.length - 10} more`] : files;
  const what = mode === 'write' ? 'rewritten with them' : mode === 'dry-run' ? 'shown with them' : 'reported with them';
  return `v2-migrate: ${files.length} file${files.length === 1 ? '' : 's'} beyond ${asked} must move with them (the same base, wrapper or imports), so ${files.length === 1 ? 'it is' : 'they are'} ${what}:\n${shown.map((f) => `  ${f}`).join('\n')}\n`;
}

/**
 * A run in the work tree of the current folder: a write run holds the tree's lock throughout, any
 * run takes it to finish or undo what an interrupted write left (before any file is read), then the
 * run itself.
 */
async function execute(mode: Mode, args: Args, out: NodeJS.WritableStream, err: NodeJS.WritableStream, input: NodeJS.ReadableStream): Promise<number> {
  const root = writeRoot(process.cwd());
  const places = { journal: path.join(root, JOURNAL_NAME), tree: treePlace(root), named: namedPlace(root) };
  if (args.printConfig) return migrate(mode, args, out, err, input, places);
  const writes = mode === 'write' && !args.stdin;
  const lock = writes || journalLeft(places.journal) ? takeWriteLock(lockFileFor(root)) : null;
  try {
    if (lock?.kind === 'locked-out') {
      err.write(`v2-migrate: ${lockedOutMessage(lock)}${writes ? '' : '; the journal it writes is left to it'}.\n`);
      if (writes) return EXIT.usage;
    } else {
      const recovered = recoverInterrupted(places.journal, places.tree);
      if (recovered.kind === 'recovered') err.write(recoveryMessage(recovered.recovery, process.cwd()));
      if (recovered.kind === 'untrusted') {
        err.write(`v2-migrate: ${recovered.reason}, so it is not acted on: nothing it names was touched. If an interrupted v2-migrate run left it, check the files it lists, then remove it${writes ? '; until then v2-migrate writes nothing here' : ''}.\n`);
        if (writes) return EXIT.usage;
      }
    }
    return await migrate(mode, args, out, err, input, places);
  } finally {
    if (lock?.kind === 'held') lock.release();
  }
}

function lockedOutMessage(lock: LockedOut): string {
  if (lock.pid === null) return `${lock.file} is in the way of the lock v2-migrate takes to write: it holds no pid, so v2-migrate did not write it (remove it)`;
  return `another v2-migrate run (pid ${lock.pid}) is writing in this work tree: ${lock.file} is its lock (wait for it to finish; if no such process is a v2-migrate run, remove the lock)`;
}

/** Where a run may write: the journal, repository files (`tree`) and the outputs the user names (`named`). */
interface Places {
  journal: string;
  tree: WritePlace;
  named: WritePlace;
}

async function migrate(mode: Mode, args: Args, out: NodeJS.WritableStream, err: NodeJS.WritableStream, input: NodeJS.ReadableStream, places: Places): Promise<number> {
  const cwd = process.cwd();
  const paths = args.paths.length ? args.paths : ['.'];
  const only = ruleSelection(args.rule);
  const flags = { searchFrom: args.stdinFilename ? path.dirname(path.resolve(args.stdinFilename)) : paths[0]!, root: places.tree.root, ...(args.config ? { config: args.config } : {}), ...(args.legacyBaseUrl ? { legacyBaseUrl: args.legacyBaseUrl } : {}), ...(args.baseUrl !== undefined ? { baseUrl: args.baseUrl } : {}) };
  const load = (): LoadedSettings => {
    const loaded = loadSettings(flags);
    const settings = args.ignorePattern ? { ...loaded, ignore: [...loaded.ignore, ...args.ignorePattern] } : loaded;
    return { settings, settingsFor: settingsResolver(flags, settings) };
  };
  const { settings, settingsFor } = load();
  if (args.printConfig) {
    const file = path.resolve(args.printConfig);
    const own = settingsFor(file);
    sinkFor(args, out).write(printedConfig(file, args.ignorePattern && own !== settings ? { ...own, ignore: [...own.ignore, ...args.ignorePattern] } : own, only, cwd));
    return EXIT.clean;
  }
  const maxWarnings = mode === 'lint' ? maxWarningsOf(args.maxWarnings) : 0;
  if (args.updateBaseline && !args.baseline) throw new UsageError('--update-baseline needs --baseline <file>: the file to write');
  const baselineFile = args.baseline ? path.resolve(cwd, args.baseline) : null;
  if (baselineFile && args.updateBaseline) refuseOutput(`--baseline ${args.baseline}`, baselineFile, places.named);
  // Read the baseline before the (possibly long) run, so a missing or broken file fails fast.
  const baseline = baselineFile && !args.updateBaseline ? readBaseline(baselineFile) : null;
  const jobs = args.jobs ? jobsOf(args.jobs) : os.availableParallelism();
  const cacheDir = args.cache ? (args.cacheLocation ? path.resolve(cwd, args.cacheLocation) : defaultCacheDir(cwd)) : null;
  // A --cache-location is named by the user; the default folder is the tool's choice in the tree.
  if (cacheDir) refuseOutput(args.cacheLocation ? `--cache-location ${args.cacheLocation}` : '--cache', cacheDir, args.cacheLocation ? places.named : places.tree);
  if (cacheDir && args.cacheLocation) makeCacheFolder(args.cacheLocation, cwd);
  const disk = cacheDir ? new ResultCache(cacheDir, toolVersion()) : null;
  // --rule needs to know which files' changes go together: the run's components, seen through its cache.
  const components = only ? new ComponentLog(disk?.dir ?? defaultCacheDir(cwd), toolVersion(), disk) : null;
  let result: RunResult;
  let stdinText: { text: string; bom: boolean } | null = null;
  try {
    if (args.stdin) {
      // The single-file path (and the engine it calls directly) is loaded only for --stdin.
      const { readStdin, stdinRun } = await import('./cli/stdin.js');
      stdinText = await readStdin(input);
      const piped = await stdinRun(stdinText, args.stdinFilename!, cwd, load, { jobs, disk });
      result = piped.result;
      if (piped.changesWith.length) err.write(`v2-migrate: ${args.stdinFilename} changes together with ${piped.changesWith.join(', ')}; its change is not applied alone (run v2-migrate on the files to apply them together).\n`);
    } else {
      components?.startRun();
      result = await run(paths, cwd, settings, {
        jobs,
        progress: makeProgress(process.stderr, !args.quiet),
        ...(args.changedSince ? { changed: changedSince(args.changedSince, cwd) } : {}),
        ...(args.shard ? { shard: parseShard(args.shard) } : {}),
        settingsFor,
        defaultIgnore: args.defaultIgnore,
        ...(components ? { cache: components } : disk ? { cache: disk } : {}),
      });
    }
  } catch (error) {
    if (error instanceof Error && /no such file or directory|--shard/.test(error.message)) throw new UsageError(error.message);
    throw error;
  }
  if (only) {
    const kept = keepRules(result, only, components?.components() ?? []);
    result = kept.result;
    for (const h of kept.held) {
      const what = h.partly ? `part of ${h.files.join(', ')} unchanged: those fixes also need` : `${h.files.join(', ')} unchanged: ${h.files.length === 1 ? 'its change' : 'their changes'} also ${h.files.length === 1 ? 'needs' : 'need'}`;
      err.write(`v2-migrate: --rule left ${what} ${h.rules.join(', ')} (add ${h.rules.length === 1 ? 'that rule' : 'those rules'} to apply them together).\n`);
    }
  }
  const listedPaths = new Set(result.results.map((r) => r.path));
  const pulledIn = (result.pulledIn ?? []).filter((p) => listedPaths.has(p));
  if (pulledIn.length && !args.quiet) err.write(pulledInNote(mode, pulledIn, args.changedSince ? `the files changed since ${args.changedSince}` : 'the paths named'));
  if (baselineFile && args.updateBaseline) {
    const n = writeBaseline(baselineFile, result);
    const files = new Set(result.results.filter((r) => r.findings.length).map((r) => r.path)).size;
    (args.format === 'text' && !args.outputFile ? out : err).write(`v2-migrate: wrote ${n} finding${n === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'} to ${path.relative(cwd, baselineFile) || baselineFile}; lint --baseline now fails only on new ones.\n`);
    return EXIT.clean;
  }
  if (baseline) {
    result = applyBaseline(result, baseline);
    result.baseline = { file: path.relative(cwd, baseline.file) || baseline.file, entries: baseline.keys.size };
  }
  // A write from standard input gives the text back on standard output; the report goes to stderr (or -o).
  const piping = mode === 'write' && stdinText !== null;
  const sink = sinkFor(args, piping ? err : out);
  const color = args.format === 'text' && (args.color ?? (sink.tty && !process.env.NO_COLOR));
  let writeFailed = false;
  if (piping) out.write(result.results[0]?.changed ? result.results[0].bytes! : encode(stdinText!.text, stdinText!.bom));
  else if (mode === 'write') {
    const changed = result.results.filter((r) => r.changed);
    if (!args.allowDirty) {
      const dirty = dirtyFiles(changed.map((r) => r.absPath));
      if (dirty.length) {
        const list = changed.filter((r) => dirty.includes(r.absPath)).map((r) => `  ${r.path}`);
        err.write(`v2-migrate: refusing to rewrite files with uncommitted changes (commit or stash them, or pass --allow-dirty):\n${list.join('\n')}\n`);
        return EXIT.usage;
      }
    }
    // Files that must move together are written together (see writeTogether); one group that cannot be
    // written does not stop the others.
    const { written, failed } = deferSignals(() => writeTogether(changed.map((r) => ({ file: r.absPath, data: r.bytes!, group: r.writeGroup ?? r.absPath })), places.journal, places.tree));
    const done = new Set(written);
    for (const r of changed) if (!done.has(r.absPath)) r.changed = false;
    result.summary.changed = done.size;
    if (failed.length) {
      const rel = (file: string): string => path.relative(cwd, file) || file;
      const list = failed.map((f) => `  ${rel(f.file)}: ${f.movesWith ? `not written: it moves with ${rel(f.movesWith)}, which could not be written` : f.reason}`);
      err.write(`v2-migrate: could not write ${failed.length} file${failed.length === 1 ? '' : 's'} (left unchanged):\n${list.join('\n')}\n`);
      writeFailed = true;
    }
  }
  if (gitNotFound() && !args.quiet) err.write("v2-migrate: git is not on PATH, so git's own ignore settings (.git/info/exclude, core.excludesFile) were not applied; .gitignore files were.\n");
  if (writeFailed) {
    sink.write((await reporterFor(args.format))({ ...result, mode, quiet: args.quiet, color: false }));
    return EXIT.usage;
  }
  const { code, because } = runExit(mode, result, maxWarnings);
  const asked = result.asked === undefined ? {} : { askedAbout: askedAbout(args.paths, args.changedSince) };
  sink.write((await reporterFor(args.format))({ ...result, mode, quiet: args.quiet, color, exit: { code, because }, ...asked }));
  // --quiet lists errors only: a gate failed by warnings alone must still say why.
  if (args.quiet && mode === 'lint' && code === EXIT.findings && !result.summary.errors) {
    const n = result.summary.warnings;
    err.write(`v2-migrate: ${plural(n, 'warning')} (more than --max-warnings ${maxWarnings}) fail lint; --quiet does not list warnings: run without it to see them.\n`);
  }
  return code;
}

const HELD_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** The default action, once the write is over: remove this handler and raise the signal again. */
function onSignal(signal: NodeJS.Signals): void {
  for (const s of HELD_SIGNALS) process.off(s, onSignal);
  process.kill(process.pid, signal);
}

/**
 * Run the (synchronous) `write` with SIGINT and SIGTERM handled in JavaScript: their default action
 * would end the process between two renames, a handler runs only once the write is over. SIGKILL
 * can still land there: the journal covers it.
 */
function deferSignals<T>(write: () => T): T {
  for (const s of HELD_SIGNALS) if (!process.listeners(s).includes(onSignal)) process.on(s, onSignal);
  return write();
}

function recoveryMessage(r: Recovery, cwd: string): string {
  const list = (files: string[]): string => files.map((f) => `  ${path.relative(cwd, f) || f}`).join('\n');
  const parts = ['v2-migrate: an earlier run was interrupted while writing files.'];
  if (r.completed.length) parts.push(`Completed (every file of their group had its new text):\n${list(r.completed)}`);
  if (r.rolledBack.length) parts.push(`Rolled back to their text before that run:\n${list(r.rolledBack)}`);
  if (r.leftAlone.length) parts.push(`Changed since, so left as they are (check them):\n${list(r.leftAlone)}`);
  return parts.join('\n') + '\n';
}

/** Run the CLI with `argv` (without node and script); resolves to the exit code. */
export async function main(argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr, input: NodeJS.ReadableStream = process.stdin): Promise<number> {
  let code: number = EXIT.clean;
  const action = (mode: Mode) => async (args: Args) => {
    code = await execute(args.dryRun && mode === 'write' ? 'dry-run' : mode, args, out, err, input);
  };
  const cli = yargs(argv)
    .scriptName('v2-migrate')
    .usage('$0 [paths..]  rewrite RunPod REST v1 calls to REST v2 in place\n$0 --dry-run [paths..]  show the diff and findings, write nothing\n$0 lint [paths..]  report v1 usage (for CI)\n$0 rules  list the rules\n$0 explain <rule>  a rule with a before/after example')
    .command('$0 [paths..]', 'Rewrite files in place (refuses files with uncommitted changes, and while another write runs in the work tree)', (y) =>
      y.positional('paths', { type: 'string', array: true, default: [], describe: 'Files or folders (default: .)' }).option('dry-run', { type: 'boolean', default: false, describe: 'Write nothing; print a unified diff and the findings' }).option('allow-dirty', { type: 'boolean', default: false, describe: 'Rewrite files even if they have uncommitted changes' }),
      action('write') as never,
    )
    .command('lint [paths..]', 'Report v1 usage; exit 1 on errors or too many warnings', (y) =>
      y
        .positional('paths', { type: 'string', array: true, default: [], describe: 'Files or folders (default: .)' })
        .option('max-warnings', { type: 'string', default: '0', requiresArg: true, describe: 'Warnings allowed before lint fails (-1: no limit)' })
        .option('baseline', { type: 'string', describe: 'Baseline file: findings it lists do not fail lint (only new ones do)' })
        .option('update-baseline', { type: 'boolean', default: false, describe: 'Write the current findings to the --baseline file and exit 0' }),
      action('lint') as never,
    )
.command('merge-reports <reports..>', 'Merge per-shard --format json reports into one JSON report (exit 1 like lint)', (y) =>
      y
        .positional('reports', { type: 'string', array: true, demandOption: true, describe: 'JSON report files' })
        .option('max-warnings', { type: 'string', default: '0', requiresArg: true, describe: 'Warnings allowed before the merged gate fails (-1: no limit)' })
        .option('format', { type: 'string', choices: FORMATS, default: 'json', requiresArg: true, describe: 'Format of the merged report (json by default; github or sarif for the gate job)' }),
      async (args) => {
        try {
          const max = maxWarningsOf(args.maxWarnings);
          const merged = mergeReports((args.reports as string[]).map((f) => path.resolve(f)));
          const format = String(args.format);
          const text = format === 'json' ? JSON.stringify(merged, null, 2) + '\n' : (await reporterFor(format))({ ...mergedRunResult(merged, process.cwd()), mode: 'lint', quiet: !!args.quiet, color: false });
          sinkFor(args as { outputFile?: string }, out).write(text);
          code = merged.summary.errors! > 0 || (max >= 0 && merged.summary.warnings! > max) ? EXIT.findings : EXIT.clean;
        } catch (error) {
          if (error instanceof MergeError) throw new UsageError(error.message);
          throw error;
        }
      },
    )
    .command('rules', 'List every rule with its severity, whether the codemod fixes it, and one line of doc', () => {}, (args) => {
      code = listRules(String(args.format ?? 'text'), sinkFor(args as { outputFile?: string }, out));
    })
    .command('explain <ruleId>', "Print a rule's documentation with a before/after example", (y) => y.positional('ruleId', { type: 'string', demandOption: true, describe: 'A rule id (see v2-migrate rules)' }), async (args) => {
      code = await explain(String(args.ruleId), String(args.format ?? 'text'), sinkFor(args as { outputFile?: string }, out), err);
    })
    .option('format', { type: 'string', choices: FORMATS, default: 'text', requiresArg: true, describe: 'Output format: text, json, sarif (code scanning), github (Actions annotations), markdown (inventory)' })
    .option('output-file', { alias: 'o', type: 'string', requiresArg: true, describe: 'Write the report to this file instead of standard output' })
    .option('color', { type: 'boolean', describe: 'Color the text report (default: on a terminal unless NO_COLOR is set); --no-color turns it off' })
    .option('config', { type: 'string', requiresArg: true, describe: 'Config file (default: nearest v2-migrate.config.json or package.json "v2-migrate")' })
    // Repeatable flags take one value each (nargs: 1): an array option otherwise takes every word after it,
    // so `--legacy-base-url URL src/` would read src/ as a second URL instead of the path to run on.
    .option('legacy-base-url', { type: 'string', array: true, nargs: 1, describe: 'Extra v1 base URL to migrate, e.g. a proxy (one per flag; repeat the flag for more)' })
    .option('base-url', { type: 'string', requiresArg: true, describe: 'v2 base URL to write, with no query or fragment (default https://api.runpod.io/v2)' })
    .option('ignore-pattern', { type: 'string', array: true, nargs: 1, describe: 'Skip files matching this gitignore-style glob, relative to the current directory (one per flag, repeatable; added to the config\'s ignore)' })
    .option('rule', { type: 'string', array: true, nargs: 1, describe: 'Run only these rules (comma-separated, or one per flag, repeatable): other findings are not reported and other fixes not made (an edit several findings share is made only when all of them are of these rules)' })
    .option('default-ignore', { type: 'boolean', default: true, describe: 'Skip dist, build, coverage, vendor, .venv, __pycache__, .tox and .claude folders, even where git tracks them (the summary counts what they hold); --no-default-ignore scans them. node_modules and .git are never scanned' })
    .option('stdin', { type: 'boolean', default: false, describe: 'Read one file\'s text from standard input (with --stdin-filename); a write prints the new text on standard output' })
    .option('stdin-filename', { type: 'string', requiresArg: true, describe: 'The path the --stdin text stands for: its language, config and the files it imports' })
    .option('print-config', { type: 'string', requiresArg: true, describe: 'Print the settings that apply to this file (config files and flags merged) as JSON, and exit' })
    .option('quiet', { type: 'boolean', default: false, describe: 'Report errors only, no summary, no progress line' })
    .option('jobs', { type: 'string', requiresArg: true, describe: 'Worker threads for analysis (default: all cores; output is identical for any value)' })
    .option('changed-since', { type: 'string', requiresArg: true, describe: 'Ask only about files changed since this git ref (plus uncommitted and untracked ones), and what must move with them; needs git and the history back to the merge base (in CI: fetch-depth: 0)' })
    .option('cache', { type: 'boolean', default: false, describe: 'Reuse results of unchanged files (keyed by tool version, config and file content)' })
    .option('cache-location', { type: 'string', requiresArg: true, describe: 'Cache folder for --cache: a new one, or one holding only cache files, not a path the run is on (default: node_modules/.cache/v2-migrate, or .v2-migrate-cache)' })
    .option('shard', { type: 'string', requiresArg: true, describe: 'Analyse only shard i of n (i/n), split by package, for a CI matrix; merge the JSON reports with merge-reports' })
    .check((a) => {
      checkFlags(a);
      return true;
    })
    .strict()
    .version(toolVersion())
    .help()
    .alias('h', 'help')
    .wrap(Math.min(110, process.stdout.columns || 100))
    .exitProcess(false)
    .fail((msg, error) => {
      throw error ?? new UsageError(msg);
    });
  skipHelpCache(cli);
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
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof BaselineError || error instanceof WriteRefused || error instanceof GitError || (error instanceof Error && error.name === 'YError')) {
      err.write(`v2-migrate: ${error.message}\nRun v2-migrate --help for usage.\n`);
      return EXIT.usage;
    }
    err.write(`v2-migrate: internal error: ${error instanceof Error ? error.stack : String(error)}\n`);
    return EXIT.usage;
  }
}

/**
 * yargs lays out a subcommand's whole help (cliui, wrapping, string widths) before running it, so an
 * async handler that fails can still print it: ~20 ms of every `lint`. `.fail` above throws instead
 * of printing help, so that copy is never read (`--help` lays help out when asked); skip it, as the
 * Angular CLI does. An internal method: if yargs stops having it, help is only cached again.
 */
function skipHelpCache(cli: object): void {
  const usage = (cli as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } }).getInternalMethods?.().getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}

const DOC_FORMATS = ['text', 'json', 'markdown'];

/** `v2-migrate rules`: every rule with severity, fixable flag and its one-line doc. */
function listRules(format: string, out: Sink): number {
  if (!DOC_FORMATS.includes(format)) throw new UsageError(`rules prints --format ${DOC_FORMATS.join(', ')} (not ${format})`);
  const rows = RULE_IDS.map((id) => ({ id, severity: RULES[id].severity, fixable: RULES[id].fixable, summary: RULES[id].summary }));
  if (format === 'json') out.write(JSON.stringify({ version: 1, rules: rows }, null, 2) + '\n');
  else if (format === 'markdown') out.write(['| rule | severity | fix | what |', '|---|---|---|---|', ...rows.map((r) => `| \`${r.id}\` | ${r.severity} | ${r.fixable ? 'yes' : 'no'} | ${r.summary.replace(/\|/g, '\\|')} |`)].join('\n') + '\n');
  else {
    const w = Math.max(...rows.map((r) => r.id.length));
    out.write(rows.map((r) => `${r.id.padEnd(w)}  ${r.severity.padEnd(7)}  ${r.fixable ? 'fixable' : 'manual '}  ${r.summary}`).join('\n') + '\n\nv2-migrate explain <rule> shows a rule with a before/after example.\n');
  }
  return EXIT.clean;
}

/** `v2-migrate explain <ruleId>`: the rule's doc and a before/after example; exit 2 for an unknown id. */
async function explain(id: string, format: string, out: Sink, err: NodeJS.WritableStream): Promise<number> {
  if (!DOC_FORMATS.includes(format)) throw new UsageError(`explain prints --format ${DOC_FORMATS.join(', ')} (not ${format})`);
  // The docs (every rule's text and example) are only loaded for this command.
  const { closestRuleId, explainMarkdown, explainText, ruleDoc } = await import('./rules/docs.js');
  if (!isRuleId(id)) {
    const near = closestRuleId(id);
    err.write(`v2-migrate: unknown rule id "${id}".${near ? ` Did you mean "${near}"?` : ''} Run v2-migrate rules to list them: ${RULE_IDS.join(', ')}.\n`);
    return EXIT.usage;
  }
  if (format === 'json') {
    const d = ruleDoc(id);
    out.write(JSON.stringify({ id, severity: RULES[id].severity, fixable: RULES[id].fixable, summary: RULES[id].summary, doc: d.doc, before: d.before, after: d.after }, null, 2) + '\n');
  } else out.write(format === 'markdown' ? explainMarkdown(id) : explainText(id));
  return EXIT.clean;
}
