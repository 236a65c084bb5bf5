/**
 * Builds the OpenAI Chat Completions request body from an {@link LlmRequest}. Only documented
 * Chat Completions fields are written; the caller's response schema goes out only inside
 * `response_format.json_schema` when the caller asked for native structured output. A user
 * message with images becomes content parts: the text, then one `image_url` part per image
 * holding a base64 `data:` URL.
 */
import type { LlmMessage, LlmRequest, LlmToolChoice } from '@a3s-code/core';

/** Which field carries the output-token limit (`max_completion_tokens` for OpenAI's newer models). */
export type MaxTokensField = 'max_tokens' | 'max_completion_tokens';

/** Body options that depend on the endpoint. */
export interface OpenAIBodyOptions {
  readonly model: string;
  readonly stream: boolean;
  /** Ask for the final usage chunk (`stream_options.include_usage`). */
  readonly streamUsage: boolean;
  readonly maxTokensField: MaxTokensField;
}

type Json = Record<string, unknown>;

/** The request body as sent. */
export function openAIRequestBody(request: LlmRequest, options: OpenAIBodyOptions): Json {
  const messages: Json[] = [];
  const system = request.system.filter((s) => s.length > 0).join('\n\n');
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const m of request.messages) messages.push(openAIMessage(m));
  const body: Json = { model: options.model, messages };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.inputSchema },
    }));
  }
  // Chat Completions rejects tool_choice without tools.
  if (request.toolChoice !== undefined && request.tools.length > 0)
    body.tool_choice = openAIToolChoice(request.toolChoice);
  const format = request.responseFormat;
  if (format?.type === 'json_object') body.response_format = { type: 'json_object' };
  if (format?.type === 'json_schema') {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: format.name, schema: format.schema, strict: format.strict ?? true },
    };
  }
  if (request.maxOutputTokens !== undefined) body[options.maxTokensField] = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (options.stream) {
    body.stream = true;
    if (options.streamUsage) body.stream_options = { include_usage: true };
  }
  return body;
}

function openAIToolChoice(choice: LlmToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

function openAIMessage(m: LlmMessage): Json {
  switch (m.role) {
    case 'user':
      if (m.images === undefined || m.images.length === 0) return { role: 'user', content: m.content };
      return {
        role: 'user',
        content: [
          { type: 'text', text: m.content },
          ...m.images.map((i) => ({ type: 'image_url', image_url: { url: `data:${i.mediaType};base64,${i.data}` } })),
        ],
      };
    case 'assistant': {
      const calls = m.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: m.content };
      return {
        role: 'assistant',
        content: m.content === '' ? null : m.content,
        tool_calls: calls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: JSON.stringify(c.args) },
        })),
      };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  }
}
