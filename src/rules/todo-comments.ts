import type { Finding } from '../findings.js';
import { isRuleId, RULES, type RuleId } from './registry.js';

/**
 * A `TODO(v2-migrate): …` the codemod wrote into a comment (`//`, `#`, `/*`, `--`, `<!--`), or
 * `TODO(v2-migrate <rule>): …` naming the rule whose finding it carries through the write.
 */
const TODO = /(?:\/\/|#|\/\*|--|<!--)[ \t]*TODO\(v2-migrate(?:[ \t]+([a-z0-9-]+))?\):[ \t]*(.*?)[ \t]*(?:\*\/|-->)?[ \t]*$/gm;

interface Todo {
  finding: Finding;
  /** The lines of the statement the TODO stands above (1-based, inclusive): where the engine may say the same again. */
  scope: { from: number; to: number };
}

const indentOf = (line: string): number => /^[ \t]*/.exec(line)![0].length;
const isComment = (line: string): boolean => /^\s*(\/\/|#|\/\*|\*|--|<!--)/.test(line);

/**
 * The statement below a TODO block: from its first code line to the line before the next one that
 * starts at the same indentation or less (a closing bracket or an operator continues the statement).
 */
function scopeBelow(lines: readonly string[], todoLine: number): { from: number; to: number } {
  let from = todoLine; // 0-based index of the line after the TODO
  while (from < lines.length && (isComment(lines[from]!) || lines[from]!.trim() === '')) from++;
  if (from >= lines.length) return { from: todoLine + 1, to: todoLine + 1 };
  const indent = indentOf(lines[from]!);
  let to = from;
  for (let i = from + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    if (indentOf(line) <= indent && !/^\s*[)\]}.?:|&+,]/.test(line)) break;
    to = i;
  }
  return { from: from + 1, to: to + 1 };
}

/**
 * Findings that survive the write: every TODO the codemod left for a person is reported until a person
 * does it and deletes the comment, so the gate never goes green because the codemod ran. A TODO naming
 * its rule is reported under that rule (with its severity), unless the engine already reports that rule
 * for the statement below it (a reset left on the v2 host, a v1 field kept in a v2 body): a person sees
 * one finding per thing to do. Markdown is prose about code (this tool's own docs quote such comments):
 * not scanned.
 */
export function todoFindings(file: string, text: string, engine: readonly Finding[] = []): Finding[] {
  if (/\.mdx?$/i.test(file) || !text.includes('TODO(v2-migrate')) return [];
  const lines = text.split('\n');
  const todos: Todo[] = [];
  for (const m of text.matchAll(TODO)) {
    const at = m.index + m[0].indexOf('TODO');
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    const named = m[1];
    const rule: RuleId = named !== undefined && isRuleId(named) ? named : 'todo-comment';
    const what = (m[2] ?? '').replace(/\.$/, '');
    todos.push({
      finding: { ruleId: rule, severity: RULES[rule].severity, line, column, fixable: false, message: `v2-migrate left this for a person: ${what}. Do it, then delete the TODO(v2-migrate) comment.` },
      scope: scopeBelow(lines, line),
    });
  }
  // Each engine finding in a TODO's statement stands for one TODO of its rule there.
  const said = engine.map((f) => ({ rule: f.ruleId, line: f.line, used: false }));
  return todos
    .filter(({ finding, scope }) => {
      if (finding.ruleId === 'todo-comment') return true;
      const same = said.find((s) => !s.used && s.rule === finding.ruleId && s.line >= scope.from && s.line <= scope.to);
      if (same) same.used = true;
      return !same;
    })
    .map((t) => t.finding);
}
