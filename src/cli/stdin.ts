import path from 'node:path';
import { LiveProject, type LoadedSettings } from '../live/project.js';
import type { ResultCache } from '../run/cache.js';
import { decode, encode } from '../run/files.js';
import type { FileResult, RunResult } from '../run/types.js';
import { summarize } from '../run/summary.js';
import { UsageError } from './usage.js';

/** Standard input as text (BOM noted, so a write gives it back). */
export async function readStdin(input: NodeJS.ReadableStream): Promise<{ text: string; bom: boolean }> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  const decoded = decode(Buffer.concat(chunks));
  if (decoded.kind !== 'text') throw new UsageError(`--stdin: standard input is ${decoded.kind === 'binary' ? 'binary' : 'not UTF-8 text'}`);
  return decoded;
}

export interface StdinRun {
  result: RunResult;
  /** Files (relative) whose changes go with this one's: the change is then not applied (see README). */
  changesWith: string[];
}

/**
 * `--stdin --stdin-filename <path>`: the text analysed as the file at that path, with the files of its
 * project as they are on disk (the ones it imports, the config above it). A change that goes with
 * changes to other files is not applied: writing one of them alone would half-migrate. The generated
 * adapter file is one of those when the change needs it created or given a new adapter (standard
 * output carries one file); once a run has written it, such changes apply.
 */
export async function stdinRun(input: { text: string; bom: boolean }, filename: string, cwd: string, load: () => LoadedSettings, options: { jobs: number; disk: ResultCache | null }): Promise<StdinRun> {
  const file = path.resolve(cwd, filename);
  const live = new LiveProject({ root: cwd, load, jobs: options.jobs, focus: true, disk: options.disk });
  const answer = await live.answer(file, input.text);
  const changesWith = answer.changesWith.map((f) => relative(cwd, f));
  const applies = answer.output !== null && !changesWith.length;
  if (answer.output !== null && !applies) for (const f of answer.findings) if (f.fixable) f.fixable = false;
  const result: FileResult = {
    path: relative(cwd, file),
    absPath: file,
    package: '.',
    changed: applies,
    findings: answer.findings,
    suppressed: answer.suppressed,
    baselined: [],
    prints: answer.prints,
    markerProblems: answer.markerProblems,
    inventory: null,
    ...(applies ? { before: input.text, after: answer.output!, bytes: encode(answer.output!, input.bom) } : {}),
  };
  const listed = result.changed || result.findings.length || result.suppressed.length ? [result] : [];
  return { result: { results: listed, summary: summarize(listed, 1) }, changesWith };
}

const relative = (cwd: string, file: string): string => path.relative(cwd, file).split(path.sep).join('/');
