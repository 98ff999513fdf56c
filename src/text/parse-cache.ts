/**
 * The last few parses of one grammar, by text. A file's scan, the project layer that links it to
 * others (text/links-*.ts) and the check that its rewrite still parses (text/well-formed.ts) all ask
 * for the same text's syntax: it is parsed once.
 */
export class ParseCache<T> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly size = 16) {}

  /** The kept reading of `text`, if any (nothing is parsed). */
  peek(text: string): T | undefined {
    return this.entries.get(text);
  }

  get(text: string, parse: (text: string) => T): T {
    const hit = this.entries.get(text);
    if (hit !== undefined) {
      // Most recently used last: the oldest is the one dropped.
      this.entries.delete(text);
      this.entries.set(text, hit);
      return hit;
    }
    const value = parse(text);
    this.entries.set(text, value);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.size) break;
      this.entries.delete(oldest);
    }
    return value;
  }
}
