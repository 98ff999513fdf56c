/**
 * `v2-migrate/eslint`: the tool's findings as ESLint rules (flat config, ESLint 9 and 10).
 *
 * One ESLint rule per tool rule id (`v2-migrate/pod-action`, …), so severities, `eslint-disable`
 * comments and rule filters work per rule, with the ids the CLI, markers and CI already use. Every
 * rule reads one shared answer per file: the project analysis `v2-migrate lint` makes, built once per
 * root on a thread of its own and reused for every file of the lint run (live/project.ts), with the
 * CLI's exact messages. Each fixable finding carries its own fix (`Finding.fix`): the edits of its
 * request. Findings whose edits depend on each other (a base and the paths built on it, an action's path
 * and its body) share one combined fix, so none is made alone; ESLint applies it once and the others'
 * overlap it. A file whose change goes with changes to other files gets no fix (ESLint fixes one file at
 * a time): `npx v2-migrate` applies those together.
 */
import path from 'node:path';
import type { ESLint, Linter, Rule } from 'eslint';
import { RULES, RULE_IDS, type RuleId } from '../rules/registry.js';
import { toolVersion } from '../report/tool.js';
import { ask } from './client.js';
import type { Question, Reply } from './protocol.js';
import type { FixEdit } from '../findings.js';

const DOCS = 'https://www.npmjs.com/package/v2-migrate#rules';

/** The answer for the file being linted, asked once for all the rules that run on it. */
let last: { question: Question; reply: Exclude<Reply, { error: string }> } | null = null;

function answerFor(context: Rule.RuleContext): Exclude<Reply, { error: string }> {
  const settings = (context.settings['v2-migrate'] ?? {}) as { root?: string };
  const root = path.resolve(context.cwd, settings.root ?? '.');
  // Text without a file (eslint --stdin without --stdin-filename) is linted as JavaScript.
  const file = path.isAbsolute(context.filename) ? context.filename : path.join(root, `${context.filename.replace(/[<>]/g, '')}.js`);
  const text = context.sourceCode.text;
  if (last && last.question.file === file && last.question.root === root && last.question.text === text) return last.reply;
  const question = { root, file, text };
  last = { question, reply: ask(question) };
  return last.reply;
}

function ruleFor(id: RuleId): Rule.RuleModule {
  return {
    meta: {
      type: RULES[id].severity === 'error' ? 'problem' : 'suggestion',
      docs: { description: RULES[id].summary, url: DOCS, recommended: true },
      // Fixability is decided per finding (v1-default is fixable only with preserveV1Defaults): every
      // rule may fix; a fix is attached exactly to the findings the CLI calls fixable.
      fixable: 'code',
      schema: [],
    },
    create(context) {
      return {
        Program() {
          const { findings } = answerFor(context);
          for (const f of findings) {
            if (f.ruleId !== id) continue;
            context.report({
              loc: { line: f.line, column: f.column - 1 },
              message: f.message,
              ...(f.fix ? { fix: fixerOf(f.fix) } : {}),
            });
          }
        },
      };
    },
  };
}

/** A finding's fix, one edit (findings that share a fix share its text: nothing is copied per report). */
const fixerOf = (e: FixEdit) => (fixer: Rule.RuleFixer) => fixer.replaceTextRange(e.range, e.text);

/** ESLint has no info level: info findings (inventory, advice) are warnings, as `v2-migrate lint` lists them. */
const severity = (id: RuleId): Linter.RuleSeverity => (RULES[id].severity === 'error' ? 'error' : 'warn');

const plugin = {
  meta: { name: 'v2-migrate', version: toolVersion(), namespace: 'v2-migrate' },
  rules: Object.fromEntries(RULE_IDS.map((id) => [id, ruleFor(id)])) as Record<RuleId, Rule.RuleModule>,
  configs: {} as { recommended: Linter.Config },
} satisfies ESLint.Plugin;

plugin.configs.recommended = {
  name: 'v2-migrate/recommended',
  plugins: { 'v2-migrate': plugin },
  rules: Object.fromEntries(RULE_IDS.map((id) => [`v2-migrate/${id}`, severity(id)])),
};

export default plugin;
export const { rules, configs } = plugin;
