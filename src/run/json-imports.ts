import path from 'node:path';
import type { Finding } from '../findings.js';
import type { ModuleResolver } from '../scan/resolve.js';
import { moduleSpecifiers } from './imports.js';
import { readEach } from './read.js';
import type { TextFileOutcome } from './text-files.js';

/**
 * A JSON file that JS/TS code of the run imports (`import settings from './config.json'`, `require`)
 * is that code's data: a base written there is joined to paths the code sends, which the JS engine
 * does not follow through a JSON import. Moving the base alone would send those v1 paths to the v2
 * host, so such a file is not rewritten, and its findings say which code reads it. Only the JS files
 * that name the JSON file's base name are read, and only when a JSON file would change.
 */
export function holdJsonReadByCode(outcomes: readonly TextFileOutcome[], jsFiles: readonly string[], resolver: ModuleResolver, cwd: string): void {
  const changing = outcomes.filter((o) => o.result.output !== null && /\.json$/i.test(o.file));
  if (!changing.length) return;
  const known = new Set(jsFiles);
  const names = changing.map((o) => path.basename(o.file, path.extname(o.file)));
  const candidates: string[] = [];
  readEach(jsFiles, (file, bytes) => {
    if (bytes && names.some((n) => bytes.includes(n))) candidates.push(file);
  });
  const readers = new Map<string, string>();
  readEach(candidates, (file, bytes) => {
    if (!bytes) return;
    for (const spec of moduleSpecifiers(bytes.toString('utf8'))) {
      if (!/\.json$/i.test(spec)) continue;
      const target = resolver.resolve(file, spec, (f) => known.has(f) || changing.some((o) => o.file === f));
      if (target && !readers.has(target)) readers.set(target, file);
    }
  });
  for (const o of changing) {
    const reader = readers.get(o.file);
    if (!reader) continue;
    const by = path.relative(cwd, reader).split(path.sep).join('/');
    o.result.output = null;
    o.result.findings = o.result.findings.map((f) => (f.fixable ? held(f, by) : f));
  }
}

/** A fixable finding of a file left as it is: no fix, and why. */
function held(f: Finding, by: string): Finding {
  const { fix: _dropped, ...rest } = f;
  return { ...rest, fixable: false, message: `${f.message} Not rewritten: ${by} imports this file and sends its own paths on this base, which v2-migrate does not follow through a JSON import; move the base together with those paths.` };
}
