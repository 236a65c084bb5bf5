/**
 * Getting the JSON value out of model text (prompt and JSON modes) and accepting a streamed
 * value only when it is complete and valid, also from endpoints that never send a final event.
 */
import type { JsonSchema } from '../tools/json-schema.js';
import { compileSchema, formatViolations, type SchemaViolation } from './schema-validator.js';

/** The parsed value, or why there is none. */
export type Extracted =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: string };

const FENCE = /```(?:json|JSON)?[ \t]*\r?\n?([\s\S]*?)```/;

/**
 * The text where the JSON value starts: the whole text, the body of a ```json fence, or from the
 * first `{` / `[` (models often add a sentence before the value).
 */
export function jsonCandidate(text: string): string {
  const trimmed = text.trim();
  const fence = FENCE.exec(trimmed);
  if (fence) return fence[1]!.trim();
  const open = trimmed.startsWith('```') ? trimmed.replace(/^```(?:json|JSON)?\s*/, '') : trimmed;
  const first = open.search(/[{[]/);
  return first <= 0 ? open : open.slice(first);
}

/** Parses the JSON value in model text (strict JSON, trailing prose after the value tolerated). */
export function extractJson(text: string): Extracted {
  const candidate = jsonCandidate(text);
  if (candidate === '') return { ok: false, reason: 'the response contained no JSON value' };
  try {
    return { ok: true, value: JSON.parse(candidate) };
  } catch (e) {
    const end = Math.max(candidate.lastIndexOf('}'), candidate.lastIndexOf(']'));
    if (end > 0) {
      try {
        return { ok: true, value: JSON.parse(candidate.slice(0, end + 1)) };
      } catch {
        // fall through to the first error, which names the real position
      }
    }
    if (!/[{[]/.test(candidate)) return { ok: false, reason: 'the response contained no JSON value' };
    return { ok: false, reason: `the response is not valid JSON: ${(e as Error).message}` };
  }
}

/** A streamed value judged complete: either accepted, or rejected with the reason. */
export type StreamedValue =
  | { readonly complete: true; readonly value: unknown }
  | { readonly complete: false; readonly reason: string; readonly violations?: readonly SchemaViolation[] };

/**
 * Accepts streamed text only when it holds one complete JSON value that validates against
 * `schema`; never a prefix, even when the stream ended without a terminal event.
 */
export function completeStreamedValue(text: string, schema: JsonSchema): StreamedValue {
  const extracted = extractJson(text);
  if (!extracted.ok) return { complete: false, reason: extracted.reason };
  const violations = compileSchema(schema).validate(extracted.value);
  if (violations.length > 0)
    return {
      complete: false,
      reason: `the value does not match the schema:\n${formatViolations(violations)}`,
      violations,
    };
  return { complete: true, value: extracted.value };
}

/** True when {@link completeStreamedValue} accepts `text`. */
export function isCompleteStreamedValue(text: string, schema: JsonSchema): boolean {
  return completeStreamedValue(text, schema).complete;
}
