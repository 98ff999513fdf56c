/**
 * TOML: every string (basic, literal, multi-line) holding a v1 URL is planned as a literal; a key that
 * looks like an environment variable (`RUNPOD_API_URL = "…"`) is named in the message.
 */
import { planValue, type Collector, type TPiece } from './plan.js';
import { backslash, looksLikeEnvVar, none, runs } from './strings.js';
import { mentionsGraphql, scanGraphql } from './fields.js';

export function scanToml(c: Collector, text: string): void {
  let i = 0;
  let key: string | null = null;
  let lineStart = true;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\n') {
      key = null;
      lineStart = true;
      i++;
      continue;
    }
    if (ch === '#') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (lineStart && /\S/.test(ch)) {
      lineStart = false;
      const km = /^([A-Za-z0-9_.-]+|"[^"\n]*"|'[^'\n]*')\s*=\s*/.exec(text.slice(i, i + 300));
      if (km) {
        key = km[1]!.replace(/^["']|["']$/g, '');
        i += km[0].length;
        continue;
      }
    }
    if (ch === '"' || ch === "'") {
      const triple = text.startsWith(ch.repeat(3), i);
      const q = triple ? ch.repeat(3) : ch;
      let j = i + q.length;
      while (j < text.length && !text.startsWith(q, j) && (triple || text[j] !== '\n')) j += ch === '"' && text[j] === '\\' ? 2 : 1;
      const bodyStart = i + q.length;
      let pieces: TPiece[] = runs(text, bodyStart, Math.min(j, text.length), i, ch === '"' ? backslash : none);
      if (c.bases.legacy.some((b) => text.slice(bodyStart, j).includes(b))) {
        if (key && looksLikeEnvVar(key.split('.').pop()!)) {
          const name = key.split('.').pop()!;
          pieces = pieces.map((p) => (p.kind === 'text' ? { ...p, origin: { ...p.origin, envVar: name } } : p));
        }
        planValue(c, pieces, { anchor: i });
      }
      i = Math.min(j + q.length, text.length);
      continue;
    }
    i++;
  }
  if (mentionsGraphql(text)) scanGraphql(c, text, 0, text.length);
}
