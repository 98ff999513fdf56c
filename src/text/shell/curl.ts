/** `curl` command lines: URL, method (`-X`, implied by `-d`), body and headers; edits that change them. */
import type { HttpMethod } from '../../map/operations.js';
import type { EditsOrReason } from '../plan.js';
import { literalOf, type Command, type Part, type Word } from './syntax.js';

const HTTP = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** curl options that take a value (short letters and long names). */
const SHORT_ARG = new Set('HdXouAebcFwmxETKrzYyCDPQU'.split(''));
const LONG_ARG = new Set([
  'header', 'data', 'data-raw', 'data-binary', 'data-ascii', 'data-urlencode', 'json', 'request', 'output', 'user', 'user-agent', 'referer', 'cookie',
  'cookie-jar', 'form', 'form-string', 'write-out', 'max-time', 'connect-timeout', 'retry', 'retry-delay', 'retry-max-time', 'proxy', 'cacert', 'capath',
  'cert', 'key', 'upload-file', 'config', 'resolve', 'oauth2-bearer', 'range', 'time-cond', 'url', 'limit-rate', 'max-filesize', 'continue-at',
  'interface', 'dns-servers', 'aws-sigv4', 'variable', 'expand-data', 'expand-url', 'url-query', 'trace', 'trace-ascii', 'stderr', 'output-dir',
  'cert-type', 'key-type', 'pass', 'proto', 'proto-redir', 'noproxy', 'local-port', 'max-redirs', 'socks5', 'unix-socket', 'dump-header', 'netrc-file',
  'proxy-user', 'ciphers', 'tls-max', 'header-file', 'etag-save', 'etag-compare', 'quote', 'mail-from', 'mail-rcpt', 'preproxy',
]);
const DATA_SHORT = new Set(['d', 'F', 'T']);
const DATA_LONG = new Set(['data', 'data-raw', 'data-binary', 'data-ascii', 'data-urlencode', 'json', 'form', 'form-string', 'upload-file']);

export interface Curl {
  cmd: Command;
  curlWord: Word;
  url: Word | null;
  /** The `-X` value word (its text when literal), and whether it was attached (`-XPOST`). */
  methodWord: Word | null;
  method: HttpMethod | undefined;
  explicitMethod: boolean;
  data: Word[];
  get: boolean;
  jsonOpt: boolean;
  headers: string[];
  /** Arguments from an array whose words are not known here (`"${ARGS[@]}"`): they may set the method or a body. */
  opaque: boolean;
}

/** Whether curl sends its body as JSON: `--json`, or a `Content-Type: application/json` header. */
export const sendsJson = (curl: Curl): boolean => curl.jsonOpt || curl.headers.some((h) => /^\s*content-type\s*:\s*application\/json/i.test(h));

export function parseCurl(cmd: Command, at: number): Curl {
  const words = cmd.words;
  const c: Curl = { cmd, curlWord: words[at]!, url: null, methodWord: null, method: undefined, explicitMethod: false, data: [], get: false, jsonOpt: false, headers: [], opaque: false };
  let head = false;
  let methodText: string | null = null;
  let methodSet = false;
  for (let i = at + 1; i < words.length; i++) {
    const w = words[i]!;
    const lit = literalOf(w);
    const first = w.parts[0];
    const rawStart = first?.kind === 'lit' && first.literal === first.start ? first.text : '';
    if (lit === '--') {
      if (!c.url && words[i + 1]) c.url = words[i + 1]!;
      break;
    }
    if (rawStart.startsWith('--')) {
      const eq = rawStart.indexOf('=');
      const name = rawStart.slice(2, eq < 0 ? undefined : eq);
      let value: Word | null = null;
      if (LONG_ARG.has(name)) {
        if (eq >= 0) value = sliceWord(w, 2 + name.length + 1);
        else value = words[++i] ?? null;
      }
      if (name === 'request' && value) {
        c.methodWord = value;
        methodText = literalOf(value);
        methodSet = true;
      } else if (DATA_LONG.has(name) && value) {
        c.data.push(value);
        if (name === 'json') c.jsonOpt = true;
      } else if (name === 'header' && value) c.headers.push(literalOf(value) ?? '');
      else if (name === 'url' && value) c.url ??= value;
      else if (name === 'get') c.get = true;
      else if (name === 'head') head = true;
      continue;
    }
    if (rawStart.startsWith('-') && rawStart.length > 1) {
      for (let k = 1; k < rawStart.length; k++) {
        const ch = rawStart[k]!;
        if (ch === 'G') c.get = true;
        if (ch === 'I') head = true;
        if (!SHORT_ARG.has(ch)) continue;
        let value: Word | null;
        const attached = k + 1 < rawStart.length || w.parts.length > 1;
        if (attached) value = sliceWord(w, k + 1);
        else value = words[++i] ?? null;
        if (ch === 'X' && value) {
          c.methodWord = value;
          methodText = literalOf(value);
          methodSet = true;
        } else if (DATA_SHORT.has(ch) && value) c.data.push(value);
        else if (ch === 'H' && value) c.headers.push(literalOf(value) ?? '');
        break;
      }
      continue;
    }
    if (first?.kind === 'var' && w.parts.length === 1 && (first.op === '[@]' || first.op === '[*]')) {
      // An array the scope could not expand: options (headers, auth) as a rule, never taken for the URL.
      c.opaque = true;
      continue;
    }
    if (!c.url) c.url = w;
  }
  if (methodSet) {
    const m = methodText?.toUpperCase();
    c.method = m && HTTP.has(m) ? (m as HttpMethod) : undefined;
    c.explicitMethod = true;
  } else if (head || c.opaque) c.method = undefined;
  else c.method = c.data.length && !c.get ? 'POST' : 'GET';
  return c;
}

/** The word from character `n` of its first literal part on (`-XPOST` → `POST`). */
function sliceWord(w: Word, n: number): Word {
  const first = w.parts[0]!;
  if (first.kind !== 'lit') return w;
  const rest = first.text.slice(n);
  const parts: Part[] = rest ? [{ ...first, text: rest, start: first.start + n, literal: first.start + n }] : [];
  return { parts: [...parts, ...w.parts.slice(1)], start: first.start + n, end: w.end };
}

export function curlSetMethod(curl: Curl, to: HttpMethod): EditsOrReason {
  const w = curl.methodWord;
  if (!w) {
    if (!curl.data.length || curl.opaque) return 'the request method is not visible here';
    // Method implied by -d: say it explicitly.
    return [{ start: curl.curlWord.end, end: curl.curlWord.end, text: ` -X ${to}` }];
  }
  if (w.parts.length !== 1 || w.parts[0]!.kind !== 'lit' || !w.parts[0].editable) return 'its method is not a literal the tool can see';
  const p = w.parts[0];
  const replacement = p.text === p.text.toLowerCase() ? to.toLowerCase() : to;
  return [{ start: p.start, end: p.start + p.text.length, text: replacement }];
}

export function curlSetBody(curl: Curl, body: Readonly<Record<string, string>>): EditsOrReason {
  if (curl.opaque) return 'some of its arguments come from an array that is not visible here';
  if (!curl.explicitMethod || !curl.methodWord) return 'the request method is not written as -X POST';
  if (!curl.url) return 'the URL is not visible';
  const hasType = curl.headers.some((h) => /^\s*content-type\s*:/i.test(h));
  const json = JSON.stringify(body);
  if (curl.data.length) {
    // An empty JSON body written in place (`-d '{}'`) is replaced.
    const d = curl.data[0]!;
    const p = d.parts[0];
    if (curl.data.length !== 1 || curl.jsonOpt || d.parts.length !== 1 || p?.kind !== 'lit' || !p.editable || !/^\s*\{\s*\}\s*$/.test(p.text)) return 'the command already sends a body';
    const edits = [{ start: p.start, end: p.start + p.text.length, text: json }];
    return hasType ? edits : [...edits, { start: curl.cmd.end, end: curl.cmd.end, text: " -H 'Content-Type: application/json'" }];
  }
  // At the end of the command, so the options read in order.
  const at = curl.cmd.end;
  return [{ start: at, end: at, text: `${hasType ? '' : " -H 'Content-Type: application/json'"} -d '${json}'` }];
}
