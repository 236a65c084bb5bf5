/**
 * Mode resolution and the provider request of each resolved mode. The caller's
 * schema reaches the provider only through documented channels: as the synthesised tool's
 * parameters (tool), as `response_format.json_schema` (strict), or as prompt text (json, prompt);
 * it is never added to the request as an extra field.
 */
import type { LlmCapabilities, LlmMessage, LlmRequest, LlmToolSpec } from '../llm/llm-client.js';
import type { JsonSchema } from '../tools/json-schema.js';
import type { GenerateObjectMode, GenerateObjectParams } from './params.js';

/** A mode after capability resolution. */
export type ResolvedMode = 'tool' | 'strict' | 'json' | 'prompt';

/**
 * Resolves the requested mode against what the client supports: `auto` and `tool` use a forced
 * tool call, else the prompt; `strict` and `json` use the native format, else a forced tool
 * call, else the prompt.
 */
export function resolveMode(requested: GenerateObjectMode, caps: LlmCapabilities): ResolvedMode {
  const toolOrPrompt: ResolvedMode = caps.forcedToolChoice ? 'tool' : 'prompt';
  switch (requested) {
    case 'auto':
    case 'tool':
      return toolOrPrompt;
    case 'strict':
      return caps.strictJsonSchema ? 'strict' : toolOrPrompt;
    case 'json':
      return caps.jsonMode ? 'json' : toolOrPrompt;
    case 'prompt':
      return 'prompt';
  }
}

/** How the value is carried in tool mode: the schema itself, or wrapped as `{ value }` when its root is not an object. */
export interface ToolShape {
  readonly inputSchema: JsonSchema;
  readonly wrapped: boolean;
}

/** The synthesised tool's parameter schema. Local `$defs`/`definitions` move to the wrapper's root so `$ref`s still resolve. */
export function toolShape(schema: JsonSchema): ToolShape {
  const isObjectRoot = schema.type === 'object' || (schema.type === undefined && typeof schema.properties === 'object');
  if (isObjectRoot) return { inputSchema: schema, wrapped: false };
  const { $defs, definitions, $schema: _dialect, ...inner } = schema as Record<string, unknown>;
  return {
    wrapped: true,
    inputSchema: {
      type: 'object',
      properties: { value: inner },
      required: ['value'],
      additionalProperties: false,
      ...($defs === undefined ? {} : { $defs }),
      ...(definitions === undefined ? {} : { definitions }),
    },
  };
}

const BASE_SYSTEM =
  'You produce structured data. Follow the output instructions exactly and never invent fields the schema does not allow.';

/** Instructions appended to the prompt in json and prompt modes. */
export function schemaInstructions(schema: JsonSchema): string {
  return [
    'Respond with only a single JSON value that satisfies this JSON Schema. Do not add prose or code fences.',
    '```json',
    JSON.stringify(schema, null, 2),
    '```',
  ].join('\n');
}

/** The first messages and the per-mode request shape. */
export interface ModePlan {
  readonly mode: ResolvedMode;
  readonly shape: ToolShape;
  readonly tool: LlmToolSpec | undefined;
  readonly system: readonly string[];
  readonly initialMessages: readonly LlmMessage[];
  /** The request for a conversation so far. */
  request(messages: readonly LlmMessage[], signal: AbortSignal, timeoutMs: number): LlmRequest;
}

/** Builds the plan for a resolved mode. */
export function planFor(mode: ResolvedMode, params: GenerateObjectParams): ModePlan {
  const schema = params.schema as JsonSchema;
  const shape = toolShape(schema);
  const system = [BASE_SYSTEM, ...(params.system === undefined ? [] : [params.system])];
  const tool: LlmToolSpec | undefined =
    mode === 'tool'
      ? {
          name: params.schema_name,
          description:
            params.schema_description ??
            `Return the ${params.schema_name} by calling this tool with it as the arguments${shape.wrapped ? ' (under "value")' : ''}.`,
          inputSchema: shape.inputSchema,
        }
      : undefined;
  const prompt =
    mode === 'json' || mode === 'prompt' ? `${params.prompt}\n\n${schemaInstructions(schema)}` : params.prompt;
  return {
    mode,
    shape,
    tool,
    system,
    initialMessages: [{ role: 'user', content: prompt }],
    request(messages, signal, timeoutMs): LlmRequest {
      const base = { system, messages, signal, timeoutMs };
      if (tool !== undefined) return { ...base, tools: [tool], toolChoice: { name: tool.name } };
      if (mode === 'strict')
        return {
          ...base,
          tools: [],
          responseFormat: { type: 'json_schema', name: params.schema_name, schema, strict: true },
        };
      if (mode === 'json') return { ...base, tools: [], responseFormat: { type: 'json_object' } };
      return { ...base, tools: [] };
    },
  };
}
