/**
 * A model's tool call whose argument text is not one JSON object (truncated, not JSON, an array,
 * a number JSON cannot hold such as `1e400`). The call is not dropped and the run does not fail:
 * it is recorded with arguments that say what was wrong (the only key {@link MALFORMED_ARGS_KEY}),
 * and the kernel answers it with `INVALID_TOOL_ARGS`, so the model sees why and can send it again.
 * The record is in the fact log, so a resumed or replayed run answers it the same way.
 */

/** The only key of the arguments recorded for a call whose argument text did not parse. */
export const MALFORMED_ARGS_KEY = '$malformed_arguments';

/** Characters of the original text kept in the record. */
const KEPT_TEXT_CHARS = 2000;

/** What {@link malformedToolArgs} records. */
export interface MalformedToolArgs {
  /** Why the text is not one JSON object. */
  readonly problem: string;
  /** The start of the text as the model sent it. */
  readonly text: string;
}

/** The arguments recorded for a call whose argument `text` is not one JSON object, and why. */
export function malformedToolArgs(problem: string, text: string): Record<string, unknown> {
  const kept = text.length > KEPT_TEXT_CHARS ? `${text.slice(0, KEPT_TEXT_CHARS)}…` : text;
  return { [MALFORMED_ARGS_KEY]: { problem, text: kept } };
}

/** The record of {@link malformedToolArgs} when `args` are one, otherwise `undefined`. */
export function malformedArgsOf(args: unknown): MalformedToolArgs | undefined {
  if (typeof args !== 'object' || args === null || !Object.hasOwn(args, MALFORMED_ARGS_KEY)) return undefined;
  const r = (args as Record<string, unknown>)[MALFORMED_ARGS_KEY];
  const problem = typeof r === 'object' && r !== null ? (r as { problem?: unknown }).problem : undefined;
  const text = typeof r === 'object' && r !== null ? (r as { text?: unknown }).text : undefined;
  return {
    problem: typeof problem === 'string' ? problem : 'the arguments were not one JSON object',
    text: typeof text === 'string' ? text : '',
  };
}

/**
 * A tool call's argument text as arguments: the object it holds (`''` is no arguments), or the
 * {@link malformedToolArgs} record when it is not one JSON object whose numbers are all finite and
 * whose nesting is at most {@link MAX_TOOL_ARGS_DEPTH} levels.
 */
export function parseToolArgsText(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    // No reviver: reviving is recursive and overflows the stack on deep nesting, which the parse itself does not.
    value = JSON.parse(text);
  } catch (e) {
    return malformedToolArgs(`not valid JSON (${(e as Error).message})`, text);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return malformedToolArgs('not a JSON object', text);
  if (tooDeep(value, 0)) return malformedToolArgs(TOO_DEEP, text);
  if (!allFinite(value)) return malformedToolArgs(TOO_LARGE, text);
  return value as Record<string, unknown>;
}

/** Levels of nesting the arguments may have (the fact log holds values nested up to 256 levels, the call's record among them). */
export const MAX_TOOL_ARGS_DEPTH = 200;

const TOO_LARGE = 'a number is too large for JSON (it would be Infinity)';
const TOO_DEEP = `the arguments are nested deeper than ${MAX_TOOL_ARGS_DEPTH} levels`;

/** True when every number in `v` is finite (JSON can hold it); stops looking below the depth limit. */
function allFinite(v: unknown, depth = 0): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v !== 'object' || v === null) return true;
  if (depth > MAX_TOOL_ARGS_DEPTH) return true; // too deep: reported as such
  return Object.values(v).every((x) => allFinite(x, depth + 1));
}

/** True when `v` holds an object or array nested more than {@link MAX_TOOL_ARGS_DEPTH} levels below it. */
function tooDeep(v: unknown, depth: number): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (depth > MAX_TOOL_ARGS_DEPTH) return true;
  for (const x of Object.values(v)) if (tooDeep(x, depth + 1)) return true;
  return false;
}

/**
 * A tool call's arguments a provider gave as an already-parsed value: the object itself, or the
 * {@link malformedToolArgs} record when it is not an object, holds a number JSON cannot carry or
 * is nested deeper than {@link MAX_TOOL_ARGS_DEPTH} levels.
 */
export function toolArgsFromValue(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const text = value === undefined ? '' : (JSON.stringify(value) ?? String(value));
    return malformedToolArgs('not a JSON object', text);
  }
  if (tooDeep(value, 0)) return malformedToolArgs(TOO_DEEP, '');
  if (!allFinite(value)) return malformedToolArgs(TOO_LARGE, '');
  return value as Record<string, unknown>;
}
