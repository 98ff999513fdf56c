import fs from 'node:fs';
import path from 'node:path';
import { lineIndex } from '../util/lines.js';

/**
 * A file that governs a folder (a package.json, a .gitignore, a v2-migrate config) but cannot be
 * used: the run goes on as if it were not there, and says so with a `malformed-config` finding.
 */
export interface Malformed {
  file: string;
  /** The finding's message: what is wrong (the parser's words) and what the run did instead. */
  message: string;
  line: number;
  column: number;
  /** A v2-migrate config (or a package.json that holds one): reported even when it governs nothing that mentions RunPod. */
  ours: boolean;
}

export type ReportMalformed = (problem: Malformed) => void;

/** JSON text parsed, or where and why it does not parse (JSON.parse names an offset: made a line and column here). */
export function parseJson(text: string): { data: unknown } | { error: string; line: number; column: number } {
  try {
    return { data: JSON.parse(text) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const at = /at position (\d+)/.exec(message);
    const offset = at ? Math.min(Number(at[1]), text.length) : /end of JSON input/.test(message) ? text.length : 0;
    const { line, column } = lineIndex(text)(offset);
    return { error: message, line, column };
  }
}

/** How to act on a malformed-config finding. */
export const FIX_OR_TURN_OFF = 'Fix it, or if it is malformed on purpose (a test fixture) turn this finding off with "rules": { "malformed-config": "off" }.';

/** What the run does instead, for a malformed file that governs a folder below the root of the run. */
export const AS_IF_ABSENT = `the files below it are analysed as if it were not there (with the config above it, or the defaults). ${FIX_OR_TURN_OFF}`;

/** The problem with a JSON file (a package.json, a config) that does not parse. */
export function unparsableJson(file: string, text: string, parsed: { error: string; line: number; column: number }, ours: boolean): Malformed {
  return { file, message: `This ${path.basename(file)} does not parse (${parsed.error}): ${AS_IF_ABSENT}`, line: parsed.line, column: parsed.column, ours: ours || text.includes('"v2-migrate"') };
}

/** A package.json's content, or null when it is absent, unreadable or does not parse (reported). */
export function readPackageJson(file: string, report: ReportMalformed): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const parsed = parseJson(text);
  if ('data' in parsed) return parsed.data;
  report(unparsableJson(file, text, parsed, false));
  return null;
}
