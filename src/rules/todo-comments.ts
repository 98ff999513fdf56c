import type { Finding } from '../findings.js';
import { RULES } from './registry.js';

/** A `TODO(v2-migrate): …` the codemod wrote into a comment (`//`, `#`, `/*`, `--`, `<!--`). */
const TODO = /(?:\/\/|#|\/\*|--|<!--)[ \t]*TODO\(v2-migrate\):[ \t]*(.*?)[ \t]*(?:\*\/|-->)?[ \t]*$/gm;

/**
 * Findings that survive the write: every TODO the codemod left for a person is an error until a
 * person does it and deletes the comment, so the gate never goes green because the codemod ran.
 * Markdown is prose about code (this tool's own docs quote such comments): not scanned.
 */
export function todoFindings(file: string, text: string): Finding[] {
  if (/\.mdx?$/i.test(file) || !text.includes('TODO(v2-migrate)')) return [];
  const out: Finding[] = [];
  for (const m of text.matchAll(TODO)) {
    const at = m.index! + m[0].indexOf('TODO');
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    out.push({ ruleId: 'todo-comment', severity: RULES['todo-comment'].severity, line, column, fixable: false, message: `v2-migrate left this for a person: ${m[1]!.replace(/\.$/, '')}. Do it, then delete the TODO(v2-migrate) comment.` });
  }
  return out;
}
