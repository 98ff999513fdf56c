import { describe, expect, it } from 'vitest';
import { todoFindings } from '../src/rules/todo-comments.js';

describe('TODO(v2-migrate) comments', () => {
  it('are errors at their line and column in code and config comments', () => {
    const ts = "const a = 1;\n  // TODO(v2-migrate): v2 has no pod reset.\nreset();\n";
    expect(todoFindings('a.ts', ts)).toEqual([
      { ruleId: 'todo-comment', severity: 'error', line: 2, column: 6, fixable: false, message: 'v2-migrate left this for a person: v2 has no pod reset. Do it, then delete the TODO(v2-migrate) comment.' },
    ]);
    expect(todoFindings('run.py', 'x = 1\n# TODO(v2-migrate): pick one GPU type\n').map((f) => f.line)).toEqual([2]);
    expect(todoFindings('a.css', '/* TODO(v2-migrate): check */\n')[0]?.message).toContain('check. Do it');
  });

  it('skip prose: Markdown, and the words outside a comment', () => {
    expect(todoFindings('README.md', '// TODO(v2-migrate): quoted in docs\n')).toEqual([]);
    expect(todoFindings('a.ts', "const s = 'TODO(v2-migrate): not a comment';\n")).toEqual([]);
  });
});
