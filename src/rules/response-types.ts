/**
 * The TypeScript types a RunPod response is declared with (a call's type argument, a cast, an
 * annotation, a function's declared return type, inline or named, in this file or imported), and
 * the reads through them. A member v2 renamed is renamed in its declaration together with every read
 * through it, or neither is: a renamed member whose read stays (or a read renamed past a member that
 * stays) would not compile. So a member stays when a read through it cannot be rewritten, when the
 * code that can see the type reads that name somewhere no request leads, or when the code builds
 * values of the type itself; that is settled once every request of the run is planned
 * (`settleResponseTypes`), since several requests may meet one type. Members v2 moved, nested or
 * dropped get a finding where they are declared.
 */
import type { SourceEdit } from '../js/edits.js';
import type { N } from '../js/ast.js';
import { currentProject } from '../js/project.js';
import type { StaticType } from '../js/responses/static-type.js';
import { builtAt, otherRead } from '../js/responses/type-uses.js';
import { BILLING, responseField, type ItemKind } from '../map/responses.js';
import { fieldMessage } from './field-messages.js';
import { finding, type PlanEnv, type PlannedFinding, type RequestPlan } from './plan.js';
import type { RuleId } from './registry.js';

/** Rename a property key (`dataCenterId: string` → `dataCenter: string`, `'dataCenterId'` → `'dataCenter'`). */
export function renameKey(source: string, key: N, to: string): SourceEdit | null {
  const { start, end } = key;
  if (typeof start !== 'number' || typeof end !== 'number') return null;
  if (key.type === 'Identifier') return { start, end, text: to, node: key };
  if (key.type === 'StringLiteral' && source.slice(start + 1, end - 1) === key.value) return { start: start + 1, end: end - 1, text: to, node: key };
  return null;
}

/** A type member v2 renamed, with what the requests of the run plan for it. */
export interface RenamedMember {
  key: N;
  /** The declaration it belongs to. */
  decl: N;
  /** `type TemplateInfo`, `an inline type`. */
  what: string;
  name: string;
  head: string;
  edit: SourceEdit;
  /** Edits of reads through it: dropped with the member's own when it stays. */
  edits: Set<SourceEdit>;
  /** Fixable findings about it and its reads, with what each says when the member stays. */
  findings: Array<{ finding: PlannedFinding; stays: (why: string) => string }>;
  /** Why it stays, once a read through it cannot be rewritten. */
  held: string | null;
}

/** What the requests of one run plan for declared types. */
interface TypeRun {
  members: Map<N, RenamedMember>;
  /** Every response field read some request leads to (its property or key node). */
  reached: Set<N>;
}

const runs = new WeakMap<PlanEnv, TypeRun>();

/** `line 12`, and the file's name too when the run has several files. */
const lineOf = (n: N): string => {
  const project = currentProject();
  const file = project && project.files.length > 1 ? ` of ${project.fileAt(n.start ?? 0).file.split('/').pop()}` : '';
  return `line ${n.loc?.start.line ?? '?'}${file}`;
};

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** One request's view of the types its response is declared with. */
export class ResponseTypes {
  /** Keys of members renamed with their reads (what read-forms.ts `planRename` accepts as renamed). */
  readonly renaming = new Set<N>();
  /** Declarations and member keys already looked at (a type is met at every read through it). */
  private readonly seen = new Set<N>();
  private readonly findings: PlannedFinding[] = [];
  private readonly edits: SourceEdit[] = [];
  private readonly rule: RuleId;
  private readonly run: TypeRun;

  constructor(
    private readonly item: ItemKind,
    private readonly env: PlanEnv,
    /** Only report (a request already on v2): a member with its v1 name is left for a person. */
    private readonly reportOnly = false,
  ) {
    this.rule = BILLING.includes(item) ? 'billing-records' : 'response-field';
    let run = runs.get(env);
    if (!run) runs.set(env, (run = { members: new Map(), reached: new Set() }));
    this.run = run;
  }

  /** A type one object of the response is declared with (promises and lists already taken off). */
  describe(t: StaticType | undefined): void {
    // Declared in the code: an interface, an alias or a literal (axios' made-up `{ data }` has no declaration).
    if (t?.kind !== 'object' || !t.decl || this.seen.has(t.decl)) return;
    this.seen.add(t.decl);
    const decl = t.decl;
    const what = t.name ? `type ${t.name}` : 'an inline type';
    // v2 names the members take, each once (`costPerHr` and `adjustedCostPerHr` are both `cost`).
    const taken = new Set(t.members.keys());
    for (const [name, member] of t.members) {
      const key = member.key;
      if (!key || this.seen.has(key)) continue;
      this.seen.add(key);
      const row = responseField(name, this.item);
      if (!row) continue;
      const head = `${capital(what)} describes this RunPod response: ${fieldMessage(row, this.item, name, true)}`;
      if (row.fate.kind !== 'rename' || this.reportOnly) {
        this.findings.push(finding(this.rule, key, `${head} Update the type by hand.`, false));
        continue;
      }
      const to = row.fate.to;
      // The code builds values of the type itself: they keep the v1 names, so the type does too.
      const built = taken.has(to) ? null : builtAt(decl);
      const edit = taken.has(to) || built ? null : renameKey(this.env.source, key, to);
      if (!edit) {
        const why = built
          ? `the code also gives this type to a value it builds itself (${lineOf(built)}), which keeps "${name}"; give that value a type of its own, or rename both`
          : taken.has(to)
            ? `it already declares "${to}" (or another member becomes "${to}"): remove "${name}" from it`
            : 'its key is not written as a plain name; rename it';
        this.findings.push(finding(this.rule, key, `${head} Not renamed: ${why} by hand.`, false));
        continue;
      }
      taken.add(to);
      const renamed = this.run.members.get(key) ?? { key, decl, what, name, head, edit, edits: new Set(), findings: [], held: null };
      this.run.members.set(key, renamed);
      this.renaming.add(key);
      this.edits.push(renamed.edit);
      const f = finding(this.rule, key, `${head} Renamed in the type too.`, true);
      this.findings.push(f);
      renamed.findings.push({ finding: f, stays: (why) => `${head} Not renamed: ${why}; a type and the reads through it change together. Update both by hand.` });
    }
  }

  /** A read of a response field this request leads to (its property or key node). */
  reached(anchor: N): void {
    this.run.reached.add(anchor);
  }

  /** The member a read of `name` on a value of type t goes through, when it is renamed with its reads. */
  through(t: StaticType | undefined, name: string): RenamedMember | null {
    const key = t?.kind === 'object' ? t.members.get(name)?.key : null;
    return (key && this.renaming.has(key) && this.run.members.get(key)) || null;
  }

  /** A read through a renamed member (`through`): rewritten with it (its edits), or not (why not). */
  read(m: RenamedMember, anchor: N, message: string, outcome: SourceEdit[] | string): void {
    if (typeof outcome === 'string') {
      m.held ??= `the read at ${lineOf(anchor)} cannot change with it (${outcome})`;
      this.findings.push(finding(this.rule, anchor, `${message} Not rewritten: ${outcome}.`, false));
      return;
    }
    for (const e of outcome) m.edits.add(e);
    this.edits.push(...outcome);
    const f = finding(this.rule, anchor, message, true);
    this.findings.push(f);
    m.findings.push({ finding: f, stays: (why) => `${message} Not rewritten: ${m.what} (${lineOf(m.key)}) keeps "${m.name}": ${why}. Change them together by hand.` });
  }

  /** This request's findings and edits (the renames among them are settled with the run's other requests). */
  commit(plan: { specific: SourceEdit[]; findings: PlannedFinding[] }): void {
    plan.findings.push(...this.findings);
    plan.specific.push(...this.edits);
  }
}

/**
 * Once every request of the run is planned: a renamed member stays (with every read through it, in
 * every request) when one of those reads cannot be rewritten, or when the code that can see the type
 * reads that name somewhere no request leads (through the type, for all the tool can tell).
 */
export function settleResponseTypes(env: PlanEnv, plans: readonly RequestPlan[]): void {
  const run = runs.get(env);
  if (!run) return;
  const dropped = new Set<SourceEdit>();
  for (const m of run.members.values()) {
    const other = m.held ? null : otherRead(m.decl, m.name, run.reached);
    const why = m.held ?? (other ? `".${m.name}" is also read at ${lineOf(other)}, where no request the tool follows leads, so that read may go through the type` : null);
    if (!why) continue;
    dropped.add(m.edit);
    for (const e of m.edits) dropped.add(e);
    for (const { finding: f, stays } of m.findings) {
      f.fixable = false;
      f.message = stays(why);
    }
  }
  if (!dropped.size) return;
  for (const plan of plans) plan.specific = plan.specific.filter((e) => !dropped.has(e));
}
