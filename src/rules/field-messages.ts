/** How the response rules word a v1 response field that v2 changed (a read of it, or a type member). */
import { unhandled } from '../js/exhaustive.js';
import { fieldLabel } from '../plan/messages.js';
import { ITEM_NAMES, type FieldFate, type ItemKind, type ResponseField } from '../map/responses.js';

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** The message about a read of the field, or (`ofType`) about a type member that declares it. */
export function fieldMessage(row: ResponseField, item: ItemKind, name: string, ofType = false): string {
  const what = `${capital(ITEM_NAMES[item])} ${fieldLabel(name)}`;
  switch (row.fate.kind) {
    case 'rename':
    case 'nest':
      return `${what} is "${row.fate.to}" in v2: ${row.note}.`;
    case 'moved':
      return `${what} is not in v2 responses; the data is ${row.fate.to.startsWith('GET ') ? `at ${row.fate.to}` : `under "${row.fate.to}"`}: ${row.note}.${ofType ? '' : ' Rewrite this read by hand.'}`;
    case 'gone':
      return `${what} is gone in v2: ${row.note}.`;
    default:
      return unhandled(row.fate);
  }
}

/** Where a field went: `"to"`, `under "to"`, `at GET …` or `gone`. */
export function fateText(fate: FieldFate): string {
  switch (fate.kind) {
    case 'rename':
    case 'nest':
      return `"${fate.to}"`;
    case 'moved':
      return fate.to.startsWith('GET ') ? `at ${fate.to}` : `under "${fate.to}"`;
    case 'gone':
      return 'gone';
    default:
      return unhandled(fate);
  }
}
