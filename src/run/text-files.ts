import { internalFailure } from '../findings.js';
import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE, type Settings } from '../config.js';
import { V1_RESOURCES } from '../map/match.js';
import { scanLargeFile } from '../scan/large.js';
import { bytesContainAny, MENTION_NEEDLES, prefilterNeedles } from '../scan/prefilter.js';
import type { TextScanResult } from '../text/index.js';
import { decode, isUtf16, lenientText, type Decoded } from './files.js';
import { screenEach, type Screen } from './screen.js';

export interface TextFileOutcome {
  file: string;
  decoded: Decoded;
  result: TextScanResult;
}

/**
 * Python, shell, Markdown, YAML, JSON, TOML, .env, .http and Terraform files through the text
 * engine. A file that mentions no RunPod host is never decoded; one over the size limit is only
 * listed. `onRead` gets each file's text for the inventory ('' when it cannot mention RunPod).
 * `heldVars`: per .env file, the variables the JS engine says must keep their v1 base.
 */
export async function scanTextFiles(files: readonly string[], settings: Settings, onRead: (file: string, lenient: string | null) => void, jobs = 1, early: Screen | null = null, heldVars: ReadonlyMap<string, Readonly<Record<string, string>>> = new Map()): Promise<TextFileOutcome[]> {
  const needles = prefilterNeedles(settings.bases);
  const matters = bytesContainAny(needles);
  const mentionsRunpod = bytesContainAny(MENTION_NEEDLES);
  const out: TextFileOutcome[] = [];
  const toScan: Array<{ file: string; decoded: Decoded & { kind: 'text' } }> = [];
  /** Shell and Python files with no RunPod host: read again if a script or module of the project links to them. */
  const others: string[] = [];
  await screenEach(files, [...needles, ...MENTION_NEEDLES], (file, bytes) => {
    if (!bytes) return onRead(file, null);
    if (isOwnFile(file, bytes)) return;
    if (!isUtf16(bytes) && !matters(bytes) && !pythonClient(file, bytes)) {
      if (LINKABLE.test(file)) others.push(file);
      return onRead(file, mentionsRunpod(bytes) ? bytes.toString('latin1') : '');
    }
    const lenient = lenientText(bytes);
    onRead(file, lenient);
    const decoded = decode(bytes);
    if (decoded.kind !== 'text') return void out.push({ file, decoded, result: { output: null, findings: [] } });
    if (bytes.length > settings.maxFileSizeMB * 1024 * 1024) return void out.push({ file, decoded, result: { output: null, findings: scanLargeFile(decoded.text, settings.bases, settings.maxFileSizeMB) } });
    toScan.push({ file, decoded });
  }, jobs, early);
  if (!toScan.length) return out;
  // The text engine's scanners are loaded only when some file needs them.
  const { scanText, grammarsFor, languageOf, loadGrammars } = await import('../text/index.js');
  const { scanTextProject } = await import('../text/project.js');
  // Shell and Terraform grammars (WebAssembly, ~50 ms) are loaded only for runs that have such files.
  await loadGrammars([...toScan.map(({ file, decoded }) => grammarsFor(languageOf(file), decoded.text)), ...others.map((file) => grammarsFor(languageOf(file), null))].flat());
  const joined = new Map<string, Decoded & { kind: 'text' }>();
  const read = (file: string): string | null => {
    try {
      const decoded = decode(fs.readFileSync(file));
      if (decoded.kind !== 'text' || decoded.text.length > settings.maxFileSizeMB * 1024 * 1024) return null;
      joined.set(file, decoded);
      return decoded.text;
    } catch {
      return null;
    }
  };
  let results: Map<string, TextScanResult>;
  try {
    results = scanTextProject(toScan.map(({ file, decoded }) => ({ file, text: decoded.text, heldVars: heldVars.get(file) ?? {} })), others, read, settings.bases);
  } catch {
    // One file the project layer cannot link must not cost the others their scan: each alone, as before.
    results = new Map();
  }
  for (const { file, decoded } of toScan) {
    let result = results.get(file);
    if (!result) {
      try {
        result = scanText(decoded.text, file, settings.bases, heldVars.get(file));
      } catch (error) {
        result = { output: null, findings: [internalFailure(error)] };
      }
    }
    out.push({ file, decoded, result });
  }
  for (const [file, decoded] of joined) {
    const result = results.get(file);
    if (result && (result.findings.length || result.output !== null)) out.push({ file, decoded, result });
  }
  return out;
}

/** Scripts and modules that can share a base or a wrapper with a RunPod file. */
const LINKABLE = /\.(py|sh|bash|zsh)$/i;
const HTTP_LIBRARIES = bytesContainAny(['requests', 'httpx', 'urllib', 'aiohttp']);
const RESOURCE_WORDS = bytesContainAny([...V1_RESOURCES]);

/** A Python module that sends HTTP requests and names a RunPod REST resource, as the map names them (its base may be in a config file). */
function pythonClient(file: string, bytes: Buffer): boolean {
  return file.endsWith('.py') && HTTP_LIBRARIES(bytes) && RESOURCE_WORDS(bytes);
}

const REPORT_MARKERS = bytesContainAny(['"ruleId"']);
const OWN_RULE = bytesContainAny(['"base-url"', '"resource-path"', '"pod-action"', '"unknown-path"', '"v2-migrate"']);

/**
 * v2-migrate's own files are never scanned: its config (whose legacyBaseUrls must stay v1), the
 * "v2-migrate" key of a package.json, and the JSON, SARIF and baseline reports it writes.
 */
function isOwnFile(file: string, bytes: Buffer): boolean {
  if (path.basename(file) === CONFIG_FILE) return true;
  if (/(^|[/\\])package\.json$/.test(file) && bytes.includes('"v2-migrate"')) return true;
  return /\.(json|sarif)$/i.test(file) && REPORT_MARKERS(bytes) && OWN_RULE(bytes);
}

