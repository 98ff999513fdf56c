/**
 * `curl "$API/pods?name=$POD" | jq -r '.[0].id'`: v2 ignores the `name` filter and answers every pod.
 * The filter is taken out of the URL and done by the jq program on the unwrapped list instead
 * (`jq -r --arg name "$POD" '.pods | map(select(.name == $name)) | .[0].id'`), when the query is written
 * in the curl command itself and the response goes straight into one jq program that can be unwrapped.
 */
import type { ListFilter } from '../../plan/site.js';
import type { Edit } from '../source.js';
import type { Curl } from './curl.js';
import { curlPrintsBody, jqFilters, unwrapJqEdit } from './jq.js';
import { programIndex } from './scope.js';
import type { Command, Word } from './syntax.js';

/** One query parameter as written in the URL word: its name, value, and where it is. */
interface WrittenParam {
  name: string;
  /** The value: literal text, or the shell text of the one expansion it is (`$POD`). */
  value: { literal: string } | { shell: string };
  start: number;
  end: number;
}

/** The query of a URL word, parameter by parameter, or why it is not plainly written there. */
function writtenQuery(text: string, url: Word): { at: number; params: WrittenParam[] } | string {
  // The word as a stream of characters (with their offsets) and whole expansions.
  type Item = { ch: string; at: number } | { shell: string; start: number; end: number };
  const items: Item[] = [];
  let editable = true;
  for (const p of url.parts) {
    if (p.kind === 'lit') {
      [...p.text].forEach((ch, i) => items.push({ ch, at: p.start + i }));
      if (!p.editable && p.text.length) editable = false;
    } else items.push({ shell: text.slice(p.start, p.end), start: p.start, end: p.end });
  }
  const isAmpersand = (it: Item | undefined): boolean => !!it && 'ch' in it && it.ch === '&';
  const q = items.findIndex((it) => 'ch' in it && it.ch === '?');
  if (q < 0) return 'its query string is not written in the curl command';
  if (!editable) return 'its URL is not written as plain text';
  const params: WrittenParam[] = [];
  let from = q + 1;
  while (from < items.length) {
    let to = from;
    while (to < items.length && !isAmpersand(items[to])) to++;
    const part = items.slice(from, to);
    const eq = part.findIndex((it) => 'ch' in it && it.ch === '=');
    const head = part.slice(0, eq < 0 ? part.length : eq);
    const name = head.every((it) => 'ch' in it) ? head.map((it) => ('ch' in it ? it.ch : '')).join('') : null;
    const rest = eq < 0 ? [] : part.slice(eq + 1);
    const first = part[0];
    const last = part[part.length - 1];
    if (!name || !first || !last) return 'its query string is not a list of name=value pairs';
    let value: WrittenParam['value'];
    const only = rest[0];
    if (rest.length === 1 && only && 'shell' in only) value = { shell: only.shell };
    else if (rest.every((it) => 'ch' in it)) value = { literal: rest.map((it) => ('ch' in it ? it.ch : '')).join('') };
    else return `the value of ${name} is built from several pieces`;
    params.push({ name, value, start: 'ch' in first ? first.at : first.start, end: 'ch' in last ? last.at + 1 : last.end });
    from = to + 1;
  }
  const mark = items[q];
  return { at: mark && 'ch' in mark ? mark.at : url.start, params };
}

/** Deletions that take `names` out of the query (with their `?` or `&`), merged where they touch. */
function removals(query: { at: number; params: WrittenParam[] }, names: ReadonlySet<string>): Edit[] {
  const { params } = query;
  const last = params[params.length - 1];
  if (last && params.every((p) => names.has(p.name))) return [{ start: query.at, end: last.end, text: '' }];
  const ranges = params.flatMap((p, i) => {
    if (!names.has(p.name)) return [];
    const next = params[i + 1];
    return [next ? { start: p.start, end: next.start } : { start: p.start - 1, end: p.end }];
  });
  const merged: Array<{ start: number; end: number }> = [];
  for (const r of ranges.sort((a, b) => a.start - b.start)) {
    const prev = merged[merged.length - 1];
    if (prev && r.start <= prev.end) prev.end = Math.max(prev.end, r.end);
    else merged.push({ ...r });
  }
  return merged.map((r) => ({ ...r, text: '' }));
}

/** A jq string literal for a URL query value written as plain text (no percent-encoding to undo). */
function jqString(value: string): string | null {
  return /[%+]/.test(value) ? null : JSON.stringify(value);
}

/**
 * The edits that move `filters` from `curl`'s URL to the jq program its output is piped into, or why
 * they cannot be made. `rewritten` collects the jq program words changed (their list read is done).
 */
export function curlListFilter(text: string, cmds: readonly Command[], sent: Command, curl: Curl, filters: readonly ListFilter[], envelope: string, rewritten: Set<Word>): Edit[] | string {
  if (!curl.url) return 'its URL is not visible';
  const jq = cmds.find((c) => c.pipeline === sent.pipeline && c.stage === sent.stage + 1);
  const program = jq ? jqFilters(jq)[0] : undefined;
  if (!jq || !program || !curlPrintsBody(text, curl.cmd.words)) return 'its response is not read by a jq program piped straight from curl';
  const query = writtenQuery(text, curl.url);
  if (typeof query === 'string') return query;
  const args: string[] = [];
  const tests: string[] = [];
  for (const f of filters) {
    const written = query.params.filter((p) => p.name === f.param);
    const p = written[0];
    if (!p || written.length > 1) return `the parameter ${f.param} is not written once in its URL`;
    if ('literal' in p.value) {
      const value = jqString(p.value.literal);
      if (value === null) return `the value of ${f.param} is percent-encoded`;
      if (f.sameAsV2.includes(p.value.literal)) continue;
      const test = f.test(value, p.value.literal);
      if (!test) return `v2 has no field to test ${f.param}=${p.value.literal} on`;
      tests.push(test);
    } else {
      if (text.slice(program.start, program.end).includes(`$${f.param}`)) return `its jq program already uses $${f.param}`;
      const test = f.test(`$${f.param}`, null);
      if (!test) return `v2 has no field to test ${f.param} on without knowing its value`;
      args.push(` --arg ${f.param} "${p.value.shell}"`);
      tests.push(test);
    }
  }
  const jqWord = jq.words[programIndex(jq)];
  const filter = tests.length ? `map(select(${tests.join(' and ')}))` : undefined;
  const edit = jqWord ? unwrapJqEdit(text, jq.words.slice(programIndex(jq) + 1, jq.words.indexOf(program)), program, envelope, filter) : null;
  if (!jqWord || !edit) return 'its jq program is not one single-quoted word that reads the response as JSON';
  rewritten.add(program);
  const names = new Set(filters.map((f) => f.param));
  return [...removals(query, names), edit, ...(args.length ? [{ start: jqWord.end, end: jqWord.end, text: args.join('') }] : [])];
}
