/**
 * Dockerfiles, read with dockerfile-ast (text/dockerfile-ast.ts): `ENV` / `ARG` / `LABEL` values are
 * literals (a v1 base in `ENV RUNPOD_API=…` is rewritten; the message names the variable
 * `docker run -e` may still set); `RUN`, shell-form `CMD` / `ENTRYPOINT` are shell (with the ENV values
 * as variables); exec-form JSON arrays are strings. A `RUN <<EOF` heredoc the shell runs is scanned as
 * shell at its own offsets (the rest of the file masked).
 */
import { planValue, type Collector, type TPiece } from './plan.js';
import { literalOf, ShellScope, scanShell, shellSyntax, type Word } from './shell.js';
import { maskOutside } from '../util/mask.js';
import { mentionsGraphql, scanGraphql } from './fields.js';
import { jsonPieces, parseJson } from './json.js';
import { dockerfileInstructions, type DockerInstruction } from './dockerfile-ast.js';

/** What runs a `RUN <<EOF` body as a script: nothing (the default shell) or a shell, with its flags. */
const SHELL_WORD = /^((\/usr)?\/bin\/)?(sh|bash|dash|ash|zsh)$|^-[A-Za-z]+$/;

/**
 * The heredoc bodies of a RUN that are shell scripts (`RUN <<EOF`, `RUN <<EOF bash`, `RUN bash -e <<EOF`):
 * BuildKit runs them. Other heredocs (`cat <<EOF > file`, `python3 <<EOF`) are stdin of a command, as in shell.
 */
function scriptBodies(text: string, inst: DockerInstruction, from: number): Array<[number, number]> {
  const first = inst.heredocs[0];
  if (!first) return [];
  let lineEnd = text.indexOf('\n', first.operator[1]);
  if (lineEnd < 0 || lineEnd > inst.end) lineEnd = inst.end;
  let command = text.slice(from, lineEnd);
  for (const h of [...inst.heredocs].reverse()) {
    if (h.operator[1] <= lineEnd) command = command.slice(0, h.operator[0] - from) + ' ' + command.slice(h.operator[1] - from);
  }
  const words = command.trim().split(/\s+/).filter(Boolean);
  if (!words.every((w) => SHELL_WORD.test(w))) return [];
  return inst.heredocs.flatMap((h) => (h.body ? [h.body] : []));
}

/** Instructions whose arguments are `KEY=value` shell words. */
const ASSIGNING = new Set(['ENV', 'ARG', 'LABEL']);

export function scanDockerfile(c: Collector, text: string): void {
  const ins = dockerfileInstructions(text);
  const shellRanges: Array<[number, number]> = [];
  const seeds = new Map<string, TPiece[]>();
  const values: Array<{ pieces: TPiece[]; anchor: number }> = [];
  const scope = new ShellScope();
  for (const inst of ins) {
    if (ASSIGNING.has(inst.keyword)) {
      // `KEY=value …`, or the legacy `ENV KEY value` form: shell words. Each instruction is read on its
      // own (tree-sitter-bash runs assignments continued with `\` on into the next line's command).
      const words: Word[] = shellSyntax(maskOutside(text, [[inst.start, inst.end]])).cmds.flatMap((cm) => cm.words);
      const pairs: Array<{ name: string; value: Word['parts'] }> = [];
      const firstLit = words[0] ? literalOf(words[0]) : null;
      if (inst.keyword === 'ENV' && words.length >= 2 && firstLit && /^[A-Za-z_][A-Za-z0-9_]*$/.test(firstLit)) {
        pairs.push({ name: firstLit, value: words.slice(1).flatMap((w) => w.parts) });
      } else {
        for (const w of words) {
          const first = w.parts[0];
          if (first?.kind !== 'lit') continue;
          const m = /^([A-Za-z_][A-Za-z0-9_.-]*)=/.exec(first.text);
          if (!m) continue;
          const rest = first.text.slice(m[0].length);
          pairs.push({ name: m[1]!, value: [...(rest ? [{ ...first, text: rest, start: first.start + m[0].length, literal: first.start + m[0].length }] : []), ...w.parts.slice(1)] });
        }
      }
      for (const p of pairs) {
        scope.define(p.name, inst.end, p.value);
        const envVar = inst.keyword === 'LABEL' ? undefined : p.name;
        const pieces = scope.pieces(p.value, inst.start).map((x) => (x.kind === 'text' && envVar ? { ...x, origin: { ...x.origin, envVar: x.origin.envVar ?? envVar } } : x));
        if (envVar) seeds.set(p.name, pieces);
        if (c.bases.legacy.some((b) => pieces.some((x) => x.kind === 'text' && x.text.includes(b)))) values.push({ pieces, anchor: p.value[0]?.start ?? inst.start });
      }
      continue;
    }
    if (inst.command) {
      const from = inst.command[0];
      if (text[from] === '[') {
        const arr = parseJson(text, from, inst.end);
        if (arr?.kind === 'array') {
          for (const item of arr.items) {
            if (item.kind === 'string' && c.bases.legacy.some((b) => item.value.includes(b))) values.push({ pieces: jsonPieces(text, item), anchor: item.start });
          }
        }
        continue;
      }
      const scripts = scriptBodies(text, inst, from);
      if (scripts.length) shellRanges.push(...scripts);
      else shellRanges.push([from, inst.end]);
    }
  }
  if (shellRanges.length) scanShell(c, maskOutside(text, shellRanges), { seeds, graphql: false });
  for (const v of values) {
    if (v.pieces.some((p) => p.kind === 'text' && c.consumed.has(p.origin.literal))) continue;
    planValue(c, v.pieces, { anchor: v.anchor });
  }
  if (mentionsGraphql(text)) scanGraphql(c, text, 0, text.length);
}
