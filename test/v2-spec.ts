import { Ajv2020 } from 'ajv/dist/2020.js';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from './helpers.js';

/**
 * runpod-v2.openapi.json from the shared folder beside the repository, or V2_SPEC (absent outside CI and
 * developer machines: callers skip with a message), and a validator of request bodies against it.
 */
// V2_SPEC in the environment points elsewhere (a git worktree is not beside the shared folder).
export const V2_SPEC = process.env.V2_SPEC ?? path.resolve(REPO, '../shared/spec/runpod-v2.openapi.json');
export const v2SpecPresent = fs.existsSync(V2_SPEC);
// The spec tests skip without it: say so where the run shows it.
if (!v2SpecPresent) console.warn(`[v2-spec] ${V2_SPEC} not found: the checks against the v2 spec are skipped (set V2_SPEC to run them)`);

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let spec: Json | undefined;

/** The parsed v2 spec. */
export function v2Spec(): Json {
  if (!spec) {
    const parsed: Json = JSON.parse(fs.readFileSync(V2_SPEC, 'utf8'));
    spec = parsed;
  }
  return spec;
}

let validate: ((name: string, body: unknown) => string[]) | undefined;

/**
 * A body validator for the spec's request schemas. Ajv 2020 reports every property of a valid body
 * as unevaluated when a top-level `if` does not match (shared/spec/README.md), so each top-level
 * `if`/`then` is checked apart: where the body passes `if`, it must pass `then`.
 */
function validator(): (name: string, body: unknown) => string[] {
  const doc = structuredClone(v2Spec());
  const schemas: Json = doc.components.schemas;
  const conditionals = new Set<string>();
  for (const [name, schema] of Object.entries(schemas)) {
    if (!schema.if) continue;
    schemas[`${name}.if`] = schema.if;
    schemas[`${name}.then`] = schema.then ?? {};
    delete schema.if;
    delete schema.then;
    conditionals.add(name);
  }
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: 'runpod-v2', components: doc.components });
  const compiled = (name: string) => ajv.getSchema(`runpod-v2#/components/schemas/${name}`) ?? ajv.compile({ $ref: `runpod-v2#/components/schemas/${name}` });
  return (name, body) => {
    const check = compiled(name);
    const problems = check(body) ? [] : (check.errors ?? []).map((e) => `${e.instancePath || '$'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    if (conditionals.has(name) && compiled(`${name}.if`)(body) && !compiled(`${name}.then`)(body)) problems.push(`$: the if/then of ${name}`);
    return problems;
  };
}

/** What runpod-v2.openapi.json rejects in a request body of schema `name`. */
export function specProblems(name: string, body: unknown): string[] {
  validate ??= validator();
  return validate(name, body);
}
