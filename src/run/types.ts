/**
 * What a run produces, shared by the runner that makes it and everything that reads it (baseline,
 * summary, reports, the CLI): kept apart from the runner so that none of them imports it for a type.
 */
import type { Finding } from '../findings.js';
import type { MarkerKind, MarkerProblem } from '../markers/index.js';
import type { Inventory } from '../scan/inventory.js';
import type { NotScanned } from '../scan/discover.js';
import type { Shard } from './shard.js';

/** The part of a fingerprint the file's text decides (the path is added against a baseline's folder). */
export interface LinePrint {
  ruleId: string;
  lineHash: string;
  occurrence: number;
}

/** A finding a marker comment took out of the gate. */
export type SuppressedFinding = Finding & { marker: MarkerKind };

/** A file's baseline fingerprints by finding. */
export interface LinePrints {
  get(finding: Finding): LinePrint | undefined;
}
export const NO_PRINTS: LinePrints = { get: () => undefined };

/** What happened to one file. */
export interface FileResult {
  /** Relative to the current directory, with `/`. */
  path: string;
  absPath: string;
  /** The file's package: the folder of the nearest package.json, relative to the current directory. */
  package: string;
  /** The file's content changes (or would, in a dry run). */
  changed: boolean;
  /** Findings in the gate: counted for exit codes and summaries. */
  findings: Finding[];
  /** Findings marked in the source (`v2-migrate-ignore`, `v2-migrate-keep-v1`): reported apart, never counted. */
  suppressed: SuppressedFinding[];
  /** Findings the `--baseline` file already knows (filled by applyBaseline): counted apart, not listed. */
  baselined: Finding[];
  /** Baseline fingerprints (without the path) of this file's findings, suppressed ones included. */
  prints: LinePrints;
  /** Marker comments that cannot do what they say (an unknown rule id, an unclosed region). */
  markerProblems: MarkerProblem[];
  /** Which RunPod APIs the file's text mentions (null when it mentions none). */
  inventory: Inventory | null;
  /**
   * Files that share it must be written together or not at all (an import component with its .env
   * files, joined by a generated adapter file they need); absent: the file stands alone.
   */
  writeGroup?: string;
  /** Present when `changed`: the text before and after (BOM excluded) and the bytes to write. */
  before?: string;
  after?: string;
  bytes?: Buffer;
}

export interface RunSummary {
  files: number;
  changed: number;
  errors: number;
  warnings: number;
  infos: number;
  /** Marked false positives (`v2-migrate-ignore`). */
  ignored: number;
  /** Legacy kept on purpose (`v2-migrate-keep-v1`). */
  kept: number;
  /** Known to the `--baseline` file. */
  baselined: number;
}

export interface RunResult {
  /**
   * Files with findings (in the gate, suppressed or baselined), changes, or a RunPod API mention
   * (inventory), in path order. Reporters list only what concerns them.
   */
  results: FileResult[];
  summary: RunSummary;
  /** Set when a baseline was applied. */
  baseline?: { file: string; entries: number };
  /** The part of a CI matrix this run analysed (--shard), so merge-reports can tell one is missing. */
  shard?: Shard;
  /**
   * A partial run (a file, a package folder, --changed-since): the listed files beyond what was asked
   * about, which must move with it (they share its write group), in path order.
   */
  pulledIn?: string[];
  /** A partial run: how many of the files it read it was asked about (`summary.files` counts all it read). */
  asked?: number;
  /** Files the run would take in folders skipped by default (build/, vendor/…), when there are any. */
  notScanned?: NotScanned;
}
