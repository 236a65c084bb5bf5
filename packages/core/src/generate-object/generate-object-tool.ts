/**
 * The `generate_object` tool: a thin adapter from tool arguments to
 * {@link generateObject}. It is registered only when a model is configured (the caller passes
 * the client, or a getter for the run's governed client). Partial objects stream to clients as
 * `tool_output_delta` text `{"object_partial": ...}` at most every 100 ms; a partial larger than
 * the event budget is sent as `{"object_partial": null, "object_partial_bytes": n}` instead.
 */
import type { LlmClient } from '../llm/llm-client.js';
import type { ToolContext } from '../tools/tool-context.js';
import { defineTool } from '../tools/define-tool.js';
import type { JsonValue } from '../tools/json-schema.js';
import type { Tool, ToolResult } from '../tools/tool.js';
import { generateObject, type GenerateObjectResult } from './generate-object.js';
import { getGenerateObjectInput, type GenerateObjectParams } from './params.js';
import toolJsonSchemas from '../tool-json-schemas.generated.json' with { type: 'json' };

/** The tool's name. */
export const GENERATE_OBJECT_TOOL_NAME = 'generate_object';

/** Options of {@link createGenerateObjectTool}. */
export interface GenerateObjectToolOptions {
  /** Largest partial snapshot sent whole, in UTF-8 bytes of its JSON (default 16,384). */
  readonly partialEventBudgetBytes?: number;
  /** Least time between two partial events, ms (default 100). */
  readonly partialIntervalMs?: number;
  /** Clock for the partial interval (default `Date.now`). */
  readonly now?: () => number;
}

const DESCRIPTION = [
  'Generate a JSON value that satisfies a JSON Schema, using the configured model.',
  'The result is returned only after it validates; invalid output is repaired automatically (max_repair_attempts).',
  'Output on success: {"object": <value>}.',
].join(' ');

/** The `tool_output_delta` text for one partial value. */
export function partialEventText(partial: JsonValue, budgetBytes: number): string {
  const json = JSON.stringify(partial);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > budgetBytes) return JSON.stringify({ object_partial: null, object_partial_bytes: bytes });
  return `{"object_partial":${json}}`;
}

/** The tool result of a generation: exit code 0 only with a validated value. */
export function toToolResult(
  result: GenerateObjectResult,
  params: Pick<GenerateObjectParams, 'include_raw_text' | 'schema_name'>,
): ToolResult {
  const metadata = {
    schema_name: params.schema_name,
    requested_mode: result.requestedMode,
    mode: result.mode,
    attempts: result.attempts,
    repairs: result.attempts - 1,
    usage: { input_tokens: result.usage.inputTokens, output_tokens: result.usage.outputTokens },
    ...(result.ok ? {} : { error_kind: result.errorKind }),
  };
  const raw = params.include_raw_text ? { raw_text: result.rawText } : {};
  if (result.ok) return { output: JSON.stringify({ object: result.object, ...raw }), exitCode: 0, metadata };
  const error = {
    kind: result.errorKind,
    message: result.message,
    ...(result.violations.length > 0 ? { validation_errors: result.violations } : {}),
    ...raw,
  };
  return { output: JSON.stringify({ error }), exitCode: 1, metadata };
}

/**
 * Builds the `generate_object` tool over `client` (or a getter of the call's context, so a session
 * hands it the run's governed LLM invoker at call time). A getter that returns `undefined` makes the call
 * fail with `no_model`.
 */
export function createGenerateObjectTool(
  client: LlmClient | ((ctx: ToolContext) => LlmClient | undefined),
  options: GenerateObjectToolOptions = {},
): Tool<GenerateObjectParams> {
  const budget = options.partialEventBudgetBytes ?? 16_384;
  if (!Number.isInteger(budget) || budget < 1)
    throw new RangeError(`partialEventBudgetBytes: must be a positive integer, got ${String(budget)}`);
  const getClient = typeof client === 'function' ? client : () => client;
  return defineTool({
    name: GENERATE_OBJECT_TOOL_NAME,
    description: DESCRIPTION,
    inputJsonSchema: toolJsonSchemas.generate_object,
    input: () => getGenerateObjectInput(),
    tier: 'read',
    capabilities: {
      readOnly: true,
      idempotent: false,
      resumable: true,
      cancelSafe: true,
      outputType: 'json',
      maxParallelism: 4,
    },
    // The generation deadline (timeout_ms, at most 600 s) is enforced inside; this is only a backstop.
    timeoutMs: 605_000,
    execute: async (args, ctx) => {
      const llm = getClient(ctx);
      if (llm === undefined) {
        const error = { kind: 'no_model', message: 'generate_object: no model is configured' };
        return { output: JSON.stringify({ error }), exitCode: 1, metadata: { error_kind: 'no_model' } };
      }
      const result = await generateObject(llm, args, {
        signal: ctx.signal,
        onPartial: (partial) => ctx.emitOutput(partialEventText(partial, budget)),
        partialIntervalMs: options.partialIntervalMs ?? 100,
        ...(options.now === undefined ? {} : { now: options.now }),
        workspace: ctx.workspace,
      });
      return toToolResult(result, args);
    },
  });
}
