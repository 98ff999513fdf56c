import { toJSONSchema } from 'zod';
import type * as z from 'zod';
import { toSource } from '../js/body/text.js';

/**
 * TypeScript types for the v2 bodies, printed from the zod schemas of src/map/schemas.ts through
 * their JSON Schema. Cross-field rules (exactly one of gpu/cpu, …) are refinements and have no type;
 * the adapter's output passes them by construction or the adapter throws.
 */
interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
}

const literal = (value: unknown): string => toSource(value, "'");
const propertyName = (key: string): string => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : literal(key));

function union(parts: string[]): string {
  return [...new Set(parts)].join(' | ');
}

function typeOf(schema: JsonSchema): string {
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return union(alternatives.map((s) => typeOf(s)));
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.enum) return union(schema.enum.map(literal));
  if (Array.isArray(schema.type)) return union(schema.type.map((type) => typeOf({ ...schema, type })));
  switch (schema.type) {
    case 'string':
    case 'boolean':
    case 'null':
      return schema.type;
    case 'number':
    case 'integer':
      return 'number';
    case 'array': {
      if (!schema.items) throw new Error('an array schema without items');
      const item = typeOf(schema.items);
      return item.includes(' | ') ? `Array<${item}>` : `${item}[]`;
    }
    case 'object':
      return objectType(schema);
    default:
      throw new Error(`no TypeScript type for the JSON Schema ${JSON.stringify(schema)}`);
  }
}

function objectType(schema: JsonSchema): string {
  const required = new Set(schema.required ?? []);
  const members = Object.entries(schema.properties ?? {}).map(([key, s]) => `${propertyName(key)}${required.has(key) ? '' : '?'}: ${typeOf(s)}`);
  if (typeof schema.additionalProperties === 'object') members.push(`[key: string]: ${typeOf(schema.additionalProperties)}`);
  return members.length ? `{ ${members.join('; ')} }` : 'Record<string, never>';
}

/** `export type <name> = { … };` with one top-level property per line. */
export function typeDeclaration(name: string, schema: z.ZodType): string {
  const json = toJSONSchema(schema, { io: 'output' }) as JsonSchema;
  if (json.type !== 'object' || !json.properties) throw new Error(`${name}: a v2 body schema must be an object`);
  const required = new Set(json.required ?? []);
  const lines = Object.entries(json.properties).map(([key, s]) => `  ${propertyName(key)}${required.has(key) ? '' : '?'}: ${typeOf(s)};`);
  return `export type ${name} = {\n${lines.join('\n')}\n};`;
}
