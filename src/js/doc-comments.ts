/**
 * Comments that quote a request follow it to v2. A file header listing `GET /endpoints/{id}`, or a
 * line saying `// REST (rest.runpod.io/v1)`, is wrong once the file's requests moved, and leaves a v1
 * mention that reads as unfinished work. Only files this run rewrites and leaves nothing of on v1 get
 * these edits, and only for URLs and paths whose v2 form is text alone (the base, a resource rename,
 * `{podId}` → `{id}`): a quoted `/pods/{id}/stop` needs a method and a body a comment cannot carry, so
 * it stays as written.
 */
import type { Comment, StringLiteral } from '@babel/types';
import type { Bases } from '../url/shape.js';
import { SCHEME, shapeOf, withoutScheme } from '../url/shape.js';
import { planUrlChanges, templateOf } from '../url/plan.js';
import { isBaseRule } from '../plan/policy.js';
import type { N } from './ast.js';
import type { SourceEdit } from './edits.js';

/** URL rules a comment can follow as text: the others change the method or need a body. */
const TEXT_ONLY = new Set(['base-url', 'openapi-url', 'resource-path', 'path-param']);
const SEGMENT = String.raw`(?:[A-Za-z0-9_{}$<>-]|[.:](?=\w))+`;
const PATH = String.raw`(?:\/${SEGMENT})+`;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A test's expected paths follow the client it tests: `toContain('/networkvolumes/vol-1')` becomes
 * `'/network-volumes/vol-1'` when the client's requests moved. Only string literals that start with a
 * path and have no escapes (their text is their value); URLs with a base are planned as literals.
 */
export function testPathEdits(strings: ReadonlyArray<{ node: StringLiteral }>, source: string, bases: Bases): SourceEdit[] {
  const edits: SourceEdit[] = [];
  for (const { node } of strings) {
    const start = (node.start ?? 0) + 1;
    if (!node.value.startsWith('/') || source.slice(start, (node.end ?? 0) - 1) !== node.value) continue;
    const path = new RegExp(`^${PATH}`).exec(node.value);
    if (path) for (const e of tokenEdits(path[0], bases)) edits.push({ start: start + e.start, end: start + e.end, text: e.text, node });
  }
  return edits;
}

/** The edits that bring the v1 URLs and paths quoted in these comments to their v2 form. */
export function commentEdits(comments: readonly Comment[], source: string, bases: Bases, node: N): SourceEdit[] {
  const hosts = bases.legacy.map((b) => escape(withoutScheme(b).replace(/\/$/, '')));
  // A legacy base (with or without its scheme) and the path after it, or a path alone after a space or bracket.
  const token = new RegExp(String.raw`(?:[a-z][a-z0-9+.-]*:\/\/)?(?:${hosts.join('|')})(?:${PATH})?|(?<=^|[\s(\`'"*])${PATH}`, 'g');
  const edits: SourceEdit[] = [];
  for (const c of comments) {
    const text = source.slice(c.start ?? 0, c.end ?? 0);
    for (const m of text.matchAll(token)) {
      const at = (c.start ?? 0) + m.index;
      for (const e of tokenEdits(m[0], bases)) edits.push({ start: at + e.start, end: at + e.end, text: e.text, node });
    }
  }
  return edits;
}

/** Offsets within the token, and their replacement. */
function tokenEdits(token: string, bases: Bases): Array<{ start: number; end: number; text: string }> {
  // A base quoted without its scheme is read with the legacy base's scheme and written without the target's.
  const legacy = bases.legacy.find((b) => token.startsWith(withoutScheme(b).replace(/\/$/, '')));
  const scheme = legacy && !SCHEME.test(token) ? legacy.slice(0, legacy.length - withoutScheme(legacy).length) : '';
  const url = scheme + token;
  const shape = shapeOf([{ kind: 'text', text: url, origin: null }], bases);
  const template = templateOf(shape);
  if (shape.base === 'relative' ? !template : shape.base !== 'legacy' || (shape.segments.length > 0 && !template)) return [];
  const changes = planUrlChanges(shape, template, bases);
  if (!changes?.every((c) => TEXT_ONLY.has(c.ruleId))) return [];
  const out: Array<{ start: number; end: number; text: string }> = [];
  for (const change of changes) {
    for (const e of change.edits) {
      const text = isBaseRule(change.ruleId) ? (scheme ? withoutScheme(e.text) : e.text) : e.text;
      out.push({ start: Math.max(0, e.start - scheme.length), end: e.end - scheme.length, text });
    }
  }
  return out;
}
