/**
 * The format of a script of the scripted model: its zod schema (the judge, and the source of
 * every error message) and a zod-free reader of well-formed scripts, so that playing a script
 * back does not load zod. The reader returns what zod would (defaults applied) or `undefined`
 * when it is not sure, and then zod decides.
 */
import type { z } from 'zod';
import { lazyZod, type Zod } from '../tools/zod-loader.js';

function scriptSchemas(z: Zod) {
  // An unknown key's message lists the keys its object allows (the client adds the key to the path).
  const strict = <T extends z.core.$ZodLooseShape>(shape: T) =>
    z.strictObject(shape, {
      error: (iss) => (iss.code === 'unrecognized_keys' ? `allowed keys: ${Object.keys(shape).join(', ')}` : undefined),
    });
  const usageSchema = strict({ input_tokens: z.number().int().min(0), output_tokens: z.number().int().min(0) });
  const toolCallSchema = strict({
    id: z.string().min(1).optional(),
    name: z.string().min(1),
    args: z.record(z.string(), z.unknown()).default({}),
  });
  const turnSchema = strict({
    text: z.string().optional(),
    reasoning: z.string().optional(),
    tool_calls: z.array(toolCallSchema).optional(),
    question: strict({
      question: z.string().min(1),
      context: z.string().optional(),
      options: z.array(strict({ label: z.string().min(1), description: z.string().optional() })).default([]),
      allow_free_text: z.boolean().optional(),
      multi_select: z.boolean().optional(),
    }).optional(),
    error: strict({
      kind: z.enum(['transport', 'rate_limited', 'timeout', 'status', 'invalid_response']),
      message: z.string().optional(),
      status: z.number().int().optional(),
      retry_after_ms: z.number().int().min(0).optional(),
    }).optional(),
    delay_ms: z.number().int().min(0).max(600_000).optional(),
    usage: usageSchema.optional(),
    finish: z.enum(['stop', 'tool_calls', 'length', 'content_filter', 'other']).optional(),
  });
  const scriptSchema = strict({ model: z.string().optional(), turns: z.array(turnSchema) });
  return { turnSchema, scriptSchema };
}

/** The zod schemas of a script, built (and zod loaded) on the first call. */
export const getScriptSchemas = lazyZod(scriptSchemas);

/** One scripted provider response. */
export type ScriptedTurn = z.input<ReturnType<typeof scriptSchemas>['turnSchema']>;
/** A whole script: `{ turns: [...] }`. */
export type LlmScript = z.input<ReturnType<typeof scriptSchemas>['scriptSchema']>;

/** One turn as the client plays it (zod's output: `args` and `options` defaulted). */
export type ParsedTurn = z.output<ReturnType<typeof scriptSchemas>['turnSchema']>;
/** A script as the client plays it. */
export type ParsedScript = z.output<ReturnType<typeof scriptSchemas>['scriptSchema']>;

type Fields = Record<string, unknown>;

/** A plain object (`{}` or `Object.create(null)`) with string keys only, all among `allowed`. */
function plain(v: unknown, allowed: readonly string[]): v is Fields {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  const keys = Reflect.ownKeys(v);
  return keys.every((k) => typeof k === 'string' && allowed.includes(k) && Object.hasOwn(v, k));
}

const str = (v: unknown): v is string | undefined => v === undefined || typeof v === 'string';
const word = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const bool = (v: unknown): v is boolean | undefined => v === undefined || typeof v === 'boolean';
const count = (v: unknown, max = Number.MAX_SAFE_INTEGER): v is number | undefined =>
  v === undefined || (Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= max);

/** `fields` without its `undefined` values. */
function defined(fields: Fields): Fields {
  const out: Fields = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v;
  return out;
}

/** Each item of `v` read by `item`, or `undefined` when `v` is not an array or an item is not sure. */
function list<T>(v: unknown, item: (x: unknown) => T | undefined): T[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: T[] = [];
  for (let i = 0; i < v.length; i++) {
    const x = item(v[i]);
    if (x === undefined) return undefined;
    out.push(x);
  }
  return out;
}

function toolCall(v: unknown): Fields | undefined {
  if (!plain(v, ['id', 'name', 'args'])) return undefined;
  if (!(v.id === undefined || word(v.id)) || !word(v.name)) return undefined;
  // zod's default fills only a missing `args`: `null` is refused, as zod refuses it.
  const args = v.args === undefined ? {} : v.args;
  if (typeof args !== 'object' || args === null) return undefined;
  if (!plain(args, Object.keys(args)) || Object.hasOwn(args, '__proto__')) return undefined;
  return defined({ id: v.id, name: v.name, args: { ...args } });
}

function option(v: unknown): Fields | undefined {
  if (!plain(v, ['label', 'description']) || !word(v.label) || !str(v.description)) return undefined;
  return defined({ label: v.label, description: v.description });
}

function question(v: unknown): Fields | undefined {
  const keys = ['question', 'context', 'options', 'allow_free_text', 'multi_select'];
  if (!plain(v, keys) || !word(v.question) || !str(v.context)) return undefined;
  if (!bool(v.allow_free_text) || !bool(v.multi_select)) return undefined;
  const options = v.options === undefined ? [] : list(v.options, option);
  if (options === undefined) return undefined;
  return defined({ ...v, options });
}

const ERROR_KINDS = ['transport', 'rate_limited', 'timeout', 'status', 'invalid_response'];
const FINISH = ['stop', 'tool_calls', 'length', 'content_filter', 'other'];
const TURN_KEYS = ['text', 'reasoning', 'tool_calls', 'question', 'error', 'delay_ms', 'usage', 'finish'];

function scriptError(v: unknown): Fields | undefined {
  if (!plain(v, ['kind', 'message', 'status', 'retry_after_ms'])) return undefined;
  if (!ERROR_KINDS.includes(v.kind as string) || !str(v.message) || !count(v.retry_after_ms)) return undefined;
  if (!(v.status === undefined || Number.isSafeInteger(v.status))) return undefined;
  return defined({ ...v });
}

function turn(v: unknown): ParsedTurn | undefined {
  if (!plain(v, TURN_KEYS) || !str(v.text) || !str(v.reasoning) || !count(v.delay_ms, 600_000)) return undefined;
  if (!(v.finish === undefined || FINISH.includes(v.finish as string))) return undefined;
  const usage = v.usage;
  if (
    usage !== undefined &&
    !(
      plain(usage, ['input_tokens', 'output_tokens']) &&
      usage.input_tokens !== undefined &&
      usage.output_tokens !== undefined &&
      count(usage.input_tokens) &&
      count(usage.output_tokens)
    )
  )
    return undefined;
  const calls = v.tool_calls === undefined ? undefined : list(v.tool_calls, toolCall);
  const q = v.question === undefined ? undefined : question(v.question);
  const error = v.error === undefined ? undefined : scriptError(v.error);
  if (calls === undefined && v.tool_calls !== undefined) return undefined;
  if ((q === undefined && v.question !== undefined) || (error === undefined && v.error !== undefined)) return undefined;
  const out = defined({
    ...v,
    tool_calls: calls,
    question: q,
    error,
    usage: usage === undefined ? undefined : { ...usage },
  });
  return out as ParsedTurn;
}

/**
 * `raw` read as a script without zod: what `getScriptSchemas().scriptSchema.parse(raw)` returns, or
 * `undefined` when the reader is not sure the script is valid (zod then decides).
 */
export function parseScriptWithoutZod(raw: unknown): ParsedScript | undefined {
  if (!plain(raw, ['model', 'turns']) || !str(raw.model)) return undefined;
  const turns = list(raw.turns, turn);
  if (turns === undefined) return undefined;
  return raw.model === undefined ? { turns } : { model: raw.model, turns };
}
