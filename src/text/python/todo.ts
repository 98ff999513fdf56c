/**
 * A finding that needs a person, carried through the write as a comment above its statement
 * (`# TODO(v2-migrate opaque-body): …`), as the JS engine's todoEdit does: rules/todo-comments.ts reports
 * it again in `lint` after the write, so the write never loses it.
 */
import type { RuleId } from '../../rules/registry.js';
import type { Collector } from '../plan.js';
import { lastStartingBy } from '../../util/lines.js';
import type { Module } from './model.js';

export function leaveTodo(c: Collector, m: Module, at: number, rule: RuleId, message: string): void {
  const tok = lastStartingBy(m.toks.length, (i) => m.toks[i]?.start ?? 0, at);
  const line = m.lines[m.lineOfTok[tok] ?? -1];
  const first = line ? m.toks[line.a] : undefined;
  if (!first) return;
  const start = m.text.lastIndexOf('\n', first.start - 1) + 1;
  const indent = m.text.slice(start, first.start);
  if (!/^[ \t]*$/.test(indent)) return; // the statement shares its line with other code: no line to put it above
  c.todo([{ start, end: start, text: `${indent}# TODO(v2-migrate ${rule}): ${message}\n` }]);
}
