/**
 * `output_schema` of a task: the child's final answer must be JSON matching the schema,
 * validated by the same ajv validator as `generate_object`. A fenced ```json block
 * or the first JSON value in the text is accepted.
 */
import {
  compileSchema,
  formatViolations,
  InvalidSchemaError,
  type SchemaViolation,
} from '../generate-object/schema-validator.js';
import type { JsonSchema } from '../tools/json-schema.js';

/** The outcome of checking a child's answer. */
export type OutputCheck =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string; readonly violations: readonly SchemaViolation[] };

function candidates(text: string): string[] {
  const out: string[] = [];
  const fence = /```(?:json)?\s*\n([\s\S]*?)```/.exec(text);
  if (fence) out.push(fence[1]!.trim());
  out.push(text.trim());
  const start = text.search(/[[{]/);
  if (start >= 0) {
    const close = text[start] === '{' ? '}' : ']';
    const end = text.lastIndexOf(close);
    if (end > start) out.push(text.slice(start, end + 1));
  }
  return out;
}

/**
 * Why `schema` cannot check a task's answer (it does not compile), or `undefined` when it can:
 * checked before the child runs, so a bad schema never costs a sub-agent's work.
 */
export function outputSchemaProblem(schema: JsonSchema): string | undefined {
  try {
    compileSchema(schema);
    return undefined;
  } catch (e) {
    if (e instanceof InvalidSchemaError) return `is not a valid JSON Schema: ${e.message}`;
    throw e;
  }
}

/** Parses and validates `text` against `schema`. */
export function checkTaskOutput(text: string, schema: JsonSchema): OutputCheck {
  const validator = compileSchema(schema);
  for (const c of candidates(text)) {
    let value: unknown;
    try {
      value = JSON.parse(c);
    } catch {
      continue;
    }
    const violations = validator.validate(value);
    if (violations.length === 0) return { ok: true, value };
    return {
      ok: false,
      message: `the answer does not match output_schema:\n${formatViolations(violations)}`,
      violations,
    };
  }
  return {
    ok: false,
    message: 'the answer is not JSON; output_schema requires a JSON value',
    violations: [{ path: '', message: 'is not valid JSON' }],
  };
}

/** The system-prompt section that tells the child what shape to answer in. */
export function outputSchemaInstruction(schema: JsonSchema): string {
  return `# Output\nYour final answer must be only a JSON value matching this JSON Schema (no prose around it):\n${JSON.stringify(schema)}`;
}
