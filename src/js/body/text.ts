import { indentAt, insertProperty, lineStart, type SourceEdit } from '../edits.js';
import { keyName } from '../scope.js';
import type { N, P, t } from '../ast.js';
import { unhandled } from '../exhaustive.js';

/** A member of an object literal. */
type Prop = t.ObjectExpression['properties'][number];

/** JSON-like value as JS source, in the file's quote style: `{ type: 'QUEUE_DELAY', queueDelay: 4 }`. */
export function toSource(value: unknown, quote: string): string {
  if (typeof value === 'string') return quote + JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(new RegExp(quote, 'g'), `\\${quote}`) + quote;
  if (Array.isArray(value)) return `[${value.map((v) => toSource(v, quote)).join(', ')}]`;
  if (value && typeof value === 'object') return `{ ${Object.entries(value).map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : toSource(k, quote)}: ${toSource(v, quote)}`).join(', ')} }`;
  return String(value);
}

/** What happens to one property of a body object. */
export type PropChange = { kind: 'rename'; to: string } | { kind: 'replace'; text: string } | { kind: 'remove' };

function isMultiline(source: string, object: N): boolean {
  return source.slice(object.start!, object.end!).includes('\n');
}

/** A renamed property is an ObjectProperty (a method or a spread has no name to change). */
function renamedText(source: string, prop: t.ObjectProperty, to: string): string {
  if (prop.shorthand) return `${to}: ${source.slice(prop.value.start!, prop.value.end!)}`;
  const key = prop.key;
  const keyText = key.type === 'StringLiteral' ? source[key.start!] + to + source[key.start!] : to;
  return keyText + source.slice(key.end!, prop.end!);
}

/**
 * Edits for a set of property changes plus appended properties. A one-line object is rewritten as
 * one line; in a multi-line object each change stays on its own lines, so the diff is minimal.
 */
export function objectEdits(source: string, object: P<t.ObjectExpression>, changes: ReadonlyMap<N, PropChange>, append: readonly string[]): SourceEdit[] {
  const obj = object.node;
  const props = obj.properties;
  if (!isMultiline(source, obj)) {
    const parts: string[] = [];
    for (const prop of props) {
      const change = changes.get(prop);
      if (!change) {
        parts.push(source.slice(prop.start!, prop.end!));
        continue;
      }
      switch (change.kind) {
        case 'rename':
          parts.push(renamedText(source, prop as t.ObjectProperty, change.to));
          break;
        case 'replace':
          parts.push(change.text);
          break;
        case 'remove':
          break;
        default:
          unhandled(change);
      }
    }
    parts.push(...append);
    return [{ start: obj.start!, end: obj.end!, text: parts.length ? `{ ${parts.join(', ')} }` : '{}', node: obj }];
  }
  const edits: SourceEdit[] = [];
  const last = props[props.length - 1];
  const indent = indentAt(source, (last?.start ?? obj.start)!);
  const pending = [...append];
  // When the last property itself changes, appended properties take its place (no overlapping edits).
  const all = new Map(changes);
  const lastChange = last && all.get(last);
  if (pending.length && lastChange && lastChange.kind !== 'rename') {
    const text = [...(lastChange.kind === 'replace' ? [lastChange.text] : []), ...pending].join(`,\n${indent}`);
    all.set(last, { kind: 'replace', text });
    pending.length = 0;
  }
  // Removing the last properties of an object written without a trailing comma: the new last one loses its comma too.
  if (last && !pending.length && all.get(last)?.kind === 'remove' && source[skipBlanks(source, last.end!)] !== ',') {
    const survivors = props.filter((p) => all.get(p)?.kind !== 'remove');
    const tail = survivors[survivors.length - 1];
    const comma = tail ? skipBlanks(source, tail.end!) : -1;
    if (tail && source[comma] === ',') edits.push({ start: comma, end: comma + 1, text: '', node: obj });
  }
  props.forEach((prop, i) => {
    const change = all.get(prop);
    if (!change) return;
    switch (change.kind) {
      case 'rename': {
        const renamed = prop as t.ObjectProperty;
        const key = renamed.key;
        if (renamed.shorthand) edits.push({ start: prop.start!, end: prop.end!, text: renamedText(source, renamed, change.to), node: obj });
        else edits.push({ start: key.start!, end: key.end!, text: key.type === 'StringLiteral' ? source[key.start!] + change.to + source[key.start!] : change.to, node: obj });
        break;
      }
      case 'replace':
        edits.push({ start: prop.start!, end: prop.end!, text: change.text, node: obj });
        break;
      case 'remove':
        edits.push(removal(source, props, i, obj));
        break;
      default:
        unhandled(change);
    }
  });
  if (pending.length) edits.push(...insertProperty(source, object, pending.join(`,\n${indent}`)));
  return edits;
}

/** Remove property i: its whole line(s) when it stands alone, else just its text and comma. */
function removal(source: string, props: readonly Prop[], i: number, obj: N): SourceEdit {
  const prop = props[i]!;
  const start = lineStart(source, prop.start!);
  let end = prop.end!;
  while (source[end] === ' ' || source[end] === '\t') end++;
  if (source[end] === ',') end++;
  while (source[end] === ' ' || source[end] === '\t') end++;
  const alone = source.slice(start, prop.start!).trim() === '' && (source[end] === '\n' || source.startsWith('\r\n', end));
  if (alone) return { start, end: source[end] === '\n' ? end + 1 : end + 2, text: '', node: obj };
  const next = props[i + 1];
  if (next) return { start: prop.start!, end: next.start!, text: '', node: obj };
  return { start: prop.start!, end, text: '', node: obj };
}

export function propKey(prop: t.ObjectProperty | t.ObjectMethod): string | null {
  return keyName(prop.key, prop.computed);
}

/** Skip spaces and tabs forward from `pos`. */
function skipBlanks(source: string, pos: number): number {
  let i = pos;
  while (source[i] === ' ' || source[i] === '\t') i++;
  return i;
}
