/**
 * v1 response fields read by jq: on a response the tool can prove (a jq program that reads exactly what
 * a pod, endpoint, template… request printed, see shell/lists.ts), a field v2 renamed is renamed with
 * the request (`.desiredStatus` → `.status`, with its meaning note) and one v2 moved or dropped is
 * reported; elsewhere in a file that talks to RunPod REST, a distinctive v1 name (`.costPerHr`) is
 * reported as a likely read.
 */
import { DISTINCTIVE_RESPONSE_FIELDS, checkResponseField, responseFieldMessage } from '../fields.js';
import { ERROR_SHAPE, LIST_ENVELOPES, RESPONSE_FIELDS, SINGLE_RESPONSES, responseField, type ItemKind } from '../../map/responses.js';
import type { Collector, RequestOutcome } from '../plan.js';
import { jqFilters } from './jq.js';
import { responseReaders, type SentRequest } from './lists.js';
import { programWord, type ShellScope } from './scope.js';
import { literalOf, type Command } from './syntax.js';

/** `.name` steps of a jq program (not `$var.name`, not a key inside a longer path such as `.a.name`). */
const FIELD_STEP = /(?<![\w$)"])\.([A-Za-z_]\w*)/g;
/** `.message` / `.error` read on the response itself (not on an item: `.[0].message`). */
const ERROR_STEP = /(?<![\w$)"\]])\.(message|error)\b/g;

export function responseReads(c: Collector, cmds: readonly Command[], scope: ShellScope, requests: readonly SentRequest[], subAssign: ReadonlyMap<string, string>): void {
  const decided = new Set<number>();
  for (const request of requests) {
    const { outcome } = request;
    const op = outcome.op;
    const item = op && (SINGLE_RESPONSES[op.id] ?? LIST_ENVELOPES[op.id]?.item);
    if (!item || (outcome.shape.base !== 'legacy' && outcome.shape.base !== 'target')) continue;
    const { certain, consumers } = responseReaders(cmds, scope, request, subAssign);
    for (const cmd of consumers) textReads(c, cmd, item, decided);
    for (const f of certain.keys()) {
      const part = f.parts.length === 1 ? f.parts[0] : undefined;
      if (part?.kind !== 'lit' || !part.editable || c.text[f.start] !== "'") continue;
      for (const m of part.text.matchAll(FIELD_STEP)) {
        const name = m[1] ?? '';
        const row = responseField(name, item);
        if (!row) continue;
        const at = part.start + (m.index ?? 0) + 1;
        decided.add(at);
        const message = responseFieldMessage([row]);
        // A rename, or a nesting (`.workersMin` → `.workers.min`), is a path jq reads the same way.
        const to = row.fate.kind === 'rename' || row.fate.kind === 'nest' ? row.fate.to : null;
        if (to && c.fixWith(outcome.request, 'response-field', at, message, [{ start: at, end: at + name.length, text: to }])) continue;
        c.report('response-field', at, `${message} Not rewritten${to ? '' : ' in this file type'}: change the read by hand.`);
      }
      errorReads(c, outcome.request, part.start, part.text);
    }
  }
  if (!c.talksRest) return;
  const re = new RegExp(`\\.(${DISTINCTIVE_RESPONSE_FIELDS.join('|')})\\b`, 'g');
  for (const cmd of cmds) {
    for (const f of jqFilters(cmd)) {
      for (const p of f.parts) {
        if (p.kind !== 'lit' || !p.editable) continue;
        for (const m of p.text.matchAll(re)) {
          const at = p.start + (m.index ?? 0) + 1;
          if (!decided.has(at)) checkResponseField(c, m[1] ?? '', at);
        }
      }
    }
  }
}

/**
 * A response handed to a program that is not jq (`grep -oE '"publicIp":"[^"]*"'`, `sed`, `python3 -c
 * "…d.get('desiredStatus')…"`): a v1 field of `item` written there as a quoted name is read as text, so
 * v2's name never matches. Reported (the program is not rewritten).
 */
function textReads(c: Collector, cmd: Command, item: ItemKind, decided: Set<number>): void {
  const programAt = programWord(cmd);
  const program = programAt ? literalOf(programAt) : null;
  if (!programAt || !program || program === 'jq') return;
  for (const word of cmd.words.slice(cmd.words.indexOf(programAt) + 1)) {
    for (const p of word.parts) {
      if (p.kind !== 'lit') continue;
      for (const m of p.text.matchAll(QUOTED_NAME)) {
        const name = m[2] ?? '';
        const rows = RESPONSE_FIELDS.filter((r) => r.field === name && r.items.includes(item));
        if (!rows.length) continue;
        const at = p.start + (m.index ?? 0) + 1;
        if (decided.has(at)) continue;
        decided.add(at);
        c.report('response-field', at, `${responseFieldMessage(rows)} Not rewritten: ${program} reads the response as text here; change the pattern by hand.`);
      }
    }
  }
}

/** A name in quotes inside a program's text (`"publicIp"`, `'desiredStatus'`, `\"costPerHr\"`). */
const QUOTED_NAME = /(\\?["'])([A-Za-z_]\w*)\\?["']/g;

/**
 * `.message` / `.error` read on a RunPod response: no v2 success body has either, so it reads an error
 * body, which v2 sends as an RFC 9457 problem. `.message` is `.detail` (renamed with the request);
 * `.error` (v1's other error body) is reported.
 */
function errorReads(c: Collector, request: RequestOutcome['request'], start: number, program: string): void {
  for (const m of program.matchAll(ERROR_STEP)) {
    const name = m[1] ?? '';
    const at = start + (m.index ?? 0) + 1;
    const to = ERROR_SHAPE.renames[name];
    const message = `RunPod v2 errors are RFC 9457 problems ({ title, status, detail, errors }); the v1 "${name}" is "${to ?? 'detail'}".`;
    if (to && c.fixWith(request, 'error-shape', at, message, [{ start: at, end: at + name.length, text: to }])) continue;
    c.report('error-shape', at, to ? `${message} Not rewritten: change it by hand.` : `v1 also answered { error, status }; v2 errors are ${ERROR_SHAPE.description}: read .detail instead of .${name}.`);
  }
}
