/**
 * v1 error bodies read with a stand-in for a body that is not JSON: `res.json().catch(() => ({
 * message: res.statusText }))`, `… || { message }`, `… ?? {}`, `body = { message }` in a catch. A read
 * of `.message` then sees the v2 problem or the stand-in; rewriting the read alone to `.detail` makes
 * a non-JSON error (a proxy's HTML page, an empty 502) read `undefined`. So the read becomes
 * `.detail` only together with the stand-in's key, and neither changes where a stand-in's shape is
 * not written out (a variable, a call, a spread): then the read is reported.
 */
import type { SourceEdit } from '../js/edits.js';
import type { N, P } from '../js/ast.js';
import { keyName } from '../js/scope.js';
import { renameObjectKey } from '../js/responses/edits.js';

/** One read of a v1 error field (`.message`) that v2 renamed. */
export interface ErrorRead {
  name: string;
  to: string;
  anchor: N;
  /** What the read may see instead of the RunPod body (flow.ts `Value.fallbacks`). */
  fallbacks: readonly P[];
  /** The read's own edits, null when it cannot be rewritten. */
  edits: SourceEdit[] | null;
  /** Why it is not rewritten. */
  doubt: string | null;
  /** Lines of the stand-ins whose key changes with it. */
  standIns: number[];
}

/** Values whose fields read the same before and after: a read of either name gets undefined (or throws on null). */
const SHAPELESS = new Set<N['type']>(['NullLiteral', 'StringLiteral', 'TemplateLiteral', 'NumericLiteral', 'BooleanLiteral']);
/** Syntax around a value that does not change it. */
const WRAPPERS = new Set<N['type']>(['ParenthesizedExpression', 'TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'TSTypeAssertion']);

const lineOf = (n: N): number | string => n.loc?.start.line ?? '?';

/** The value itself under parentheses and type assertions. */
function bare(p: P): P {
  let q = p;
  while (WRAPPERS.has(q.value.type)) q = q.get('expression');
  return q;
}

/** A short quote of an expression for a message. */
function quote(n: N, source: string): string {
  const text = source.slice(n.start ?? 0, n.end ?? 0).replace(/\s+/g, ' ');
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/** The edits that give a stand-in `to` where it has `from` (none when it has neither), or why the tool cannot tell. */
function standInEdits(p: P, from: string, to: string, source: string): SourceEdit[] | string {
  const n = bare(p).value;
  const where = `\`${quote(n, source)}\` (line ${lineOf(n)})`;
  if (SHAPELESS.has(n.type) || (n.type === 'Identifier' && n.name === 'undefined')) return [];
  if (n.type !== 'ObjectExpression') return `it may also come from ${where}, whose fields the tool cannot see`;
  const keys = n.properties.map((prop) => (prop.type === 'SpreadElement' ? null : keyName(prop.key, prop.computed)));
  if (keys.includes(null)) return `it may also be the stand-in ${where}, which spreads or computes keys the tool cannot see`;
  const own = n.properties[keys.indexOf(from)];
  if (!own) return [];
  if (keys.includes(to)) return `it may also be the stand-in ${where}, which has both "${from}" and "${to}"`;
  return renameObjectKey(source, own, to) ?? `it may also be the stand-in ${where}, whose "${from}" the tool cannot rename`;
}

/**
 * Settle the stand-ins of error reads: each read that changes takes its stand-ins' edits along; a
 * read that cannot change (or a stand-in that cannot) keeps every read of the same stand-in as it is,
 * since one object keeps one key. Updates `edits` and `doubt` in place.
 */
export function settleFallbacks(reads: readonly ErrorRead[], source: string): void {
  for (const r of reads) {
    if (!r.edits) r.doubt ??= 'the property is not written as a plain name';
    for (const f of r.fallbacks) {
      const planned = standInEdits(f, r.name, r.to, source);
      if (typeof planned === 'string') r.doubt ??= planned;
      else if (planned.length) {
        r.edits?.push(...planned);
        r.standIns.push(f.value.loc?.start.line ?? 0);
      }
    }
  }
  const shared = (a: ErrorRead, b: ErrorRead): P | undefined => a.fallbacks.find((f) => b.fallbacks.some((g) => g.value === f.value));
  for (let changed = true; changed; ) {
    changed = false;
    for (const held of reads.filter((r) => r.doubt)) {
      for (const r of reads) {
        const f = r.doubt ? undefined : shared(r, held);
        if (!f) continue;
        r.doubt = `the stand-in it may be (line ${lineOf(f.value)}) is also read at line ${lineOf(held.anchor)}, which is not rewritten, and one object keeps one key`;
        changed = true;
      }
    }
  }
  for (const r of reads) if (r.doubt) r.edits = null;
}
