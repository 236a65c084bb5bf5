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
const FENCES = /```([A-Za-z]*)[ \t]*\r?\n?([\s\S]*?)```/g;
const NO_JSON: Extracted = { ok: false, reason: 'the response contained no JSON value' };

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

/**
 * Parses the JSON value in model text: the whole text, else the first fenced block that holds one
 * (a ```json fence before an untagged one), else the first bracketed span of the text that is one
 * whole JSON value. Prose before and after the value is tolerated, brackets in it included; a
 * value nested inside an unfinished or invalid outer one is never taken for the answer.
 */
export function extractJson(text: string): Extracted {
  const trimmed = text.trim();
  if (trimmed === '') return NO_JSON;
  const whole = parsed(trimmed);
  if (whole.ok) return whole;
  const fences = [...trimmed.matchAll(FENCES)].sort((a, b) => jsonTag(b[1]!) - jsonTag(a[1]!));
  for (const fence of fences) {
    const value = firstValue(fence[2]!.trim());
    if (value !== undefined) return value;
  }
  const open = trimmed.startsWith('```') ? trimmed.replace(/^```(?:json|JSON)?\s*/, '') : trimmed;
  const value = firstValue(open);
  if (value !== undefined) return value;
  const candidate = jsonCandidate(text);
  if (!/[{[]/.test(candidate)) return NO_JSON;
  const first = parsed(candidate);
  return first.ok ? first : { ok: false, reason: `the response is not valid JSON: ${first.reason}` };
}

function jsonTag(tag: string): number {
  return tag.toLowerCase() === 'json' ? 1 : 0;
}

function parsed(text: string): Extracted {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
}

/**
 * The first bracketed span of `text` that parses as JSON. A span that closes but does not parse
 * (prose such as `[the]`) is skipped whole; a span that never closes ends the search, so a
 * value cut short is never replaced by a complete value nested inside it.
 */
function firstValue(text: string): Extracted | undefined {
  let from = 0;
  for (;;) {
    const start = text.slice(from).search(/[{[]/);
    if (start === -1) return undefined;
    const at = from + start;
    const end = spanEnd(text, at);
    if (end === undefined) return undefined;
    const value = parsed(text.slice(at, end));
    if (value.ok) return value;
    from = end;
  }
}

/** The index just past the bracket that closes the one at `start`, or `undefined` when none does. */
function spanEnd(text: string, start: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
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
