/**
 * The last of `count` items, ordered by where they start, that starts at or before `offset`
 * (0 when none does): the line, file or token an offset falls in.
 */
export function lastStartingBy(count: number, startOf: (i: number) => number, offset: number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (startOf(mid) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Offset → 1-based line and column (UTF-16 code units, like the JS engine), counting '\n' only (as git and diffs do). */
export class Lines {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }
  pos(offset: number): { line: number; column: number } {
    const i = lastStartingBy(this.starts.length, (k) => this.starts[k]!, offset);
    return { line: i + 1, column: offset - this.starts[i]! + 1 };
  }
  lineStart(line: number): number {
    return this.starts[line - 1] ?? 0;
  }
}

/** 1-based line and column of an offset: a `Lines` built once per text, as a function. */
export function lineIndex(text: string): (offset: number) => { line: number; column: number } {
  const lines = new Lines(text);
  return (offset) => lines.pos(offset);
}
