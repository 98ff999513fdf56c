/**
 * The analysis thread behind the ESLint rules: ESLint rules are synchronous and the engine's runs are
 * not, so the rules post a question here and block until the answer (client.ts). It holds one
 * LiveProject per root for the life of the process, so a lint run analyses the project once.
 */
import os from 'node:os';
import { workerData, type MessagePort } from 'node:worker_threads';
import { loadSettings, settingsResolver } from '../config.js';
import { LiveProject } from '../live/project.js';
import type { Question, Reply } from './protocol.js';
import type { Finding, FixEdit } from '../findings.js';
import { fixesCover } from '../fixes.js';
import { maskSecrets } from '../report/secrets.js';

const { port, signal } = workerData as { port: MessagePort; signal: Int32Array };

const projects = new Map<string, LiveProject>();

function projectFor(root: string): LiveProject {
  let project = projects.get(root);
  if (!project) {
    const load = () => {
      const settings = loadSettings({ searchFrom: root });
      return { settings, settingsFor: settingsResolver({ searchFrom: root }, settings) };
    };
    projects.set(root, (project = new LiveProject({ root, load, jobs: os.availableParallelism() })));
  }
  return project;
}

/** The smallest single edit that turns `before` into `after`. */
function edit(before: string, after: string): FixEdit {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return { range: [start, before.length - end], text: after.slice(start, after.length - end) };
}

/**
 * Each fixable finding's fix as one edit: its own (`Finding.fix`) when the findings' fixes are the
 * file's whole change; otherwise (an edit no finding explains) the whole change, on every fixable
 * finding. Findings that share a fix share one object: the reply carries it once.
 */
function fixesOf(text: string, output: string, findings: readonly Finding[]): Array<FixEdit | undefined> {
  if (!fixesCover(text, output, findings)) {
    const whole = edit(text, output);
    return findings.map((f) => (f.fixable ? whole : undefined));
  }
  const shared = new Map<string, FixEdit>();
  return findings.map((f) => {
    const edits = f.fixable ? f.fix : undefined;
    const first = edits?.[0];
    const last = edits?.[edits.length - 1];
    if (!edits || !first || !last) return undefined;
    // Findings' fixes never share an edit unless they are the same fix (fixes.ts): its ends name it.
    const key = `${first.range[0]}:${last.range[1]}:${edits.length}`;
    const known = shared.get(key);
    if (known) return known;
    const one = spanning(text, edits);
    shared.set(key, one);
    return one;
  });
}

/** Edits (in order, apart) as one edit over the text they span, the text between them kept: what ESLint makes of a report's fixes. */
function spanning(text: string, edits: readonly FixEdit[]): FixEdit {
  let out = '';
  let at = edits[0]?.range[0] ?? 0;
  const start = at;
  for (const e of edits) {
    out += text.slice(at, e.range[0]) + e.text;
    at = e.range[1];
  }
  return { range: [start, at], text: out };
}

async function answer({ root, file, text }: Question): Promise<Reply> {
  const a = await projectFor(root).answer(file, text);
  // A change that goes with changes to other files (the rest of its write group, the generated
  // adapter file) is not offered: ESLint fixes one file at a time and never creates one.
  const fixes = a.output !== null && !a.changesWith.length ? fixesOf(text, a.output, a.findings) : [];
  return {
    // ESLint's output lands in CI logs too: messages as every report prints them.
    findings: a.findings.map(({ ruleId, line, column, message, fixable }, i) => {
      const fix = fixes[i];
      return { ruleId, line, column, message: maskSecrets(message), fixable, ...(fix ? { fix } : {}) };
    }),
  };
}

function reply(message: Reply): void {
  port.postMessage(message);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

port.on('message', (question: Question) => {
  answer(question).then(reply, (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }));
});
