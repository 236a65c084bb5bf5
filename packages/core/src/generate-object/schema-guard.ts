/**
 * Guards for JSON Schemas a model or a caller writes (`generate_object`, a task's
 * `output_schema`, a workflow's generation step): checks of the schema's shape before ajv sees
 * it, and a time bound on each validation. A schema that nests without end, or whose `$ref`s
 * lead back to themselves without descending into the value (`{ "$ref": "#" }`), would overflow
 * the stack; one whose branches multiply (`anyOf` of `$ref`s, chained) would stall the process
 * on one badly typed value; both are refused with a reason instead. A `pattern` written to
 * backtrack (`^(a+)+$`) on a long string is stopped by the time bound.
 */
import { createContext, Script, type Context } from 'node:vm';
import { schemaCostProblem } from '../tools/schema-cost.js';

/** JSON nesting (objects and arrays) a schema may have: about 100 levels of subschemas. */
export const MAX_SCHEMA_NESTING = 200;

/** How long one validation may take before it is stopped, in milliseconds. */
export const VALIDATION_TIME_LIMIT_MS = 1_000;

/** The first place `schema` nests deeper than {@link MAX_SCHEMA_NESTING}, as a reason, or `undefined`. */
function nestingProblem(schema: unknown): string | undefined {
  const stack: [unknown, string, number][] = [[schema, '#', 1]];
  while (stack.length > 0) {
    const [value, pointer, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_SCHEMA_NESTING)
      return `nests deeper than ${MAX_SCHEMA_NESTING} levels (at ${pointer.slice(0, 200)}…)`;
    if (Array.isArray(value)) for (const [i, v] of value.entries()) stack.push([v, `${pointer}/${i}`, depth + 1]);
    else
      for (const [k, v] of Object.entries(value))
        stack.push([v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1]);
  }
  return undefined;
}

/**
 * Why `schema` cannot be validated safely, or `undefined`: nesting past
 * {@link MAX_SCHEMA_NESTING}, `$ref`s that lead back to where they started without descending
 * into the value (a recursive schema through `properties` or `items` is fine), or a validation
 * cost that could run away ({@link schemaCostProblem}: branches that multiply).
 */
export function schemaShapeProblem(schema: unknown): string | undefined {
  return nestingProblem(schema) ?? schemaCostProblem(schema);
}

let context: Context | undefined;
let script: Script | undefined;

/** The validation ran past {@link VALIDATION_TIME_LIMIT_MS} and was stopped. */
export class ValidationTimeout extends Error {}

/**
 * Runs `fn` and returns its result, stopping it after `limitMs` (a backtracking regular
 * expression cannot be interrupted any other way).
 * @throws ValidationTimeout when stopped.
 */
export function runBounded<T>(fn: () => T, limitMs: number = VALIDATION_TIME_LIMIT_MS): T {
  context ??= createContext(Object.create(null) as object);
  script ??= new Script('run()');
  const ctx = context as { run?: () => T };
  const previous = ctx.run;
  ctx.run = fn;
  try {
    return script.runInContext(context, { timeout: limitMs }) as T;
  } catch (e) {
    if ((e as { code?: unknown })?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new ValidationTimeout();
    throw e;
  } finally {
    ctx.run = previous;
  }
}
