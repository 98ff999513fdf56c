/**
 * Commands other than curl that GET a URL and print what it answers: `wget -qO- URL` and HTTPie's
 * `http URL` / `http GET URL` (and `xh`). Their requests are planned like curl's (the path, the list
 * its readers get); a method or body of theirs is never written, so one that sends anything else is
 * left to the literal pass.
 */
import { programIndex, programWord } from './scope.js';
import { literalOf, type Command, type Word } from './syntax.js';

interface GetRequest {
  client: 'wget' | 'httpie';
  url: Word;
  /** What the command prints is the body, as it is (`-O -`; HTTPie when piped). */
  printsBody: boolean;
}

/** wget options that send a method or a body. */
const WGET_SENDS = /^--(method|post-data|post-file|body-data|body-file)\b/;
/** `-O -`, `-qO-`, `--output-document=-`: the body on standard output. */
const WGET_STDOUT = /^(-[a-zA-Z]*O-|--output-document=-)$/;
/** HTTPie request items that send data (`name=value`, `name:=json`, `field@file`); `==` is a query parameter, `:` a header. */
const HTTPIE_DATA = /^[^=:@]+(=[^=]|:=|=$|@)/;
/** HTTPie options after which the output is not the body alone. */
const HTTPIE_NOT_BODY = /^(-o|--output|-d|--download|-p|--print|-h|--headers|-v|--verbose|--all|--offline)/;

/** A word's text up to its first expansion (`--post-data=` of `--post-data="$BODY"`). */
const headText = (w: Word): string => (w.parts[0]?.kind === 'lit' ? w.parts[0].text : '');

const isUrl = (w: Word): boolean => {
  const first = w.parts[0];
  return first?.kind === 'var' || (first?.kind === 'lit' && /^https?:\/\//.test(first.text));
};

/** The GET a command sends, when it is one of these and only GETs. */
export function getRequestOf(cmd: Command): GetRequest | null {
  const at = programIndex(cmd);
  const word = programWord(cmd);
  const program = word ? literalOf(word) : null;
  const args = cmd.words.slice(at + 1);
  const lits = args.map(headText);
  if (program === 'wget') {
    if (lits.some((l) => WGET_SENDS.test(l))) return null;
    const urls = args.filter((w, i) => !lits[i]?.startsWith('-') && isUrl(w));
    const url = urls.length === 1 ? urls[0] : undefined;
    const printsBody = lits.some((l, i) => WGET_STDOUT.test(l) || (/^-[a-zA-Z]*O$/.test(l) && lits[i + 1] === '-'));
    return url ? { client: 'wget', url, printsBody } : null;
  }
  if (program === 'http' || program === 'https' || program === 'xh') {
    const positional = args.filter((_, i) => !lits[i]?.startsWith('-'));
    const [first, second, ...items] = positional;
    const method = first ? literalOf(first) : null;
    const explicit = method !== null && /^[A-Z]+$/.test(method);
    if (explicit && method !== 'GET') return null;
    const url = explicit ? second : first;
    const rest = explicit ? items : [second, ...items].filter((w): w is Word => !!w);
    if (!url || !isUrl(url) || rest.some((w) => HTTPIE_DATA.test(headText(w)))) return null;
    return { client: 'httpie', url, printsBody: !lits.some((l) => HTTPIE_NOT_BODY.test(l)) };
  }
  return null;
}
