/**
 * A Dockerfile's instructions as read by `dockerfile-ast` (continuations, comments inside them, the
 * `# escape=` directive, flags, heredocs), with the line/character ranges it gives turned into offsets.
 */
import type { Instruction } from 'dockerfile-ast';
import { requireDependency } from '../util/lazy.js';
import { ParseCache } from './parse-cache.js';

export interface DockerInstruction {
  /** Upper case (`RUN`). */
  keyword: string;
  /** Offsets of the arguments (after the keyword) to the end of the instruction (continuations and heredocs included). */
  start: number;
  end: number;
  /**
   * What runs: the command of RUN, CMD, ENTRYPOINT (after flags such as `--mount=…`), of
   * `HEALTHCHECK [options] CMD …` and of `ONBUILD RUN …`; shell form or an exec-form JSON array.
   */
  command: [number, number] | null;
  /** RUN (and `ONBUILD RUN`) here-documents: the `<<EOF` operator and the body (null when empty). */
  heredocs: Array<{ operator: [number, number]; body: [number, number] | null }>;
}

interface Position {
  line: number;
  character: number;
}
interface Range {
  start: Position;
  end: Position;
}

let ast: typeof import('dockerfile-ast') | null = null;

function library(): typeof import('dockerfile-ast') {
  if (!ast) {
    const loaded: typeof import('dockerfile-ast') = requireDependency('dockerfile-ast');
    ast = loaded;
  }
  return ast;
}

const parses = new ParseCache<DockerInstruction[]>();

/** A Dockerfile's instructions: read once for the scan and the check of its rewrite. */
export function dockerfileInstructions(text: string): DockerInstruction[] {
  return parses.get(text, readInstructions);
}

function readInstructions(text: string): DockerInstruction[] {
  const lib = library();
  const offset = offsets(text);
  const at = (r: Range): [number, number] => [offset(r.start), offset(r.end)];
  return lib.DockerfileParser.parse(text).getInstructions().map((ins) => {
    const [, end] = at(ins.getRange());
    const args = ins.getArgumentsRange();
    const run = ins instanceof lib.Onbuild ? ins.getTriggerInstruction() : ins;
    const heredocs = (run instanceof lib.Run ? run.getHeredocs() : []).map((h) => {
      const content = h.getContentRange();
      return { operator: at(h.getStartRange()), body: content ? at(content) : null };
    });
    return { keyword: ins.getKeyword().toUpperCase(), start: args ? offset(args.start) : end, end, command: commandOf(lib, run, end, offset), heredocs };
  });
}

/** Where an instruction's command starts (its first argument after flags, or after `CMD` for HEALTHCHECK). */
function commandOf(lib: typeof import('dockerfile-ast'), ins: Instruction | null, end: number, offset: (p: Position) => number): [number, number] | null {
  if (ins instanceof lib.Healthcheck) {
    const [sub, first] = ins.getArguments();
    return sub?.getValue().toUpperCase() === 'CMD' && first ? [offset(first.getRange().start), end] : null;
  }
  if (!(ins instanceof lib.Run || ins instanceof lib.Cmd || ins instanceof lib.Entrypoint)) return null;
  const first = ins.getArguments()[0];
  return first ? [offset(first.getRange().start), end] : null;
}

/** Line/character (UTF-16) positions to offsets; lines end at \r\n, \n or \r, as dockerfile-ast counts them. */
function offsets(text: string): (p: Position) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\r' && text[i + 1] === '\n') i++;
    if (ch === '\n' || ch === '\r') starts.push(i + 1);
  }
  return (p) => Math.min((starts[p.line] ?? text.length) + p.character, text.length);
}
