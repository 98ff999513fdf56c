import { isParam, matchTemplate, type PathTemplate } from '../map/match.js';
import { flatEditToPieces, type PieceEdit } from './pieces.js';
import type { Bases, UrlShape } from './shape.js';
import type { RuleId } from '../rules/registry.js';

/** One URL change with the rule that explains it. */
export interface UrlChange {
  ruleId: RuleId;
  edits: PieceEdit[];
  /** Human description: `/endpoints` → `/serverless`. */
  what: string;
  /** For `path-param`: the placeholder before and after (`{podId}` → `{id}`). */
  rename?: { from: string; to: string };
}

export function templateOf(shape: UrlShape): PathTemplate | undefined {
  return matchTemplate(shape.segments.map((s) => s.text));
}

/** The v1 OpenAPI schema (`<legacy base>/openapi.json`): its own rule, not a REST operation. */
export function isSchemaUrl(shape: UrlShape): boolean {
  return shape.base === 'legacy' && shape.segments.length === 1 && shape.segments[0]!.text === 'openapi.json';
}

/** A complete v1 URL (a documented path, or the schema) rather than a base other code appends to. */
export function isCompleteShape(shape: UrlShape): boolean {
  return shape.base === 'legacy' && shape.segments.length > 0 && (!!templateOf(shape) || isSchemaUrl(shape));
}

/** URL-level rules: a finding of one that is not fixable leaves the request's URL on v1 (a reset or a body decision does not). */
export const URL_RULES: ReadonlySet<string> = new Set(['pod-action', 'update-alias', 'resource-path', 'path-param', 'unknown-path', 'unresolved-url', 'dynamic-path']);

/**
 * The edits that turn a legacy URL into its v2 form: base, resource renames, `{xxxId}` → `{id}`,
 * `stop` → `action`, and dropping `/update`. Returns null when an edit would have to cut through a
 * hole (the caller then reports instead of rewriting).
 */
export function planUrlChanges(shape: UrlShape, template: PathTemplate | undefined, bases: Bases): UrlChange[] | null {
  const changes: UrlChange[] = [];
  const add = (ruleId: RuleId, from: number, to: number, text: string, what: string, rename?: UrlChange['rename']): boolean => {
    const edits = flatEditToPieces(shape.flat, from, to, text);
    if (!edits) return false;
    changes.push({ ruleId, edits, what, ...(rename ? { rename } : {}) });
    return true;
  };
  if (shape.base === 'legacy') {
    if (!add(isSchemaUrl(shape) ? 'openapi-url' : 'base-url', 0, shape.baseEnd, bases.target, `${shape.matchedBase} → ${bases.target}`)) return null;
  }
  if (!template?.v2Path) return changes;
  const v2 = template.v2Path.split('/').filter(Boolean);
  const segs = shape.segments;
  for (let i = 0; i < Math.min(v2.length, template.v1Segments.length); i++) {
    const seg = segs[i]!;
    const v1 = template.v1Segments[i]!;
    if (isParam(v1)) {
      // A literal placeholder such as `{podId}` (OpenAPI-style templates) is renamed; real values stay.
      if (seg.text && isParam(seg.text) && seg.text !== v2[i]) {
        if (!add('path-param', seg.from, seg.to, v2[i]!, `${seg.text} → ${v2[i]}`, { from: seg.text, to: v2[i]! })) return null;
      }
    } else if (v1 !== v2[i]) {
      const rule: RuleId = template.operations.some((o) => o.change === 'action') ? 'pod-action' : 'resource-path';
      if (!add(rule, seg.from, seg.to, v2[i]!, `/${v1} → /${v2[i]}`)) return null;
    }
  }
  if (v2.length < template.v1Segments.length) {
    // `/pods/{id}/update` → `/pods/{id}`: drop the trailing segments with their slashes.
    const keep = segs[v2.length - 1]!;
    const last = segs[template.v1Segments.length - 1]!;
    if (!add('update-alias', keep.to, last.to, '', `drop /${template.v1Segments.slice(v2.length).join('/')}`)) return null;
  }
  return changes;
}
