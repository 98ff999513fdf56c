import type { Finding } from '../findings.js';
import { RULES } from '../rules/registry.js';
import type { Bases } from '../url/shape.js';
import { lineIndex } from '../util/lines.js';

const MB = 1024 * 1024;

/**
 * A file over maxFileSizeMB that looks hand-written is still parsed, up to this many times the limit
 * (8 MB by default: larger than any hand-written module we know of; a parse holds over a hundred bytes
 * of syntax tree per byte of source, so the cap bounds memory when a generated file escapes the tests
 * below).
 */
export const HAND_WRITTEN_FACTOR = 4;

/** Minified code runs to hundreds or thousands of characters a line; hand-written code averages under 60. */
const MINIFIED_AVERAGE_LINE = 250;

/** Banners generators and bundlers write at the top of their output. */
const BANNER = /^\s*\/\*!|@generated\b|\bDO NOT EDIT\b|\b(?:auto-?generated|code generated|generated (?:by|from|with))\b|webpackBootstrap|__webpack_require__|\/\*{6}\/|\bparcelRequire\b/i;

/**
 * Why the text of a file looks generated or minified (a source-map comment at its end, a generator's
 * or bundler's banner at its top, very long lines on average), or null when it looks hand-written.
 */
export function generatedBy(text: string): string | null {
  if (/[#@] sourceMappingURL=/.test(text.slice(-4096))) return 'it ends with a source-map comment';
  const head = text.slice(0, 2048);
  const banner = BANNER.exec(head);
  if (banner) {
    const line = head.slice(head.lastIndexOf('\n', banner.index) + 1).split('\n')[0]!.trim();
    return `its first lines carry a generator's banner: ${line.length > 80 ? `${line.slice(0, 77)}...` : line}`;
  }
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  const average = Math.round(text.length / lines);
  return average > MINIFIED_AVERAGE_LINE ? `its lines average ${average} characters` : null;
}

/**
 * Whether a JS/TS file of `bytes` bytes is parsed: up to maxFileSizeMB always; above it only when its
 * content looks hand-written, up to HAND_WRITTEN_FACTOR times the limit. Returns why it is not (for
 * the finding), or null to parse it.
 */
export function notParsedBecause(text: string, bytes: number, limitMB: number): string | null {
  if (bytes <= limitMB * MB) return null;
  const generated = generatedBy(text);
  if (generated) return `This file is over ${limitMB} MB and looks generated or minified (${generated})`;
  const handWrittenMB = limitMB * HAND_WRITTEN_FACTOR;
  return bytes > handWrittenMB * MB ? `This file is over ${handWrittenMB} MB, the limit even for a file that looks hand-written (${HAND_WRITTEN_FACTOR} × maxFileSizeMB)` : null;
}

/**
 * A file that is not parsed (a bundle, generated code, or over the size limit) has its text scanned
 * for v1 bases, each reported where it is, and one finding says the file was scanned as text only.
 * `why` says why it was not parsed (default: it is over the limit).
 */
export function scanLargeFile(text: string, bases: Bases, limitMB: number, why = `This file is over ${limitMB} MB (a bundle or generated code?)`): Finding[] {
  const findings: Finding[] = [];
  const position = lineIndex(text);
  for (const base of bases.legacy) {
    for (let i = text.indexOf(base); i >= 0 && findings.length < 1000; i = text.indexOf(base, i + base.length)) {
      findings.push({ ruleId: 'embedded-url', severity: RULES['embedded-url'].severity, ...position(i), message: `A REST v1 URL (${base}) in a file too large to analyse (over ${limitMB} MB): migrate the source it is built from, or this file by hand.`, fixable: false });
    }
  }
  findings.unshift({ ruleId: 'skipped-file', severity: RULES['skipped-file'].severity, line: 1, column: 1, message: `${why}: it was scanned as text only, not parsed or rewritten. Raise maxFileSizeMB in the config to analyse it.`, fixable: false });
  return findings.sort((a, b) => a.line - b.line || a.column - b.column);
}
