/**
 * Python models of v1 responses: a pydantic `BaseModel`, a `@dataclass` or a `TypedDict` whose fields
 * are v1 response fields (`desiredStatus: str`). Each such field gets a finding where it is declared:
 * the model describes what v1 answered, and v2 renamed, moved or dropped that field.
 */
import { RESPONSE_FIELDS, V1_TYPE_NAMES, responseField, type ItemKind, ITEM_NAMES, type ResponseField } from '../../map/responses.js';
import type { Collector } from '../plan.js';
import { fieldLabel } from '../../plan/messages.js';
import { isOp } from './syntax.js';
import type { Module, Scope } from './model.js';

/** A class the file declares as a data model: pydantic, a dataclass or a TypedDict. */
function isModel(m: Module, cls: Scope): boolean {
  const header = m.text.slice(m.toks[cls.headerTok]?.start ?? cls.start, cls.end).split('\n', 1)[0] ?? '';
  const before = m.text.slice(Math.max(0, cls.start - 200), cls.start);
  return /\((?:[\w.]*\.)?(?:BaseModel|TypedDict)\b/.test(header) || /@(?:dataclasses\.)?dataclass\b[^\n]*\n\s*$/.test(before);
}

/** The v1 row a model field matches: any item for a distinctive name, the class's item for a model named after one (`class Pod`). */
function rowFor(field: string, item: ItemKind | undefined): { row: ResponseField; item: ItemKind } | null {
  const own = item ? responseField(field, item) : undefined;
  if (own && item) return { row: own, item };
  const row = RESPONSE_FIELDS.find((r) => r.field === field && r.distinctive);
  const first = row?.items[0];
  return row && first ? { row, item: first } : null;
}

export function reportModelFields(c: Collector, m: Module): void {
  for (const cls of m.scopes) {
    if (cls.kind !== 'class' || !isModel(m, cls)) continue;
    const item = Object.hasOwn(V1_TYPE_NAMES, cls.name) ? V1_TYPE_NAMES[cls.name] : undefined;
    for (const line of m.linesByScope.get(cls) ?? []) {
      const name = m.toks[line.a];
      // `field: type` or `field: type = default` at the class's own level.
      if (name?.type !== 'name' || !isOp(m.toks[line.a + 1], ':')) continue;
      const hit = rowFor(name.value, item);
      if (!hit) continue;
      const { row } = hit;
      const fate = row.fate;
      const v2 = fate.kind === 'rename' || fate.kind === 'nest' ? `is "${fate.to}" in v2` : fate.kind === 'moved' ? `is not in v2 responses (the data is ${fate.to.startsWith('GET ') ? `at ${fate.to}` : `under "${fate.to}"`})` : 'is gone in v2';
      c.report('response-field', name.start, `Model ${cls.name} declares the REST v1 ${ITEM_NAMES[hit.item]} ${fieldLabel(name.value)}, which ${v2}: ${row.note}. Update the model together with the code that fills and reads it.`);
    }
  }
}
