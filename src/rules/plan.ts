import type { Finding } from '../findings.js';
import type { SiteInstance } from '../js/analyze.js';
import type { SourceEdit } from '../js/edits.js';
import type { EnvValueNode, N } from '../js/ast.js';
import type { PieceAnchor } from '../js/responses/query.js';
import type { Bases } from '../url/shape.js';
import { RULES, type RuleId } from './registry.js';

/**
 * What planning a request produces and the environment it runs in: shared by the request planner
 * and the body, response and literal planners it calls (kept apart from them so none imports another
 * to reach these).
 */

export interface PlanEnv {
  source: string;
  bases: Bases;
  quote: string;
  /** GPU type name → v2 serverless pool id: RunPod's documented table with the config's `gpuPools` on top. */
  gpuPools: Readonly<Record<string, string>>;
  /** Write v1 defaults out on creates instead of warning (config `preserveV1Defaults`). */
  preserveV1Defaults: boolean;
  /** Wrap bodies built at run time in generated adapters (config `adapters`); otherwise such requests stay on v1. */
  adapters: boolean;
}

/** A finding that may depend on edits that arbitration can still take away. */
/** What a finding points at: a node, a .env value's stand-in, or one character of a literal (a query parameter). */
export type Anchor = N | EnvValueNode | PieceAnchor;

export interface PlannedFinding extends Finding {
  /** Node the finding is anchored on (dedupe key for findings on shared literals). */
  anchor: Anchor;
}

export interface RequestPlan {
  instance: SiteInstance;
  /** Edits that hold for every use of the changed code (legacy base, TODO comments, content type). */
  universal: SourceEdit[];
  /** Edits right for this request; dropped together if another request sharing the code disagrees. */
  specific: SourceEdit[];
  /**
   * Edits harmless for every request sharing the code, but only wanted if this request's own rewrite
   * survives (the JSON Content-Type a migrated pod action needs).
   */
  ifRewritten: SourceEdit[];
  /** The request's URL was recognised (a known v1 or v2 path on a known base): its reads of a base count as understood. */
  understood: boolean;
  /** The request already goes to REST v2 (its path too): it does not move, so no TODO is written for it. */
  onV2?: boolean;
  /**
   * Why the request must not go to v2 as planned (v2 could answer it with another meaning), when a part
   * of the plan knows it beyond its findings (see blockReason).
   */
  blocks?: string;
  findings: PlannedFinding[];
  /** Nodes whose content decides this request. */
  touched: Set<N | EnvValueNode>;
}

export function positionOf(node: Anchor): { line: number; column: number } {
  return { line: node.loc?.start.line ?? 1, column: (node.loc?.start.column ?? 0) + 1 };
}

export function finding(ruleId: RuleId, node: Anchor, message: string, fixable: boolean = RULES[ruleId].fixable): PlannedFinding {
  return { ruleId, severity: RULES[ruleId].severity, ...positionOf(node), message, fixable, anchor: node };
}
