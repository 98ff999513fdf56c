/**
 * A Dockerfile's instructions as read by `dockerfile-ast` (continuations, comments inside them, the
 * `# escape=` directive, heredocs), with the line/character ranges it gives turned into offsets.
 */
import type { Heredoc, Instruction, Run } from 'dockerfile-ast';
import { requireDependency } from '../util/lazy.js';

export interface DockerInstruction {
  /** Upper case (`RUN`). */
  keyword: string;
  /** Offsets of the arguments (after the keyword) to the end of the instruction (continuations and heredocs included). */
  start: number;
  end: number;
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

let parser: typeof import('dockerfile-ast').DockerfileParser | null = null;

export function dockerfileInstructions(text: string): DockerInstruction[] {
  parser ??= (requireDependency('dockerfile-ast') as typeof import('dockerfile-ast')).DockerfileParser;
  const offset = offsets(text);
  const at = (r: Range): [number, number] => [offset(r.start), offset(r.end)];
  return parser.parse(text).getInstructions().map((ins) => {
    const [, end] = at(ins.getRange());
    const args = ins.getArgumentsRange();
    const heredocs = heredocsOf(ins).map((h) => {
      const content = h.getContentRange();
      return { operator: at(h.getStartRange()), body: content ? at(content) : null };
    });
    return { keyword: ins.getKeyword().toUpperCase(), start: args ? offset(args.start) : end, end, heredocs };
  });
}

function heredocsOf(ins: Instruction): Heredoc[] {
  return ins.getKeyword().toUpperCase() === 'RUN' ? (ins as unknown as Run).getHeredocs() : [];
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
