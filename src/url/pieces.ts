/**
 * A URL as the engines see it: literal text pieces (each remembering where it came from, so it can
 * be edited in place) and holes (values nobody can know statically, such as `${podId}`).
 */
export interface TextPiece<O> {
  kind: 'text';
  text: string;
  origin: O;
}
export interface HolePiece<O> {
  kind: 'hole';
  origin: O;
  /** Source text of the hole, for messages (`podId`, `this.base`). */
  label: string;
  /** The hole is a parameter of an enclosing function that was not bound by a known caller. */
  unboundParam?: boolean;
  /**
   * What is known of the value: `query` — it is empty or starts with `?` or `#` (`qs ? \`?${qs}\` : ''`),
   * so the path ends where it begins. Absent: nothing is known.
   */
  known?: 'query';
  /** The value is one of these, each fully known (`V1_BASE if USE_V1 else V2_BASE`). */
  either?: ReadonlyArray<ReadonlyArray<Piece<O>>>;
}
export type Piece<O> = TextPiece<O> | HolePiece<O>;

/** Replace `text.slice(start, end)` of text piece `piece` with `text`. */
export interface PieceEdit {
  piece: number;
  start: number;
  end: number;
  text: string;
}

/** Placeholder for a hole in the flattened string; cannot occur in source text we care about. */
export const HOLE = '\u0000';
/** Placeholder for a hole known to be empty or a query string / fragment: the path ends there. */
export const QUERY_HOLE = '\u0001';
/** Either placeholder: a character of the flattened string that stands for a hole. */
export const isHoleChar = (c: string | undefined): boolean => c === HOLE || c === QUERY_HOLE;
export const hasHole = (text: string): boolean => text.includes(HOLE) || text.includes(QUERY_HOLE);

export interface Flat {
  text: string;
  /** The piece and offset a char of `text` (or one past the end) comes from; offset -1 for a hole. */
  at(i: number): { piece: number; offset: number };
}

export function flatten<O>(pieces: readonly Piece<O>[]): Flat {
  let text = '';
  // Where each piece ends in `text` (a hole is one char): chars are located from these on demand.
  const ends: number[] = [];
  for (const p of pieces) {
    text += p.kind === 'hole' ? (p.known === 'query' ? QUERY_HOLE : HOLE) : p.text;
    ends.push(text.length);
  }
  const last = pieces.length - 1;
  const lastPiece = pieces[last];
  const end = { piece: last, offset: lastPiece?.kind === 'text' ? lastPiece.text.length : -1 };
  return {
    text,
    at(i) {
      if (i >= text.length) return end;
      let piece = 0;
      while (ends[piece]! <= i) piece++; // the first piece that ends after char i (an empty one holds none)
      const p = pieces[piece]!;
      return { piece, offset: p.kind === 'hole' ? -1 : i - (ends[piece]! - p.text.length) };
    },
  };
}

/**
 * Map a replacement of flat range [from, to) back onto the pieces. The range must not cover a hole;
 * a range spanning several text pieces puts the replacement in the first and empties the rest.
 * Returns null when the range cannot be edited (it covers a hole).
 */
export function flatEditToPieces(flat: Flat, from: number, to: number, replacement: string): PieceEdit[] | null {
  if (hasHole(flat.text.slice(from, to))) return null;
  if (from === to) {
    // Pure insertion: attach to the piece of the previous char when possible.
    const anchor = from > 0 ? flat.at(from - 1) : flat.at(from);
    if (anchor.offset < 0) return null;
    const offset = from > 0 ? anchor.offset + 1 : anchor.offset;
    return [{ piece: anchor.piece, start: offset, end: offset, text: replacement }];
  }
  const edits: PieceEdit[] = [];
  let i = from;
  while (i < to) {
    const { piece, offset } = flat.at(i);
    let j = i;
    while (j + 1 < to && flat.at(j + 1).piece === piece) j++;
    edits.push({ piece, start: offset, end: flat.at(j).offset + 1, text: edits.length === 0 ? replacement : '' });
    i = j + 1;
  }
  return edits;
}
