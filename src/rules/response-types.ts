/**
 * The TypeScript types a RunPod response is declared with (a call's type argument, a cast, an
 * annotation, a function's declared return type, inline or named, in this file or imported), and
 * the reads through them. A member v2 renamed is renamed in its declaration together with the reads
 * of this request that go through it, or neither is: a renamed member whose read cannot change (or a
 * read renamed past an unrenamed member) would not compile. Members v2 moved, nested or dropped get
 * a finding where they are declared.
 */
import type { SourceEdit } from '../js/edits.js';
import type { N } from '../js/ast.js';
import type { StaticType } from '../js/responses/static-type.js';
import { builtAt } from '../js/responses/type-builders.js';
import { BILLING, responseField, type ItemKind } from '../map/responses.js';
import { fieldMessage } from './field-messages.js';
import { finding, type PlannedFinding } from './plan.js';
import type { RuleId } from './registry.js';

/** Rename a property key (`dataCenterId: string` → `dataCenter: string`, `'dataCenterId'` → `'dataCenter'`). */
export function renameKey(source: string, key: N, to: string): SourceEdit | null {
  const { start, end } = key;
  if (typeof start !== 'number' || typeof end !== 'number') return null;
  if (key.type === 'Identifier') return { start, end, text: to, node: key };
  if (key.type === 'StringLiteral' && source.slice(start + 1, end - 1) === key.value) return { start: start + 1, end: end - 1, text: to, node: key };
  return null;
}

interface RenamedRead {
  anchor: N;
  message: string;
  edits: SourceEdit[];
}

/** A member v2 renamed, and what this request's reads through it need. */
export interface RenamedMember {
  key: N;
  /** `type TemplateInfo`, `an inline type`. */
  what: string;
  name: string;
  head: string;
  edit: SourceEdit;
  reads: RenamedRead[];
  /** The first read through it that cannot be rewritten: the member stays, and so do its other reads. */
  held: { at: N; why: string } | null;
}

const lineOf = (n: N): string => `line ${n.loc?.start.line ?? '?'}`;

export class ResponseTypes {
  /** Keys of members renamed with their reads (what read-forms.ts `planRename` accepts as renamed). */
  readonly renaming = new Set<N>();
  /** Declarations and member keys already looked at (a type is met at every read through it). */
  private readonly seen = new Set<N>();
  private readonly candidates = new Map<N, RenamedMember>();
  private readonly findings: PlannedFinding[] = [];
  private readonly rule: RuleId;

  constructor(
    private readonly item: ItemKind,
    private readonly source: string,
  ) {
    this.rule = BILLING.includes(item) ? 'billing-records' : 'response-field';
  }

  /** A type one object of the response is declared with (promises and lists already taken off). */
  describe(t: StaticType | undefined): void {
    // Declared in the code: an interface, an alias or a literal (axios' made-up `{ data }` has no declaration).
    if (t?.kind !== 'object' || !t.decl || this.seen.has(t.decl)) return;
    this.seen.add(t.decl);
    const what = t.name ? `type ${t.name}` : 'an inline type';
    // v2 names the members take, each once (`costPerHr` and `adjustedCostPerHr` are both `cost`).
    const taken = new Set(t.members.keys());
    for (const [name, member] of t.members) {
      const key = member.key;
      if (!key || this.seen.has(key)) continue;
      this.seen.add(key);
      const row = responseField(name, this.item);
      if (!row) continue;
      const head = `${what.charAt(0).toUpperCase()}${what.slice(1)} describes this RunPod response: ${fieldMessage(row, this.item, name, true)}`;
      if (row.fate.kind !== 'rename') {
        this.findings.push(finding(this.rule, key, `${head} Update the type by hand.`, false));
        continue;
      }
      const to = row.fate.to;
      // The code builds values of the type itself: they keep the v1 names, so the type does too.
      const built = builtAt(t.decl);
      const edit = taken.has(to) || built ? null : renameKey(this.source, key, to);
      if (!edit) {
        const why = built
          ? `the code also gives this type to a value it builds itself (line ${built.loc?.start.line ?? '?'}), which keeps "${name}"; give that value a type of its own, or rename both`
          : taken.has(to)
            ? `it already declares "${to}" (or another member becomes "${to}"): remove "${name}" from it`
            : 'its key is not written as a plain name; rename it';
        this.findings.push(finding(this.rule, key, `${head} Not renamed: ${why} by hand.`, false));
        continue;
      }
      taken.add(to);
      this.candidates.set(key, { key, what, name, head, edit, reads: [], held: null });
      this.renaming.add(key);
    }
  }

  /** The member a read of `name` on a value of type t goes through, when it is renamed with its reads. */
  through(t: StaticType | undefined, name: string): RenamedMember | null {
    const key = t?.kind === 'object' ? t.members.get(name)?.key : null;
    return (key && this.candidates.get(key)) ?? null;
  }

  /** A read through a renamed member (`through`): rewritten with it (its edits), or not (why not). */
  read(c: RenamedMember, anchor: N, message: string, outcome: SourceEdit[] | string): void {
    if (typeof outcome !== 'string') {
      c.reads.push({ anchor, message, edits: outcome });
      return;
    }
    c.held ??= { at: anchor, why: outcome };
    this.findings.push(finding(this.rule, anchor, `${message} Not rewritten: ${outcome}.`, false));
  }

  /** The findings, and the edits of every member whose reads could all change with it. */
  commit(plan: { specific: SourceEdit[]; findings: PlannedFinding[] }): void {
    plan.findings.push(...this.findings);
    for (const c of this.candidates.values()) {
      if (!c.held) {
        plan.specific.push(c.edit, ...c.reads.flatMap((r) => r.edits));
        plan.findings.push(finding(this.rule, c.key, `${c.head} Renamed in the type too.`, true));
        for (const r of c.reads) plan.findings.push(finding(this.rule, r.anchor, r.message, true));
        continue;
      }
      const held = `the read at ${lineOf(c.held.at)} (${c.held.why})`;
      plan.findings.push(finding(this.rule, c.key, `${c.head} Not renamed: ${held} cannot change with it, and a type and the reads through it change together. Update both by hand.`, false));
      for (const r of c.reads) {
        plan.findings.push(finding(this.rule, r.anchor, `${r.message} Not rewritten: ${c.what} (${lineOf(c.key)}) declares "${c.name}" and also types ${held}; change them together by hand.`, false));
      }
    }
  }
}
