/**
 * Text written in one file and read by another (a sourced script's base, an imported module's
 * constant): its pieces as the reading file sees them, with a project-wide id for each literal.
 */
import type { Lines } from '../util/lines.js';
import type { TPiece } from './plan.js';

/** Project-wide ids (negative, so they never clash with a file's own offsets) for literals of other files. */
export class ForeignIds {
  private readonly byKey = new Map<string, number>();
  private readonly byId = new Map<number, { file: string; offset: number }>();

  idOf(file: string, offset: number): number {
    const key = `${file}\u0000${offset}`;
    let id = this.byKey.get(key);
    if (id === undefined) {
      id = -10 - this.byKey.size;
      this.byKey.set(key, id);
      this.byId.set(id, { file, offset });
    }
    return id;
  }

  lookup(id: number): { file: string; offset: number } | undefined {
    return this.byId.get(id);
  }
}

/** Pieces written in `file`, as another file sees them: never editable there, literals by project-wide id. */
export function foreignPieces(pieces: readonly TPiece[], file: string, lines: Lines, ids: ForeignIds): TPiece[] {
  return pieces.map((p) => {
    if (p.kind !== 'text' || p.origin.foreign) return p;
    return { ...p, origin: { ...p.origin, editable: false, local: false, literal: ids.idOf(file, p.origin.literal), foreign: { file, line: lines.pos(p.origin.literal).line } } };
  });
}
