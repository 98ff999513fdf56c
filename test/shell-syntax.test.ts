/**
 * The shell scanner reads tree-sitter-bash (src/text/shell/syntax.ts): simple commands wherever they
 * are (`if`, `while`, `case` and function bodies, `$(…)`, `<(…)`, after `!`), their words as literal
 * runs, expansions and substitutions, pipelines, functions, heredoc bodies; and each text is parsed
 * once, the well-formedness check of a rewrite included.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import * as grammars from '../src/text/grammars.js';
import { literalOf, shellSyntax, type Command, type Word } from '../src/text/shell/syntax.js';
import { programIndex } from '../src/text/shell/scope.js';
import { scanText } from '../src/text/index.js';
import { listFiles } from './helpers.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const SHELL_FILES = listFiles(FIXTURES).filter((f) => /\.(sh|bash)$/.test(f));
const BASES = { legacy: ['https://rest.runpod.io/v1'], target: 'https://api.runpod.io/v2' };

beforeAll(() => grammars.loadGrammars(['bash']));

/** A word as the scanner sees it: literal text, `$NAME` / `${NAME<op>}` for expansions, `$(…)` for substitutions. */
const show = (w: Word): string => w.parts.map((p) => (p.kind === 'lit' ? p.text : p.kind === 'sub' ? '$(…)' : p.op || p.def ? `\${${p.name}${p.op}${p.def ? p.def.map((d) => (d.kind === 'lit' ? d.text : '…')).join('') : ''}}` : `$${p.name}`)).join('');
const commandsOf = (text: string): string[][] => shellSyntax(text).cmds.map((c: Command) => c.words.map(show));
const program = (c: Command): string | null => {
  const at = programIndex(c);
  return at >= 0 ? literalOf(c.words[at]!) : null;
};

describe('shell syntax from tree-sitter-bash', () => {
  it('finds commands inside control flow, substitutions, negations and function bodies', () => {
    const text = [
      'if ! curl -fsS "$API/pods"; then sudo curl -X POST "$API/pods/$ID/stop"; fi',
      'while read -r n; do echo "$n"; done < <(curl "$API/templates" | jq -r \'.[].name\')',
      'case "$k" in pod) curl "$API/pods" ;; esac',
      'stop() { curl -X POST "$API/pods/$1/stop"; }',
      'ID=$(curl -s "$API/pods" | jq -r \'.[0].id\')',
    ].join('\n');
    const cmds = shellSyntax(text).cmds;
    expect(cmds.filter((c) => program(c) === 'curl' || program(c) === 'sudo').map((c) => [c.start, c.words.map(show).join(' ')])).toEqual([
      [5, 'curl -fsS $API/pods'],
      [33, 'sudo curl -X POST $API/pods/$ID/stop'],
      [116, 'curl $API/templates'],
      [176, 'curl $API/pods'],
      [210, 'curl -X POST $API/pods/$1/stop'],
      [251, 'curl -s $API/pods'],
    ]);
    const fn = text.indexOf('stop()');
    expect(shellSyntax(text).functions).toEqual([{ name: 'stop', start: fn, bodyStart: text.indexOf('{', fn) + 1, bodyEnd: text.indexOf('}', fn) }]);
  });

  it('reads pipelines with their stages and the $(…) a command runs in', () => {
    const text = 'R=$(curl -s "$API/pods" | jq \'.[]\')\ncurl -s x | jq .id | head -1\n';
    expect(shellSyntax(text).cmds.map((c) => ({ words: c.words.map(show), stage: c.stage, inSub: c.inSub }))).toEqual([
      { words: ['curl', '-s', '$API/pods'], stage: 0, inSub: [2, 35] },
      { words: ['jq', '.[]'], stage: 1, inSub: [2, 35] },
      { words: ['R=$(…)'], stage: 0, inSub: null },
      { words: ['curl', '-s', 'x'], stage: 0, inSub: null },
      { words: ['jq', '.id'], stage: 1, inSub: null },
      { words: ['head', '-1'], stage: 2, inSub: null },
    ]);
    const [sub, jq] = shellSyntax(text).cmds;
    expect(sub!.pipeline).toBe(jq!.pipeline);
  });

  it('splits words into literal runs, escapes, expansions with their defaults, and arrays', () => {
    const text = 'API="${API:-https://rest.runpod.io/v1}"\nexport A=1 B="x $C"\nARGS=(-H "Authorization: Bearer $KEY")\necho a\\$b "q\\"d" \'s$x\' ${#ARR[@]} ${X%/}\n';
    expect(commandsOf(text)).toEqual([
      ['API=${API:-https://rest.runpod.io/v1}'],
      ['export', 'A=1', 'B=x $C'],
      ['ARGS='],
      ['echo', 'a$b', 'q"d', 's$x', '${ARR#}', '${X%}'],
    ]);
    const echo = shellSyntax(text).cmds[3]!;
    // `\$` is an uneditable character; the single-quoted literal starts at its quote.
    const a = text.indexOf('a\\$b');
    expect(echo.words[1]!.parts).toEqual([
      { kind: 'lit', text: 'a', start: a, editable: true, literal: a },
      { kind: 'lit', text: '$', start: a + 1, editable: false, literal: a + 1 },
      { kind: 'lit', text: 'b', start: a + 3, editable: true, literal: a },
    ]);
    const quote = text.indexOf("'s$x'");
    expect(echo.words[3]!.parts).toEqual([{ kind: 'lit', text: 's$x', start: quote + 1, editable: true, literal: quote }]);
    expect(shellSyntax(text).cmds[2]!.words[0]!.array!.map(show)).toEqual(['-H', 'Authorization: Bearer $KEY']);
  });

  it('keeps heredoc bodies aside and reads GitHub Actions expressions as variables', () => {
    const text = 'cat <<EOF > out.txt\nurl https://rest.runpod.io/v1/pods\nEOF\ncurl "${{ env.API }}/pods" "${{ secrets.KEY }}"\n';
    const syntax = shellSyntax(text);
    expect(syntax.heredocs).toEqual([[20, 55]]);
    expect(commandsOf(text)).toEqual([['cat'], ['curl', '$API/pods', '$secrets.KEY']]);
    expect(syntax.errors).toBe(0);
  });

  it('counts syntax errors', () => {
    expect(shellSyntax('if true; then echo x\n').errors).toBeGreaterThan(0);
    expect(shellSyntax('echo "unterminated\n').errors).toBeGreaterThan(0);
  });

  it('parses a file once for its scan and the check of its rewrite', () => {
    const parse = vi.spyOn(grammars, 'parseWith');
    const text = 'API=https://rest.runpod.io/v1\ncurl -X POST "$API/pods/$ID/stop"\n# once\n';
    const result = scanText(text, 'once.sh', BASES);
    expect(result.output).toContain('https://api.runpod.io/v2');
    // The input's parse, and the rewritten text's.
    expect(parse.mock.calls.map(([grammar, parsed]) => [grammar, parsed === text])).toEqual([
      ['bash', true],
      ['bash', false],
    ]);
    parse.mockRestore();
  });

  it('reads every shell fixture without a syntax error', () => {
    expect(SHELL_FILES.length).toBeGreaterThan(5);
    for (const file of SHELL_FILES) expect(shellSyntax(readFileSync(file, 'utf8')).errors, path.relative(FIXTURES, file)).toBe(0);
  });
});
