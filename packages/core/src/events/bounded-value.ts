/**
 * Bounded copies of values for events. An event is a live view, not the record: the full
 * arguments and metadata stay in the fact log, while events carry a preview of bounded size, so a
 * 300 KB `write` does not become a 300 KB `tool_start`. Small values pass through unchanged.
 */
import { copyWithin, jsonChars, NOT_COPIED } from './json-measure.js';
import { plainCopy } from './plain-copy.js';

/** Largest serialized tool arguments an event carries whole, in UTF-16 code units of JSON. */
export const EVENT_ARGS_MAX_CHARS = 16 * 1024;

/** Largest serialized tool metadata a `tool_end` carries whole, in UTF-16 code units of JSON. */
export const EVENT_METADATA_MAX_CHARS = 64 * 1024;

/** JSON length up to which a value is measured exactly; past it, measuring stops (a 4 MB call costs no more than 1 MiB). */
export const EVENT_MEASURE_MAX_CHARS = 1024 * 1024;
/** Values (strings, numbers, objects, ...) a value is measured through at most, beyond those the cap needs. */
const MEASURE_MAX_VALUES = 16 * 1024;

/** Longest string kept whole inside a shortened value; longer ones keep their head. */
const STRING_PREVIEW_CHARS = 1024;
/** Array items kept inside a shortened value. */
const ARRAY_PREVIEW_ITEMS = 64;
/** Object keys kept inside a shortened value. */
const OBJECT_PREVIEW_KEYS = 256;
/** Nesting kept inside a shortened value. */
const MAX_DEPTH = 8;

/** A value as an event carries it. */
export interface BoundedValue {
  readonly value: unknown;
  /** True when `value` is a shortened preview of the original. */
  readonly truncated: boolean;
  /** Length of the original's JSON, in UTF-16 code units; for one past {@link EVENT_MEASURE_MAX_CHARS} (or of very many values), a lower bound above the cap. */
  readonly chars: number;
}

/**
 * `value` unchanged when its JSON fits `maxChars`; otherwise a preview of the same shape (long
 * strings cut to their head with a `… [n chars]` note, long arrays cut, deep nesting elided),
 * and when even that is too large, `{ preview: <the JSON's head> }`.
 */
export function boundedValue(value: unknown, maxChars: number): BoundedValue {
  const measured = jsonChars(value, Math.max(maxChars, EVENT_MEASURE_MAX_CHARS), maxChars + MEASURE_MAX_VALUES);
  if (measured === undefined) return boundedByJson(value, maxChars);
  const { chars, complete } = measured;
  if (chars <= maxChars) return { value, truncated: false, chars };
  const shortened = shorten(value, 0);
  const shortJson = safeJson(shortened);
  if (shortJson.length <= maxChars) return { value: shortened, truncated: true, chars };
  // The head of the whole JSON when it was measured whole, else of the shortened one's.
  const head = complete ? (jsonOf(value) ?? shortJson) : shortJson;
  return { value: jsonHead(head, maxChars), truncated: true, chars };
}

/** {@link boundedValue} for what is not plain JSON data: measured by serialising it. */
function boundedByJson(value: unknown, maxChars: number): BoundedValue {
  const json = jsonOf(value);
  // No JSON at all (a cycle, a BigInt, nesting too deep): the event carries what can be printed.
  if (json === undefined) {
    const printed = printable(value);
    return { value: { preview: printed.slice(0, maxChars) }, truncated: true, chars: printed.length };
  }
  if (json.length <= maxChars) return { value, truncated: false, chars: json.length };
  const shortened = shorten(value, 0);
  const shortJson = safeJson(shortened);
  if (shortJson.length <= maxChars) return { value: shortened, truncated: true, chars: json.length };
  return { value: jsonHead(json, maxChars), truncated: true, chars: json.length };
}

/** `{ preview }` holding as much of the head of `json` as fits `maxChars` once serialized (escapes count). */
function jsonHead(json: string, maxChars: number): { readonly preview: string } {
  let n = Math.max(0, maxChars - 16);
  for (;;) {
    const value = { preview: `${json.slice(0, n)}…` };
    const over = JSON.stringify(value).length - maxChars;
    if (over <= 0 || n === 0) return value;
    n = Math.max(0, n - over);
  }
}

function shorten(value: unknown, depth: number): unknown {
  if (typeof value === 'string')
    return value.length <= STRING_PREVIEW_CHARS
      ? value
      : `${value.slice(0, STRING_PREVIEW_CHARS)}… [${value.length} chars]`;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) {
    const kept = value.slice(0, ARRAY_PREVIEW_ITEMS).map((v) => shorten(v, depth + 1));
    return value.length > ARRAY_PREVIEW_ITEMS
      ? [...kept, `… [${value.length - ARRAY_PREVIEW_ITEMS} more items]`]
      : kept;
  }
  const out: Record<string, unknown> = {};
  let keys = 0;
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    if (++keys > OBJECT_PREVIEW_KEYS) {
      out['…'] = '[more keys]';
      break;
    }
    const v = (value as Record<string, unknown>)[k];
    // A `__proto__` key (the model's, from JSON) stays a key: assigned, it would set the prototype.
    if (k === '__proto__')
      Object.defineProperty(out, k, {
        value: shorten(v, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[k] = shorten(v, depth + 1);
  }
  return out;
}

/** The JSON of `value` (`''` for what JSON leaves out), or `undefined` when it has none. */
function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return undefined;
  }
}

function safeJson(value: unknown): string {
  return jsonOf(value) ?? printable(value);
}

/** `value` as text, even when nested too deep to print (`String` of a deep array overflows too). */
function printable(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '[a value nested too deep to show]';
  }
}

/**
 * Event fields for tool arguments: `args` (bounded, and a copy: a host changing an event's `args`
 * never changes the call, nor the fact that records it), and `args_truncated`/`args_chars` when
 * it is a preview.
 */
export function eventArgs(args: unknown): {
  readonly args: unknown;
  readonly args_truncated?: true;
  readonly args_chars?: number;
} {
  // Most arguments fit: measured and copied in one walk.
  const copy = copyWithin(args, EVENT_ARGS_MAX_CHARS);
  if (copy !== NOT_COPIED) return { args: copy };
  const b = boundedValue(args, EVENT_ARGS_MAX_CHARS);
  return b.truncated ? { args: b.value, args_truncated: true, args_chars: b.chars } : { args: plainCopy(args) };
}
