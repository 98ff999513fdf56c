import { toJSONSchema } from 'zod';
import type * as z from 'zod';
import { toSource } from '../js/body/text.js';
import type { V2Schema } from './runtime.js';

/**
 * What v2 accepts in a body, for the generated adapters to check: a v2 body schema of
 * src/map/schemas.ts through zod's JSON Schema, kept to the keywords the runtime checks. A keyword
 * the runtime does not know stops the generation, so a schema change cannot go unchecked.
 */

/** The bounds zod gives every `.int()` (±2^53−1): not v2 facts, left out of the generated file. */
const SAFE_INTEGER_BOUNDS = [Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function fail(where: string, what: string): never {
  throw new Error(`v2 body schema ${where}: ${what}`);
}

function text(value: unknown, where: string): string {
  return typeof value === 'string' ? value : fail(where, `expected a string, got ${JSON.stringify(value)}`);
}

function count(value: unknown, where: string): number {
  return typeof value === 'number' ? value : fail(where, `expected a number, got ${JSON.stringify(value)}`);
}

function texts(value: unknown, where: string): string[] {
  return Array.isArray(value) ? value.map((v) => text(v, where)) : fail(where, 'expected a list of strings');
}

function list(value: unknown, where: string): unknown[] {
  return Array.isArray(value) ? value : fail(where, 'expected a list');
}

function converted(json: unknown, where: string): V2Schema {
  if (!isRecord(json)) fail(where, 'not a schema object');
  const out: V2Schema = {};
  for (const [keyword, value] of Object.entries(json)) {
    const here = `${where} ${keyword}`;
    switch (keyword) {
      // JSON object keys are strings: propertyNames { type: 'string' } says nothing more.
      case '$schema':
      case 'propertyNames':
        break;
      case 'type':
        out.type = typeof value === 'string' ? value : texts(value, here);
        break;
      case 'enum':
        out.enum = list(value, here);
        break;
      case 'const':
        out.const = value;
        break;
      case 'minimum':
        if (!SAFE_INTEGER_BOUNDS.includes(count(value, here))) out.minimum = count(value, here);
        break;
      case 'maximum':
        if (!SAFE_INTEGER_BOUNDS.includes(count(value, here))) out.maximum = count(value, here);
        break;
      case 'minLength':
        out.minLength = count(value, here);
        break;
      case 'pattern':
        out.pattern = text(value, here);
        break;
      case 'minItems':
        out.minItems = count(value, here);
        break;
      case 'maxItems':
        out.maxItems = count(value, here);
        break;
      case 'items':
        out.items = converted(value, `${where}[]`);
        break;
      case 'properties':
        if (!isRecord(value)) fail(here, 'not an object');
        out.properties = Object.fromEntries(Object.entries(value).map(([key, s]) => [key, converted(s, `${where}.${key}`)]));
        break;
      case 'required':
        out.required = texts(value, here);
        break;
      case 'additionalProperties':
        out.additionalProperties = value === false ? false : converted(value, `${where}{}`);
        break;
      case 'oneOf':
        out.oneOf = list(value, here).map((s, i) => converted(s, `${where} oneOf[${i}]`));
        break;
      default:
        fail(here, 'the adapters do not check this keyword: teach src/adapters/runtime.ts and src/adapters/v2-schema.ts');
    }
  }
  return out;
}

/** The v2 body schema `name` as the adapters check it. */
export function v2Schema(name: string, schema: z.ZodType): V2Schema {
  return converted(toJSONSchema(schema, { io: 'output' }), name);
}

const WIDTH = 120;
const q = (value: unknown): string => toSource(value, "'");
const propertyName = (key: string): string => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : q(key));

/** A JSON value as source: on one line where it fits in WIDTH, else one member per line. */
function printed(value: unknown, indent: string): string {
  const inline = q(value);
  if (indent.length + inline.length <= WIDTH || (!isRecord(value) && !Array.isArray(value))) return inline;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((v) => `${inner}${printed(v, inner)},`).join('\n')}\n${indent}]`;
  return `{\n${Object.entries(value).map(([k, v]) => `${inner}${propertyName(k)}: ${printed(v, inner)},`).join('\n')}\n${indent}}`;
}

/** `const <name>: V2Schema = { … };`, a member per line where it does not fit on one. */
export function v2SchemaText(name: string, schema: V2Schema, ts: boolean): string {
  return `const ${name}${ts ? ': V2Schema' : ''} = ${printed(schema, '')};`;
}
