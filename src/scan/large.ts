import type { Finding } from '../findings.js';
import { RULES } from '../rules/registry.js';
import type { Bases } from '../url/shape.js';
import { lineIndex } from '../util/lines.js';

/**
 * A file over the size limit (a bundle, generated code) is not parsed: its text is scanned for v1
 * bases, each reported where it is, and one finding says the file was scanned as text only.
 */
export function scanLargeFile(text: string, bases: Bases, limitMB: number): Finding[] {
  const findings: Finding[] = [];
  const position = lineIndex(text);
  for (const base of bases.legacy) {
    for (let i = text.indexOf(base); i >= 0 && findings.length < 1000; i = text.indexOf(base, i + base.length)) {
      findings.push({ ruleId: 'embedded-url', severity: RULES['embedded-url'].severity, ...position(i), message: `A REST v1 URL (${base}) in a file too large to analyse (over ${limitMB} MB): migrate the source it is built from, or this file by hand.`, fixable: false });
    }
  }
  findings.unshift({ ruleId: 'skipped-file', severity: RULES['skipped-file'].severity, line: 1, column: 1, message: `This file is over ${limitMB} MB (a bundle or generated code?): it was scanned as text only, not parsed or rewritten. Raise maxFileSizeMB in the config to analyse it.`, fixable: false });
  return findings.sort((a, b) => a.line - b.line || a.column - b.column);
}
