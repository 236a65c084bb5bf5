/**
 * JSON Schema validation for `generate_object`: ajv's draft 2020-12 validator with
 * formats, covering objects, arrays, `enum`, `const`, `allOf`/`anyOf`/`oneOf`/`not` and local
 * `$ref` (`#/$defs/...` and draft-07 `#/definitions/...`). Compiled validators are cached by the
 * schema's canonical text (ajv's own cache is by object identity), bounded in size.
 */
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { A3sError } from '@a3s-code/effect';
import type { JsonSchema } from '../tools/json-schema.js';
import { newAjv2020 } from '../invoker/ajv-loader.js';
import { runBounded, schemaShapeProblem, VALIDATION_TIME_LIMIT_MS, ValidationTimeout } from './schema-guard.js';

/** One reason a value does not match the schema. */
export interface SchemaViolation {
  /** JSON Pointer of the offending value (`''` for the root, `/items/0/name`). */
  readonly path: string;
  /** What is wrong and what is allowed, e.g. `must be equal to one of the allowed values: a, b`. */
  readonly message: string;
}

/** A compiled schema. */
export interface SchemaValidator {
  /** Validates a value; returns the violations (empty when valid). */
  validate(value: unknown): readonly SchemaViolation[];
}

/** The schema itself cannot be compiled (bad keyword value, unresolvable `$ref`). */
export class InvalidSchemaError extends A3sError {
  constructor(problem: string) {
    super('INVALID_SCHEMA', problem, { details: { problem } });
  }
}

const MAX_CACHED = 256;
let shared: Ajv2020 | undefined;
/**
 * The shared instance, built (and ajv loaded) on the first compile. `inlineRefs: false`: a `$ref`
 * is a call, never a copy of its target, so compiling takes time in proportion to the schema.
 */
const ajv = (): Ajv2020 =>
  (shared ??= newAjv2020({ strict: false, allErrors: true, validateFormats: true, inlineRefs: false }));
const cache = new Map<string, { schema: object; fn: ValidateFunction }>();

/** Canonical JSON text: object keys sorted, so equal schemas share one compiled validator. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/**
 * Compiles (or reuses) the validator of `schema`. Each validation is stopped after
 * {@link VALIDATION_TIME_LIMIT_MS} (a backtracking `pattern`) and fails with {@link InvalidSchemaError}.
 * @throws InvalidSchemaError for a schema ajv refuses, one nested too deep, `$ref`s that loop on the same value,
 *   or one too costly to check (`schemaCostProblem`).
 */
export function compileSchema(schema: JsonSchema): SchemaValidator {
  const problem = schemaShapeProblem(schema);
  if (problem !== undefined) throw new InvalidSchemaError(`the schema ${problem}`);
  const key = canonicalJson(schema);
  let entry = cache.get(key);
  if (entry === undefined) {
    // A root `$schema` naming draft-07 and a root `$id` would make ajv look up or register
    // documents by URI; local references need neither.
    const { $schema: _dialect, $id: _id, ...body } = schema as Record<string, unknown>;
    let fn: ValidateFunction;
    try {
      fn = ajv().compile(body);
    } catch (e) {
      throw new InvalidSchemaError((e as Error).message);
    }
    entry = { schema: body, fn };
    cache.set(key, entry);
    if (cache.size > MAX_CACHED) {
      const [oldKey, old] = cache.entries().next().value as [string, { schema: object }];
      cache.delete(oldKey);
      ajv().removeSchema(old.schema);
    }
  } else {
    cache.delete(key);
    cache.set(key, entry); // most recently used last
  }
  const fn = entry.fn;
  return {
    validate(value: unknown): readonly SchemaViolation[] {
      let valid: boolean;
      try {
        valid = runBounded(() => fn(value) === true);
      } catch (e) {
        if (e instanceof ValidationTimeout)
          throw new InvalidSchemaError(
            `checking a value against the schema took longer than ${VALIDATION_TIME_LIMIT_MS} ms and was stopped; a pattern that backtracks (like ^(a+)+$) is the usual cause: use simpler patterns`,
          );
        if ((e as { name?: unknown })?.name === 'RangeError')
          throw new InvalidSchemaError(
            `checking a value against the schema overflowed the stack: ${(e as Error).message}`,
          );
        throw e;
      }
      if (valid) return [];
      return (fn.errors ?? []).map(violation);
    },
  };
}

function violation(e: ErrorObject): SchemaViolation {
  const params = e.params as Record<string, unknown>;
  let message = e.message ?? 'is invalid';
  if (e.keyword === 'enum' && Array.isArray(params.allowedValues))
    message += `: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  if (e.keyword === 'const') message += `: ${JSON.stringify(params.allowedValue)}`;
  if (e.keyword === 'additionalProperties') message += `: '${String(params.additionalProperty)}'`;
  return { path: e.instancePath, message };
}

/** Formats violations for a repair prompt or an error message, one per line. */
export function formatViolations(violations: readonly SchemaViolation[]): string {
  return violations.map((v) => `- ${v.path === '' ? '(root)' : v.path}: ${v.message}`).join('\n');
}
