#!/usr/bin/env node
// v2-migrate benchmark (`npm run bench`). Plain ESM JavaScript, no build step of its own; it runs the
// built CLI (dist/, rebuilt first unless BENCH_NO_BUILD=1).
//
// It generates two monorepos of the same size in os.tmpdir() (removed at the end):
//   - "v1":    packages × files JS/TS sources, every 3rd package with RunPod REST v1 code of every kind
//              (bench/generate.js), the rest unrelated code; plus .gitignore'd node_modules/.cache noise;
//   - "clean": same shape and size, no RunPod usage at all (its ignored folders do mention RunPod).
// and measures, interleaved, as medians over N repetitions (the quick comparisons (a) and (b'), a
// second or so each, run as P back-to-back pairs per repetition, so their medians rest on N × P runs):
//   (a) `v2-migrate lint .` on the clean tree   vs  `rg -l 'rest\.runpod\.io|api\.runpod\.io' .`
//   (b') `v2-migrate --dry-run <files>` on the files that hold a REST v1 URL  vs  jscodeshift parsing
//       and printing (no-op transform, bench/noop-transform.cjs) the same files: the target;
//   (b) `v2-migrate --dry-run .` on the whole v1 tree  vs  jscodeshift on only the files v2-migrate
//       analysed (see below), and only the files it changed: for information (the tree run also reads
//       every file to find those, which jscodeshift is spared);
//   (c) peak RSS of the lint and whole-tree dry-run processes (GNU time -v when /usr/bin/time exists, else a launcher
//       that reports process.resourceUsage().maxRSS at exit: bench/rss-launcher.js).
// It checks correctness on the way: lint exits 0 and ripgrep finds nothing on the clean tree; the
// dry run exits 1 and its diff names exactly the files the generator expects to change; jscodeshift
// reports no error. A failed check exits 1; targets print PASS/FAIL (exit 0 unless BENCH_STRICT=1).
//
// Options (flag or environment variable):
//   --packages N  BENCH_PACKAGES   packages per tree                (default 5)
//   --files N     BENCH_FILES      JS/TS source files per package    (default 300)
//   --reps N      BENCH_REPS       repetitions, medians reported     (default 3)
//   --pairs P     BENCH_PAIRS      pairs of (a) and of (b') per repetition (default 3)
//   --warmup W    BENCH_WARMUP     untimed runs of each command on the new trees first (default 1)
//   --jobs N      BENCH_JOBS       passed to v2-migrate --jobs       (default: the CLI's default)
//   --seed N      BENCH_SEED       generator seed                    (default 1)
//   --keep        BENCH_KEEP=1     keep the generated trees (prints where)
//   --rss launcher|time BENCH_RSS  how peak RSS is measured        (default: time if /usr/bin/time exists)
//   --json FILE   BENCH_JSON       also write the results as JSON
//   --rg PATH     BENCH_RG         ripgrep binary (default: rg on PATH; none: skip the comparison)
//   --shared LIST BENCH_SHARED     sizes of the shared-import tree, v1 files (default 500,2000,8000; none: skip)
//   --shared-reps N BENCH_SHARED_REPS paired runs per size of (d)   (default 3; sizes over 4,000 files: 1)
//   BENCH_NO_BUILD=1 skip `tsc -p tsconfig.build.json`; BENCH_STRICT=1 exit 1 when a target fails.
//
//   (d) the shared-import tree (bench/generate.js generateSharedImportTree): N REST v1 client files that
//       each import one shared module, the shape of a monorepo's batch run: `v2-migrate --dry-run .`
//       against jscodeshift parsing and printing the same files, paired, at each size, with peak RSS and
//       the growth exponent of the dry run's time between sizes.
//   (e) the text-scan tree: the Python and shell inputs of fixtures/text/, copied K and 2K times into
//       folders of their own; `v2-migrate --dry-run .` on both, paired: (T(2K) − T(K)) / (K × files per
//       copy) is the time one Python or shell file costs the scan, start-up and grammar loading left out.
//   --text K      BENCH_TEXT       copies of the text-scan tree (e) (default 20; none: skip)
//   --only text   BENCH_ONLY       run only (e)
// ~30k files: BENCH_PACKAGES=30 BENCH_FILES=1000 npm run bench
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSharedImportTree, generateTree, importClosure } from './generate.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(REPO, 'bin', 'v2-migrate.js');
const LAUNCHER = path.join(REPO, 'bench', 'rss-launcher.js');
const JSCODESHIFT = path.join(REPO, 'node_modules', 'jscodeshift', 'bin', 'jscodeshift.js');
const NOOP = path.join(REPO, 'bench', 'noop-transform.cjs');
const GNU_TIME = '/usr/bin/time';
const PATTERN = 'rest\\.runpod\\.io|api\\.runpod\\.io';
const TARGET_FILES = 30000;

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

function option(flag, env, fallback) {
  const i = process.argv.indexOf(`--${flag}`);
  if (i >= 0) {
    const next = process.argv[i + 1];
    return next === undefined || next.startsWith('--') ? '1' : next;
  }
  const eq = process.argv.find((a) => a.startsWith(`--${flag}=`));
  if (eq) return eq.slice(flag.length + 3);
  return process.env[env] ?? fallback;
}

function positiveInt(name, value) {
  return wholeNumber(name, value, 1);
}

function nonNegativeInt(name, value) {
  return wholeNumber(name, value, 0);
}

function wholeNumber(name, value, min) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    console.error(`bench: ${name} must be a whole number ≥ ${min} (got ${value})`);
    process.exit(2);
  }
  return n;
}

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  const text = fs.readFileSync(fileURLToPath(import.meta.url), 'utf8');
  console.log(text.split('\n').slice(1, text.split('\n').findIndex((l) => l.startsWith('import '))).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}

const opts = {
  packages: positiveInt('packages', option('packages', 'BENCH_PACKAGES', '5')),
  files: positiveInt('files', option('files', 'BENCH_FILES', '300')),
  reps: positiveInt('reps', option('reps', 'BENCH_REPS', '3')),
  pairs: positiveInt('pairs', option('pairs', 'BENCH_PAIRS', '3')),
  warmup: nonNegativeInt('warmup', option('warmup', 'BENCH_WARMUP', '1')),
  jobs: option('jobs', 'BENCH_JOBS', undefined),
  seed: positiveInt('seed', option('seed', 'BENCH_SEED', '1')),
  keep: option('keep', 'BENCH_KEEP', '') !== '' && option('keep', 'BENCH_KEEP', '') !== '0',
  rss: option('rss', 'BENCH_RSS', fs.existsSync(GNU_TIME) ? 'time' : 'launcher'),
  json: option('json', 'BENCH_JSON', undefined),
  shared: option('shared', 'BENCH_SHARED', '500,2000,8000'),
  sharedReps: positiveInt('shared-reps', option('shared-reps', 'BENCH_SHARED_REPS', '3')),
  text: option('text', 'BENCH_TEXT', '20'),
  only: option('only', 'BENCH_ONLY', ''),
};
if (opts.only !== '' && opts.only !== 'text') {
  console.error(`bench: --only takes text (got ${opts.only})`);
  process.exit(2);
}
const textCopies = opts.text === 'none' ? 0 : positiveInt('text', opts.text);
const sharedSizes = opts.shared === 'none' ? [] : opts.shared.split(',').map((n) => positiveInt('shared', n.trim()));
if (opts.files < 16) {
  console.error('bench: --files must be at least 16 (a RunPod package needs room for every kind of v1 code)');
  process.exit(2);
}
if (opts.jobs !== undefined) positiveInt('jobs', opts.jobs);
if (opts.rss !== 'time' && opts.rss !== 'launcher') {
  console.error(`bench: --rss is time or launcher (got ${opts.rss})`);
  process.exit(2);
}
if (opts.rss === 'time' && !fs.existsSync(GNU_TIME)) {
  console.error(`bench: --rss time needs ${GNU_TIME}; using the launcher`);
  opts.rss = 'launcher';
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const log = (msg) => process.stderr.write(`bench: ${msg}\n`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmtS = (ms) => (ms >= 100000 ? `${(ms / 1000).toFixed(0)} s` : ms >= 10000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 1000).toFixed(2)} s`);
const fmtMB = (kb) => (kb == null ? 'n/a' : `${(kb / 1024).toFixed(0)} MB`);
const fmtBytes = (b) => (b >= 1 << 30 ? `${(b / (1 << 30)).toFixed(2)} GB` : `${(b / (1 << 20)).toFixed(1)} MB`);

function which(cmd) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const p = path.join(dir, cmd);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * Run a command with stdout/stderr going to files (so a large diff costs what it costs a user
 * redirecting it), timing the wall clock. `rss`: how to measure the peak RSS (null: not measured).
 */
function timed(label, cmd, args, { cwd, input, rss = null }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'v2-migrate-bench-run-'));
  const outFile = path.join(dir, 'stdout');
  const errFile = path.join(dir, 'stderr');
  const rssFile = path.join(dir, 'rss');
  let argv = [cmd, ...args];
  const env = { ...process.env, NO_COLOR: '1' };
  if (rss === 'time') argv = [GNU_TIME, '-v', '-o', rssFile, ...argv];
  else if (rss === 'launcher') {
    // Same process as bin/v2-migrate.js: the launcher imports the CLI and records maxRSS at exit.
    argv = argv.map((a) => (a === BIN ? LAUNCHER : a));
    env.BENCH_RSS_FILE = rssFile;
  }
  const out = fs.openSync(outFile, 'w');
  const err = fs.openSync(errFile, 'w');
  const t0 = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { cwd, env, stdio: [input === undefined ? 'ignore' : 'pipe', out, err], input, maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  fs.closeSync(out);
  fs.closeSync(err);
  let rssKb = null;
  if (rss && fs.existsSync(rssFile)) {
    const text = fs.readFileSync(rssFile, 'utf8');
    const m = rss === 'time' ? /Maximum resident set size \(kbytes\): (\d+)/.exec(text) : /^(\d+)/.exec(text);
    if (m) rssKb = Number(m[1]);
  }
  let code = r.status;
  if (rss === 'time' && fs.existsSync(rssFile)) {
    const m = /Exit status: (\d+)/.exec(fs.readFileSync(rssFile, 'utf8'));
    if (m) code = Number(m[1]);
  }
  const stdout = fs.readFileSync(outFile, 'utf8');
  const stderr = fs.readFileSync(errFile, 'utf8');
  fs.rmSync(dir, { recursive: true, force: true });
  if (r.error) throw new Error(`${label}: ${r.error.message}`);
  return { ms, code, signal: r.signal, stdout, stderr, rssKb };
}

/** jscodeshift exits 0 even when a file does not parse: its summary must say 0 errors and every file unmodified. */
const jscsClean = (r, files) => r.code === 0 && new RegExp(`\\b0 errors\\b[\\s\\S]*\\b${files} unmodified\\b`).test(r.stdout + r.stderr);

const problems = [];
function check(ok, what) {
  if (!ok) {
    problems.push(what);
    log(`CHECK FAILED: ${what}`);
  }
  return ok;
}

// ---------------------------------------------------------------------------------------------
// Build, machine
// ---------------------------------------------------------------------------------------------

if (process.env.BENCH_NO_BUILD !== '1') {
  // npm run build: tsc to dist/src, then the bundle bin/v2-migrate.js runs (dist/lib).
  log('building dist/ (tsc -p tsconfig.build.json, then rolldown -c; BENCH_NO_BUILD=1 skips)');
  for (const step of [[path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], [path.join(REPO, 'node_modules', 'rolldown', 'bin', 'cli.mjs'), '-c']]) {
    const built = spawnSync(process.execPath, step, { cwd: REPO, encoding: 'utf8' });
    if (built.status === 0) continue;
    if (!fs.existsSync(path.join(REPO, 'dist', 'cli', 'cli.js'))) {
      console.error(`bench: build failed and there is no dist/:\n${built.stdout}${built.stderr}`);
      process.exit(2);
    }
    log(`build failed; using the existing dist/:\n${(built.stdout + built.stderr).trim().split('\n').slice(0, 5).join('\n')}`);
    break;
  }
}

const rgOption = option('rg', 'BENCH_RG', undefined);
const rg = rgOption === 'none' ? null : rgOption ?? which('rg');
if (!rg) log('ripgrep (rg) is not installed: the lint-vs-ripgrep comparison (a) is skipped (apt-get install ripgrep, or BENCH_RG=<path>)');
const rgVersion = rg ? spawnSync(rg, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0] : null;
const jscsVersion = JSON.parse(fs.readFileSync(path.join(REPO, 'node_modules', 'jscodeshift', 'package.json'), 'utf8')).version;
const toolVersion = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).version;
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).stdout.trim() || 'unknown';
const dirty = spawnSync('git', ['status', '--porcelain', '--', 'src'], { cwd: REPO, encoding: 'utf8' }).stdout.trim() ? ' (src/ has uncommitted changes)' : '';
const cpus = os.cpus();
const machine = {
  cpu: cpus[0]?.model?.trim() ?? 'unknown',
  cores: os.availableParallelism?.() ?? cpus.length,
  memory: fmtBytes(os.totalmem()),
  node: process.version,
  os: `${os.type()} ${os.release()}`,
  loadStart: os.loadavg().map((x) => x.toFixed(2)).join(' '),
  rg: rgVersion,
  jscodeshift: jscsVersion,
  jscodeshiftWorkers: Math.max(cpus.length - 1, 1),
  v2migrate: `${toolVersion} @ ${commit}${dirty}`,
  rss: opts.rss === 'time' ? `${GNU_TIME} -v (Maximum resident set size)` : 'bench/rss-launcher.js: process.resourceUsage().maxRSS at exit',
};

// ---------------------------------------------------------------------------------------------
// (e) The text-scan tree
// ---------------------------------------------------------------------------------------------

/** The Python and shell inputs of fixtures/text/ (their expectations left out). */
function textFixtures() {
  const out = [];
  for (const lang of ['python', 'shell']) {
    const dir = path.join(REPO, 'fixtures', 'text', lang);
    for (const name of fs.readdirSync(dir).sort()) if (/\.(py|sh|bash)$/.test(name)) out.push({ lang, name, text: fs.readFileSync(path.join(dir, name), 'utf8') });
  }
  return out;
}

/** A tree of `copies` folders, each with every Python and shell fixture input. */
function textTree(root, copies, fixtures) {
  for (let i = 0; i < copies; i++) {
    for (const f of fixtures) {
      const dir = path.join(root, `copy-${i}`, f.lang);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, f.name), f.text);
    }
  }
}

/**
 * (e): `--dry-run .` on the text-scan tree at K and 2K copies, paired (back to back, `reps` times). The
 * difference of the medians over the files added is one file's scan; a run that fails (exit 2) or
 * reports an internal-error fails the bench.
 */
function textScanRun(copies, jobsArgs) {
  const fixtures = textFixtures();
  const small = path.join(tmp, 'text-small');
  const large = path.join(tmp, 'text-large');
  textTree(small, copies, fixtures);
  textTree(large, copies * 2, fixtures);
  log(`(e) text-scan tree: ${fixtures.length} Python and shell files × ${copies} and × ${copies * 2}`);
  const runs = { small: [], large: [] };
  for (let rep = 0; rep < opts.reps; rep++) {
    for (const [key, cwd] of [['small', small], ['large', large]]) {
      const r = timed(`dry-run text ${key}`, process.execPath, [BIN, '--dry-run', '.', ...jobsArgs], { cwd });
      runs[key].push(r.ms);
      check((r.code === 0 || r.code === 1) && !/\binternal-error\b/.test(r.stdout), `text-scan tree (${key}): the dry run exits 0 or 1 with no internal-error (got ${r.code}): ${(r.stderr + r.stdout).slice(0, 400)}`);
    }
  }
  fs.rmSync(small, { recursive: true, force: true });
  fs.rmSync(large, { recursive: true, force: true });
  const added = copies * fixtures.length;
  const perFile = Math.max(0, median(runs.large) - median(runs.small)) / added;
  return { files: fixtures.length, copies, small: median(runs.small), large: median(runs.large), perFileMs: perFile, smallRuns: runs.small, largeRuns: runs.large };
}

function textTable(t) {
  return [
    `(e) text-scan tree: the ${t.files} Python and shell inputs of fixtures/text/ copied ${t.copies} and ${t.copies * 2} times; medians of ${opts.reps} paired runs`,
    '',
    `    --dry-run . on ${t.files * t.copies} files: ${fmtS(t.small)} (${t.smallRuns.map(fmtS).join(', ')})`,
    `    --dry-run . on ${t.files * t.copies * 2} files: ${fmtS(t.large)} (${t.largeRuns.map(fmtS).join(', ')})`,
    `    per Python/shell file: ${t.perFileMs.toFixed(2)} ms`,
    '',
  ];
}

/** `--only text`: section (e) alone. */
function textOnly() {
  const jobsArgs = opts.jobs ? ['--jobs', String(opts.jobs)] : [];
  const text = textScanRun(textCopies || 20, jobsArgs);
  process.stdout.write(['', 'v2-migrate benchmark: text scan', '', `node ${process.version}, v2-migrate ${toolVersion} (${commit})${dirty}, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`, '', ...textTable(text)].join('\n') + '\n');
  if (opts.json) fs.writeFileSync(opts.json, JSON.stringify({ text, problems }, null, 2) + '\n');
  return problems.length ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Trees
// ---------------------------------------------------------------------------------------------

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'v2-migrate-bench-'));
const cleanup = () => {
  if (!opts.keep) fs.rmSync(tmp, { recursive: true, force: true });
};
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});
process.on('SIGTERM', () => {
  cleanup();
  process.exit(143);
});

let exitCode = 0;
try {
  exitCode = opts.only === 'text' ? textOnly() : main();
} finally {
  cleanup();
  if (opts.keep) log(`trees kept in ${tmp}`);
}
process.exit(exitCode);

function main() {
  const v1Root = path.join(tmp, 'v1');
  const cleanRoot = path.join(tmp, 'clean');
  log(`generating 2 trees of ${opts.packages} packages × ${opts.files} source files in ${tmp}`);
  let t0 = Date.now();
  const v1 = generateTree(v1Root, { packages: opts.packages, files: opts.files, runpod: true, seed: opts.seed });
  const clean = generateTree(cleanRoot, { packages: opts.packages, files: opts.files, runpod: false, seed: opts.seed + 1000 });
  log(`generated in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const closure = importClosure(v1); // tree-relative paths
  const jobsArgs = opts.jobs ? ['--jobs', String(opts.jobs)] : [];

  // The files that hold a REST v1 URL, on their own: `--dry-run <them>` against jscodeshift on them.
  const v1Files = v1.runpodFiles.filter((f) => fs.readFileSync(path.join(v1Root, f), 'utf8').includes('rest.runpod.io/v1')).sort();
  const samples = { lint: [], rg: [], dry: [], jscsAnalysed: [], jscsChanged: [], dryV1: [], jscsV1: [], lintRss: [], dryRss: [], jscsRss: [] };
  let changedFiles = null;
  let analysedFiles = null;
  const extensions = ['--extensions=ts,tsx,mts,cts,js,jsx,mjs,cjs'];
  const jscsArgs = [JSCODESHIFT, '-t', NOOP, '--parser=tsx', '--no-babel', '--dry', ...extensions, '--stdin'];

  // The trees were just written: the first runs over them pay for the kernel writing them back (both
  // tools, ~1.5×). Like hyperfine's --warmup, each command runs once untimed before the measurements.
  for (let w = 0; w < opts.warmup; w++) {
    log(`warm-up ${w + 1}/${opts.warmup} (untimed)`);
    spawnSync(process.execPath, [BIN, 'lint', '.', ...jobsArgs], { cwd: cleanRoot, stdio: 'ignore' });
    if (rg) spawnSync(rg, ['-l', PATTERN, '.'], { cwd: cleanRoot, stdio: 'ignore' });
    spawnSync(process.execPath, [BIN, '--dry-run', '.', ...jobsArgs], { cwd: v1Root, stdio: 'ignore', maxBuffer: 1 << 30 });
  }

  for (let rep = 1; rep <= opts.reps; rep++) {
    log(`repetition ${rep}/${opts.reps}`);
    // (a) lint on the clean tree, then ripgrep on it: `pairs` times, back to back.
    for (let pair = 0; pair < opts.pairs; pair++) {
      const lint = timed('lint', process.execPath, [BIN, 'lint', '.', ...jobsArgs], { cwd: cleanRoot, rss: opts.rss });
      samples.lint.push(lint.ms);
      samples.lintRss.push(lint.rssKb);
      check(lint.code === 0, `lint on the clean tree exits 0 (got ${lint.code}${lint.signal ? `, signal ${lint.signal}` : ''}): ${lint.stderr.slice(0, 400)}${lint.stdout.slice(0, 400)}`);
      // The scan covers the JS/TS sources plus the text engine's files (package.json, README.md, …).
      const scanned = Number(/^(\d+) files? scanned: 0 errors, 0 warnings, 0 info/m.exec(lint.stdout)?.[1] ?? -1);
      check(scanned >= clean.sources, `lint on the clean tree scans at least the ${clean.sources} JS/TS sources and finds nothing (got: ${lint.stdout.trim().slice(-300)})`);
      if (rg) {
        const r = timed('rg', rg, ['-l', PATTERN, '.'], { cwd: cleanRoot });
        samples.rg.push(r.ms);
        check(r.code === 1 && r.stdout === '', `ripgrep finds no RunPod host in the clean tree (exit ${r.code}: ${r.stdout.slice(0, 300)})`);
      }
    }

    // (b) dry run on the v1 tree, then jscodeshift on the same files.
    const dry = timed('dry-run', process.execPath, [BIN, '--dry-run', '.', ...jobsArgs], { cwd: v1Root, rss: opts.rss });
    samples.dry.push(dry.ms);
    samples.dryRss.push(dry.rssKb);
    check(dry.code === 1, `dry run on the v1 tree exits 1 (got ${dry.code}${dry.signal ? `, signal ${dry.signal}` : ''}): ${dry.stderr.slice(0, 400)}`);
    const diffed = [...dry.stdout.matchAll(/^\+\+\+ b\/(.+)$/gm)].map((m) => m[1]).sort();
    const reported = [...new Set([...dry.stdout.matchAll(/^(\S[^\n]*\.(?:[cm]?[jt]sx?))$/gm)].map((m) => m[1]))];
    if (rep === 1) {
      changedFiles = diffed;
      const expected = [...v1.expectedChanged].sort();
      const missing = expected.filter((f) => !diffed.includes(f));
      const extra = diffed.filter((f) => !expected.includes(f));
      check(diffed.length === expected.length && !missing.length && !extra.length, `dry run changes exactly the ${expected.length} expected files (got ${diffed.length}; missing ${missing.slice(0, 5).join(', ') || 'none'}; unexpected ${extra.slice(0, 5).join(', ') || 'none'})`);
      check(!/\binternal-error\b|\bparse-error\b|\bskipped-file\b/.test(dry.stdout), `dry run reports no internal-error, parse-error or skipped-file finding`);
      check(!/node_modules\/|\.cache\//.test(dry.stdout), 'dry run looks at nothing under node_modules/ or the ignored .cache/');
      const jobFiles = v1.runpodUnchanged;
      check(!jobFiles.some((f) => diffed.includes(f)), 'job-API and already-v2 files are left alone');
      // "Analysed": the import-connected files the run takes part in (estimated from the generated
      // graph with the 3-hop rule of src/run/project.ts) plus every file the report names.
      analysedFiles = [...new Set([...closure, ...diffed, ...reported.filter((f) => fs.existsSync(path.join(v1Root, f)))])].sort();
    } else {
      check(diffed.join('\n') === changedFiles.join('\n'), `repetition ${rep}: the dry run changes the same files as repetition 1`);
    }
    const jscsA = timed('jscodeshift', process.execPath, jscsArgs, { cwd: v1Root, input: analysedFiles.join('\n'), rss: opts.rss === 'time' ? 'time' : null });
    samples.jscsAnalysed.push(jscsA.ms);
    samples.jscsRss.push(jscsA.rssKb);
    check(jscsClean(jscsA, analysedFiles.length), `jscodeshift parses and prints the ${analysedFiles.length} analysed files without error (exit ${jscsA.code}: ${(jscsA.stdout + jscsA.stderr).trim().split('\n').slice(-6).join(' | ')})`);
    const jscsC = timed('jscodeshift', process.execPath, jscsArgs, { cwd: v1Root, input: changedFiles.join('\n') });
    samples.jscsChanged.push(jscsC.ms);

    // (b') the same comparison on only the files that hold a v1 URL, given by name: `pairs` times.
    for (let pair = 0; pair < opts.pairs; pair++) {
      const dryV1 = timed('dry-run v1 files', process.execPath, [BIN, '--dry-run', ...jobsArgs, ...v1Files], { cwd: v1Root });
      samples.dryV1.push(dryV1.ms);
      check(dryV1.code === 1 && !/\binternal-error\b|\bparse-error\b/.test(dryV1.stdout), `dry run on the ${v1Files.length} v1 files exits 1 with no internal-error or parse-error (got ${dryV1.code})`);
      const jscsV1 = timed('jscodeshift', process.execPath, jscsArgs, { cwd: v1Root, input: v1Files.join('\n') });
      samples.jscsV1.push(jscsV1.ms);
      check(jscsClean(jscsV1, v1Files.length), `jscodeshift parses and prints the ${v1Files.length} v1 files without error`);
    }
    check(jscsClean(jscsC, changedFiles.length), `jscodeshift parses and prints the ${changedFiles.length} changed files without error`);
  }

  const shared = sharedSizes.map((n) => sharedImportRun(n, jscsArgs, jobsArgs));
  const text = textCopies ? textScanRun(textCopies, jobsArgs) : null;

  // -------------------------------------------------------------------------------------------
  // Report
  // -------------------------------------------------------------------------------------------
  const m = {
    lint: median(samples.lint),
    rg: samples.rg.length ? median(samples.rg) : null,
    dry: median(samples.dry),
    jscsAnalysed: median(samples.jscsAnalysed),
    jscsChanged: median(samples.jscsChanged),
    dryV1: median(samples.dryV1),
    jscsV1: median(samples.jscsV1),
  };
  const rssValues = (xs) => xs.filter((x) => x != null);
  const lintRss = rssValues(samples.lintRss).length ? Math.max(...rssValues(samples.lintRss)) : null;
  const dryRss = rssValues(samples.dryRss).length ? Math.max(...rssValues(samples.dryRss)) : null;
  const peakRss = lintRss == null && dryRss == null ? null : Math.max(lintRss ?? 0, dryRss ?? 0);
  const lintRatio = m.rg ? m.lint / m.rg : null;
  const dryRatio = m.dry / m.jscsAnalysed;
  const dryRatioChanged = m.dry / m.jscsChanged;
  const dryRatioV1 = m.dryV1 / m.jscsV1;
  const atTarget = v1.sources >= TARGET_FILES * 0.9;
  const scaleNote = atTarget ? '' : `measured at ${v1.sources} files per tree; the targets are set at ~${TARGET_FILES} files (BENCH_PACKAGES=30 BENCH_FILES=1000), so these verdicts are indicative`;
  const verdict = (ok) => (ok === 'info' ? '' : ok == null ? 'SKIP' : ok ? 'PASS' : 'FAIL');
  const targets = [
    { target: `lint, ~30k files, no RunPod usage: within 2.5× of ripgrep`, value: lintRatio == null ? 'ripgrep not installed' : `${lintRatio.toFixed(2)}×`, ok: lintRatio == null ? null : lintRatio <= 2.5 },
    { target: `rewrite (dry run of the ${v1Files.length} files with a v1 URL) at least as fast as jscodeshift parse+print of the same files`, value: `${dryRatioV1.toFixed(2)}× jscodeshift's time`, ok: dryRatioV1 <= 1 },
    // No target: the tree run also finds those files among all of them, which jscodeshift is spared here.
    { target: 'for information: dry run of the whole tree against jscodeshift on only the files it analyses', value: `${dryRatio.toFixed(2)}× jscodeshift's time`, ok: 'info' },
    { target: 'peak RSS under 500 MB at 30k files', value: fmtMB(peakRss), ok: peakRss == null ? null : peakRss < 500 * 1024 },
    ...sharedTargets(shared),
  ];

  const lines = [];
  const row = (cells, widths) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ').trimEnd();
  const table = (head, rows) => {
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
    lines.push(row(head, widths), widths.map((w) => '-'.repeat(w)).join('  '));
    for (const r of rows) lines.push(row(r, widths));
    lines.push('');
  };
  lines.push('', 'v2-migrate benchmark', '');
  table(
    ['machine', ''],
    [
      ['cpu', `${machine.cpu}, ${machine.cores} cores, ${machine.memory}`],
      ['os', machine.os],
      ['load average', `${machine.loadStart} at start, ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} at end (1/5/15 min; other work on the machine skews timings)`],
      ['node', machine.node],
      ['v2-migrate', `${machine.v2migrate}${opts.jobs ? `, --jobs ${opts.jobs}` : ', default --jobs'}`],
      ['ripgrep', machine.rg ?? 'not installed: the lint-vs-ripgrep comparison is skipped (apt-get install ripgrep)'],
      ['jscodeshift', `${machine.jscodeshift}, ${machine.jscodeshiftWorkers} worker(s), --no-babel, no-op transform`],
      ['peak RSS via', machine.rss],
      ['repetitions', `${opts.reps} (medians; (a) and (b') ${opts.pairs} pairs each: ${opts.reps * opts.pairs} runs)`],
    ],
  );
  table(
    ['tree', 'packages', 'JS/TS sources', 'all files', 'ignored noise', 'size', 'RunPod files', 'expected changed', 'analysed'],
    [
      ['v1 (dry run)', opts.packages, v1.sources, v1.files, v1.ignoredFiles, fmtBytes(v1.bytes), v1.runpodFiles.length, v1.expectedChanged.length, analysedFiles.length],
      ['clean (lint)', opts.packages, clean.sources, clean.files, clean.ignoredFiles, fmtBytes(clean.bytes), 0, 0, 0],
    ],
  );
  table(
    ['measurement', 'median', 'runs', 'peak RSS'],
    [
      ['(a) v2-migrate lint . (clean tree)', fmtS(m.lint), samples.lint.map(fmtS).join(', '), fmtMB(lintRss)],
      ["(a) rg -l 'rest\\.runpod\\.io|api\\.runpod\\.io' .", m.rg == null ? 'skipped' : fmtS(m.rg), samples.rg.map(fmtS).join(', ') || 'ripgrep not installed', ''],
      ['(b) v2-migrate --dry-run . (v1 tree)', fmtS(m.dry), samples.dry.map(fmtS).join(', '), fmtMB(dryRss)],
      [`(b) jscodeshift no-op on the ${analysedFiles.length} analysed files`, fmtS(m.jscsAnalysed), samples.jscsAnalysed.map(fmtS).join(', '), fmtMB(rssValues(samples.jscsRss).length ? Math.max(...rssValues(samples.jscsRss)) : null)],
      [`    jscodeshift no-op on the ${changedFiles.length} changed files only`, fmtS(m.jscsChanged), samples.jscsChanged.map(fmtS).join(', '), ''],
      [`(b') v2-migrate --dry-run <the ${v1Files.length} files with a v1 URL>`, fmtS(m.dryV1), samples.dryV1.map(fmtS).join(', '), ''],
      [`(b') jscodeshift no-op on the same ${v1Files.length} files`, fmtS(m.jscsV1), samples.jscsV1.map(fmtS).join(', '), ''],
    ],
  );
  table(
    ['ratio', 'value'],
    [
      ['lint / ripgrep', lintRatio == null ? 'skipped (no ripgrep)' : `${lintRatio.toFixed(1)}×`],
      ['dry run / jscodeshift (analysed files)', `${dryRatio.toFixed(2)}×`],
      ['dry run / jscodeshift (changed files only)', `${dryRatioChanged.toFixed(2)}×`],
      ['dry run / jscodeshift (the files with a v1 URL, named)', `${dryRatioV1.toFixed(2)}×`],
    ],
  );
  if (shared.length) {
    lines.push(`(d) shared-import tree: N REST v1 client files that each import one shared module; medians of ${opts.sharedReps} paired runs (1 over 4,000 files)`, '');
    table(
      ['v1 files', 'v2-migrate --dry-run .', 'jscodeshift parse+print', 'ratio', 'peak RSS', 'growth exponent (from the size before)'],
      shared.map((r, i) => [r.files, fmtS(r.dry), fmtS(r.jscs), `${(r.dry / r.jscs).toFixed(2)}×`, fmtMB(r.rssKb), i ? growth(shared[i - 1], r).toFixed(2) : '']),
    );
  }
  if (text) lines.push(...textTable(text));
  table(
    ['target', 'measured', 'result'],
    targets.map((t) => [t.target, t.value, verdict(t.ok)]),
  );
  if (scaleNote) lines.push(`Note: ${scaleNote}.`);
  lines.push(
    'Analysed files: the files that mention a RunPod host, their importers within 3 hops and what those import within 2,',
    "estimated from the generated import graph with src/run/project.ts's rule, plus every file the dry run names.",
  );
  lines.push(problems.length ? `Correctness: ${problems.length} check(s) FAILED:\n${problems.map((p) => `  - ${p}`).join('\n')}` : `Correctness: OK (lint clean, ${rg ? 'ripgrep empty, ' : ''}dry run changed exactly the ${v1.expectedChanged.length} expected files, jscodeshift without errors).`, '');
  process.stdout.write(lines.join('\n') + '\n');

  if (opts.json) {
    fs.writeFileSync(
      opts.json,
      JSON.stringify({ machine, options: opts, trees: { v1: { sources: v1.sources, files: v1.files, bytes: v1.bytes, runpod: v1.runpodFiles.length, expectedChanged: v1.expectedChanged.length, analysed: analysedFiles.length }, clean: { sources: clean.sources, files: clean.files, bytes: clean.bytes } }, samples, medians: m, ratios: { lintVsRg: lintRatio, dryVsJscodeshift: dryRatio, dryVsJscodeshiftChanged: dryRatioChanged, dryV1VsJscodeshift: dryRatioV1 }, peakRssKb: { lint: lintRss, dry: dryRss }, shared, text, targets: targets.map((t) => ({ ...t, result: verdict(t.ok) })), problems }, null, 2) + '\n',
    );
  }
  if (problems.length) return 1;
  if (process.env.BENCH_STRICT === '1' && targets.some((t) => t.ok === false)) return 1;
  return 0;
}

// ---------------------------------------------------------------------------------------------
// (d) The shared-import tree
// ---------------------------------------------------------------------------------------------

/** Growth exponent of the dry run's time from size `a` to size `b`: 1 is linear. */
function growth(a, b) {
  return Math.log(b.dry / a.dry) / Math.log(b.files / a.files);
}

/**
 * `v2-migrate --dry-run .` on a shared-import tree of `files` v1 files and jscodeshift on the same
 * files, paired (back to back, `sharedReps` times; once above 4,000 files), with correctness checks.
 */
function sharedImportRun(files, jscsArgs, jobsArgs) {
  const root = path.join(tmp, `shared-${files}`);
  log(`(d) shared-import tree of ${files} v1 files`);
  const tree = generateSharedImportTree(root, { files });
  const sources = [...tree.imports.keys()].sort();
  const reps = files > 4000 ? 1 : opts.sharedReps;
  const dry = [];
  const jscs = [];
  const rss = [];
  for (let rep = 0; rep < reps; rep++) {
    const r = timed('dry-run shared', process.execPath, [BIN, '--dry-run', '.', ...jobsArgs], { cwd: root, rss: opts.rss });
    dry.push(r.ms);
    rss.push(r.rssKb);
    check(r.code === 1, `shared-import tree of ${files}: the dry run exits 1 (got ${r.code}${r.signal ? `, signal ${r.signal}` : ''}): ${r.stderr.slice(0, 400)}`);
    if (rep === 0) {
      const diffed = [...r.stdout.matchAll(/^\+\+\+ b\/(.+)$/gm)].map((m) => m[1]).sort();
      const expected = [...tree.expectedChanged].sort();
      check(diffed.join('\n') === expected.join('\n'), `shared-import tree of ${files}: the dry run changes exactly the ${expected.length} expected files (got ${diffed.length})`);
      check(!/\binternal-error\b|\bparse-error\b|\bskipped-file\b/.test(r.stdout), `shared-import tree of ${files}: no internal-error, parse-error or skipped-file finding`);
    }
    const j = timed('jscodeshift shared', process.execPath, jscsArgs, { cwd: root, input: sources.join('\n') });
    jscs.push(j.ms);
    check(jscsClean(j, sources.length), `shared-import tree of ${files}: jscodeshift parses and prints the ${sources.length} files without error`);
  }
  fs.rmSync(root, { recursive: true, force: true });
  const known = rss.filter((x) => x != null);
  return { files, dry: median(dry), jscs: median(jscs), rssKb: known.length ? Math.max(...known) : null, dryRuns: dry, jscsRuns: jscs };
}

/** The issue's targets for the shared-import tree, where its sizes were measured. */
function sharedTargets(shared) {
  const at = (n) => shared.find((r) => r.files === n);
  const out = [];
  const two = at(2000);
  if (two) {
    out.push({ target: 'shared-import tree, 2,000 v1 files: dry run at most 0.5× jscodeshift parse+print of the same files', value: `${(two.dry / two.jscs).toFixed(2)}×`, ok: two.dry / two.jscs <= 0.5 });
    out.push({ target: 'shared-import tree, 2,000 v1 files: peak RSS at most 400 MB', value: fmtMB(two.rssKb), ok: two.rssKb == null ? null : two.rssKb <= 400 * 1024 });
  }
  if (shared.length > 1) {
    const first = shared[0];
    const last = shared[shared.length - 1];
    const g = growth(first, last);
    out.push({ target: `shared-import tree: growth exponent at most 1.1 from ${first.files} to ${last.files} files`, value: g.toFixed(2), ok: g <= 1.1 });
  }
  return out;
}
