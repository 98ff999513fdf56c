/**
 * Bases in settings files (`base_url:` in YAML, `RUNPOD_API_BASE=` in `.env`, TOML, JSON) that a Python
 * or shell file of the project reads where its requests cannot be followed (their base is that setting,
 * loaded at run time, so their paths are not known to be migrated): such a base stays on v1, with an
 * error naming the reader, as a base read by code the engine cannot follow does in one file.
 */
import path from 'node:path';
import { Lines } from '../util/lines.js';
import { relativeFrom as relative } from '../util/folders.js';
import { languageOf } from './language.js';
import type { TextScanResult } from './index.js';

type Hold = { where: string; why: 'uncovered' | 'request' };

/** Languages whose files hold settings a program reads by key. */
const SETTINGS_LANGUAGES: ReadonlySet<string> = new Set(['yaml', 'toml', 'json', 'env']);
const READERS = new Set(['python', 'shell']);
/** The key a settings line assigns (`  base_url: …`, `"baseUrl": …`, `export API=…`, `api = …`). */
const KEY = /^[ \t]*(?:export[ \t]+)?["']?([A-Za-z_][\w.-]*)["']?[ \t]*[:=]/;

/**
 * Per settings file: the base literals (offset) to hold, and where the code that reads each is.
 * `readers`: the Python and shell files that may read a setting (those that mention RunPod, and those
 * that do not, such as a script whose only URL is `"$RUNPOD_API_URL/pods"`), asked for only once a
 * settings file moves a base; `resultOf` scans one when it names a setting's key (only then: most never do).
 */
export function settingsHolds(sources: ReadonlyArray<{ file: string; text: string }>, results: ReadonlyMap<string, TextScanResult>, readers: () => ReadonlyArray<{ file: string; text: string }>, resultOf: (reader: { file: string; text: string }) => TextScanResult): Map<string, Map<number, Hold>> {
  const kind = (file: string): string | null => languageOf(path.basename(file));
  // A reader whose requests go to a base it cannot see: it reads it from somewhere.
  const blind = (r: { file: string; text: string }): boolean => READERS.has(kind(r.file) ?? '') && resultOf(r).findings.some((f) => f.ruleId === 'unresolved-url');
  const out = new Map<string, Map<number, Hold>>();
  for (const s of sources) {
    if (!SETTINGS_LANGUAGES.has(kind(s.file) ?? '')) continue;
    const bases = results.get(s.file)?.findings.filter((f) => f.ruleId === 'base-url' && f.fixable) ?? [];
    if (!bases.length) continue;
    const lines = s.text.split('\n');
    for (const f of bases) {
      const key = KEY.exec(lines[f.line - 1] ?? '')?.[1];
      if (!key) continue;
      const word = new RegExp(`(^|[^\\w.-])${key.replace(/[.-]/g, '\\$&')}(?![\\w-])`, 'm');
      for (const r of readers()) {
        const at = r.text.search(word);
        if (at < 0 || !blind(r)) continue;
        const offset = offsetOf(s.text, f.line, f.column);
        const held = out.get(s.file) ?? out.set(s.file, new Map()).get(s.file)!;
        held.set(offset, { where: `line ${new Lines(r.text).pos(at + (r.text[at] === key[0] ? 0 : 1)).line} of ${relative(s.file, r.file)}`, why: 'uncovered' });
        break;
      }
    }
  }
  return out;
}

/** The offset of a 1-based line and column. */
function offsetOf(text: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) at = text.indexOf('\n', at) + 1;
  return at + column - 1;
}
