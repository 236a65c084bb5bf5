/**
 * Plain input schemas: zod schemas whose parse, on arguments that already passed their JSON
 * Schema, only copies the known fields and fills in defaults. A tool defined with one
 * (`defineTool({ plainInput: true })`) is called without loading zod: `parsePlainArgs`
 * does that copy from the JSON Schema alone, and hands anything it is not sure of back to zod.
 */
import type { z } from 'zod';
import { isJsonValue } from './plain-schema.js';

/** zod's internal definition of a schema node (zod 4), as far as it is read here. */
interface ZodDef {
  readonly type: string;
  readonly checks?: readonly {
    readonly _zod: { readonly def: { readonly check: string; readonly format?: string; readonly pattern?: RegExp } };
  }[];
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly catchall?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly keyType?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly values?: readonly unknown[];
  readonly defaultValue?: unknown;
}

const defOf = (schema: z.ZodType): ZodDef => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

/** Checks whose meaning JSON Schema carries exactly (string lengths are re-checked in UTF-16 units). */
const PLAIN_CHECKS = new Set([
  'min_length',
  'max_length',
  'length_equals',
  'greater_than',
  'less_than',
  'multiple_of',
  'number_format',
]);

/**
 * Why `schema` is not plain (the first node that is not), or `undefined` when it is: objects
 * (stripping or strict), records with string keys, arrays, strings, numbers, booleans, enums,
 * literals, `unknown`, `optional`,
 * `nullable` and `default` (of a JSON value), with only length, range, multiple and integer checks
 * and regexes without flags.
 * No transform, pipe, refinement, format, union, tuple or catch-all.
 */
export function whyNotPlain(schema: z.ZodType, path = 'args'): string | undefined {
  const def = defOf(schema);
  for (const c of def.checks ?? []) {
    const { check, format, pattern } = c._zod.def;
    // A regex without flags is JSON Schema's `pattern`; other formats (email, url, …) differ between validators.
    if (check === 'string_format' && format === 'regex' && pattern instanceof RegExp && pattern.flags === '') continue;
    if (!PLAIN_CHECKS.has(check)) return `${path}: check '${check}'`;
  }
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
      return undefined;
    case 'enum':
      return undefined;
    case 'literal':
      return (def.values ?? []).every((v) => isJsonValue(v))
        ? undefined
        : `${path}: a literal that is not a JSON value`;
    case 'optional':
    case 'nullable':
      return def.innerType === undefined ? `${path}: ${def.type} without a type` : whyNotPlain(def.innerType, path);
    case 'default':
      if (!isJsonValue(def.defaultValue)) return `${path}: a default that is not a JSON value`;
      return def.innerType === undefined ? `${path}: default without a type` : whyNotPlain(def.innerType, path);
    case 'unknown':
    case 'any':
      return undefined;
    case 'record': {
      if (def.keyType === undefined || def.valueType === undefined) return `${path}: a record without types`;
      const key = defOf(def.keyType);
      if (key.type !== 'string' || (key.checks ?? []).length > 0)
        return `${path}: a record whose keys are not plain strings`;
      return whyNotPlain(def.valueType, `${path}{}`);
    }
    case 'array':
      return def.element === undefined ? `${path}: array without items` : whyNotPlain(def.element, `${path}[]`);
    case 'object': {
      if (def.catchall !== undefined && defOf(def.catchall).type !== 'never') return `${path}: a catch-all`;
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const why = whyNotPlain(field, `${path}.${key}`);
        if (why !== undefined) return why;
      }
      return undefined;
    }
    default:
      return `${path}: a ${def.type}`;
  }
}
