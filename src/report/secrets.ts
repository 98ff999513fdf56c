/**
 * Secrets kept out of every report. A repository's `.env`, config and code hold API keys and
 * database passwords, and reports land in CI logs, code scanning and pull request annotations: a
 * value that looks secret is printed as `***` wherever a message or a diff line would show it.
 * The tests err toward masking (`MONKEY=…` is masked too): a hidden value costs less than a leaked one.
 */
import { dotenvAssignments } from '../scan/dotenv.js';
import { languageOf } from '../text/language.js';
import type { DiffStyle } from './diff.js';

export const MASK = '***';

/** A key whose value is a secret: `RUNPOD_API_KEY`, `apiToken`, `DB_PASSWORD`, `Authorization`, `PRIVATE_KEY`. */
const SECRET_NAME = /key|token|secret|pass|pwd|credential|auth|private/i;

/** Each pattern keeps what comes before `$<secret>` and masks that group. */
const SECRET_PATTERNS: readonly RegExp[] = [
  // A password in a URL's userinfo: postgres://app:hunter2@db.internal/app
  /(?<=\b[a-z][a-z\d+.-]*:\/\/[^\s/:@'"`]*:)(?<secret>[^\s/@'"`]+)(?=@)/gi,
  // A RunPod API key, wherever it is.
  /\b(?<secret>rpa_[A-Za-z\d]+)/g,
  // A bearer token written out: `Authorization: Bearer 0a1b…`.
  /(?<=\bBearer\s+)(?<secret>[\w.~+/-]+=*)/g,
];

/** `name = 'literal'`, `"name": "literal"`, `name: 'literal'`, and `name=value` with no blank (a query string, a shell or .env assignment). */
const NAMED_VALUE = /(?<name>[A-Za-z_][\w.-]*)(?:(?<assign>["']?\s*[:=]\s*)(?<quote>["'])(?<quoted>(?:(?!\k<quote>)[^\\\n]|\\.)*)\k<quote>|=(?<bare>[^\s'"`&#;,)}\]]+))/g;

/** `text` with every value that looks secret replaced by `***`. */
export function maskSecrets(text: string): string {
  let out = text.replace(NAMED_VALUE, (whole, ...args: unknown[]) => {
    const groups = args.at(-1);
    if (!isNamedValue(groups) || !SECRET_NAME.test(groups.name)) return whole;
    return groups.quoted !== undefined ? `${groups.name}${groups.assign}${groups.quote}${MASK}${groups.quote}` : `${groups.name}=${MASK}`;
  });
  for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, MASK);
  return out;
}

interface NamedValue {
  name: string;
  assign?: string;
  quote?: string;
  quoted?: string;
}

function isNamedValue(groups: unknown): groups is NamedValue {
  return typeof groups === 'object' && groups !== null && 'name' in groups && typeof groups.name === 'string';
}

/** A line of a `.env`-like file: a secret key's whole value masked, any other value as maskSecrets masks it. */
export function maskEnvLine(line: string): string {
  const [assignment] = dotenvAssignments(line);
  if (!assignment || !SECRET_NAME.test(assignment.name)) return maskSecrets(line);
  return `${line.slice(0, assignment.start).replace(/["']$/, '')}${MASK}`;
}

/** `.env`, `.env.production`, `prod.env`: files the text engine reads as KEY=value settings. */
export const isEnvLike = (file: string): boolean => languageOf(file) === 'env';

/**
 * How a file's diff is printed: a `.env`-like file shows only its changed lines (no context: its other
 * lines are settings, often secrets) with secret values masked; other files, three lines of context.
 */
export function diffStyle(file: string): DiffStyle {
  return isEnvLike(file) ? { context: 0, show: maskEnvLine } : { context: 3, show: maskSecrets };
}
