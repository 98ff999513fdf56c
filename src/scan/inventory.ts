/**
 * Which RunPod APIs a file talks to, from its text alone: URL and host occurrences and SDK imports.
 * Cheap (a few regular expressions), language-agnostic, and used only for reports (the markdown
 * inventory); it never decides a rewrite.
 */
import { GRAPHQL_URL, JOB_API_HOST, TARGET_BASE_URL, stripTrailingSlash } from '../map/hosts.js';
import type { Bases } from '../url/shape.js';
import { lineIndex } from '../util/lines.js';

export type ApiKind = 'restV1' | 'restV2' | 'jobApi' | 'graphql' | 'sdk';

export const API_KINDS: readonly { kind: ApiKind; label: string }[] = [
  { kind: 'restV1', label: 'REST v1 (retired)' },
  { kind: 'restV2', label: 'REST v2 (already migrated)' },
  { kind: 'jobApi', label: 'Serverless job API (api.runpod.ai, stays)' },
  { kind: 'graphql', label: 'GraphQL (api.runpod.io/graphql, stays)' },
  { kind: 'sdk', label: 'RunPod SDK imports' },
];

export interface InventoryHit {
  kind: ApiKind;
  /** 1-based. */
  line: number;
  column: number;
  text: string;
}

export interface Inventory {
  counts: Record<ApiKind, number>;
  hits: InventoryHit[];
  /**
   * Lines where a REST v1 base appears on its own (`const API = 'https://rest.runpod.io/v1'`,
   * `${RUNPOD_API:-https://rest.runpod.io/v1}`): the file defines a base URL, so it is likely the
   * shared transport other files call through.
   */
  v1BaseLines: number[];
}

export function emptyInventory(): Inventory {
  return { counts: { restV1: 0, restV2: 0, jobApi: 0, graphql: 0, sdk: 0 }, hits: [], v1BaseLines: [] };
}

export function isEmptyInventory(inv: Inventory | null | undefined): boolean {
  return !inv || inv.hits.length === 0;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** Not part of a longer host or path word before / after. A trailing `.` ends a sentence, not a host. */
const BEFORE = '(?<![\\w.-])';
const AFTER = '(?![\\w-]|\\.\\w)';

/** A base URL without its scheme, as a pattern (`rest\.runpod\.io\/v1`). */
function urlPattern(url: string): string {
  return escape(stripTrailingSlash(url).replace(/^[a-z][a-z0-9+.-]*:\/\//i, ''));
}

const SDK_PATTERNS: readonly RegExp[] = [
  // Python: `import runpod`, `import runpod as rp`, `from runpod import …`, `from runpod.serverless import …`
  /^[ \t]*(?:import[ \t]+runpod(?:\.[\w.]+)?(?:[ \t]+as[ \t]+\w+)?[ \t]*(?=[#;,\r]|$)|from[ \t]+runpod(?:\.[\w.]+)?[ \t]+import\b)/gm,
  // JS/TS: `from 'runpod-sdk'`, `import 'runpod-sdk'`, `require('runpod-sdk')`, `import('@runpod/…')`
  /(?:\bfrom[ \t]*|\bimport[ \t]*\(?[ \t]*|\brequire[ \t]*\([ \t]*)['"](?:runpod-sdk|@runpod\/[\w.-]+)(?:\/[^'"\s]*)?['"]/g,
];

interface Compiled {
  byKind: [ApiKind, RegExp][];
  legacy: RegExp;
}

const cache = new Map<string, Compiled>();

function compile(bases: Bases): Compiled {
  const key = JSON.stringify(bases);
  const hit = cache.get(key);
  if (hit) return hit;
  const legacy = [...new Set(bases.legacy.map(urlPattern))].sort((a, b) => b.length - a.length);
  const targets = [...new Set([urlPattern(TARGET_BASE_URL), urlPattern(bases.target)])].sort((a, b) => b.length - a.length);
  const compiled: Compiled = {
    legacy: new RegExp(`${BEFORE}(?:[a-z][a-z0-9+.-]*:)?(?:\\/\\/)?(?:${legacy.join('|')})${AFTER}`, 'gi'),
    byKind: [
      ['restV2', new RegExp(`${BEFORE}(?:${targets.join('|')})${AFTER}`, 'gi')],
      ['graphql', new RegExp(`${BEFORE}${urlPattern(GRAPHQL_URL)}(?![\\w-])`, 'gi')],
      ['jobApi', new RegExp(`${BEFORE}${escape(JOB_API_HOST)}${AFTER}`, 'gi')],
    ],
  };
  cache.set(key, compiled);
  return compiled;
}

/** Classify the RunPod API occurrences in a file's text. */
export function scanInventory(text: string, bases: Bases): Inventory {
  const inv = emptyInventory();
  if (!/runpod/i.test(text)) return inv;
  const position = lineIndex(text);
  const add = (kind: ApiKind, offset: number, matched: string): void => {
    inv.hits.push({ kind, ...position(offset), text: matched.trim() });
    inv.counts[kind]++;
  };
  const { legacy, byKind } = compile(bases);
  for (const m of text.matchAll(legacy)) {
    add('restV1', m.index, m[0]);
    // The base on its own: followed by an optional `/` and then a quote, `}`, `)`, whitespace or the end.
    if (/^\/?(?:['"`}\s)]|$)/.test(text.slice(m.index + m[0].length, m.index + m[0].length + 2))) {
      const line = position(m.index).line;
      if (!inv.v1BaseLines.includes(line)) inv.v1BaseLines.push(line);
    }
  }
  for (const [kind, re] of byKind) for (const m of text.matchAll(re)) add(kind, m.index, m[0]);
  const sdkLines = new Set<number>();
  for (const re of SDK_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const offset = m.index + (m[0].length - m[0].trimStart().length);
      const { line } = position(offset);
      if (sdkLines.has(line)) continue;
      sdkLines.add(line);
      add('sdk', offset, m[0]);
    }
  }
  inv.hits.sort((a, b) => a.line - b.line || a.column - b.column);
  return inv;
}
