/**
 * Builds the Anthropic Messages request body from an {@link LlmRequest}: the system prompt as
 * the top-level `system`, tool results as `tool_result` blocks in user turns (consecutive turns
 * of one role merged, as the API requires alternation), `tool_choice` as `auto`/`any`/`tool`/`none`,
 * an assistant turn's reasoning blocks sent back first in its content, as received, and a user
 * turn's images as base64 `image` blocks before its text.
 */
import { ModelConfigurationError, type LlmMessage, type LlmRequest, type LlmToolChoice } from '@a3s-code/core';
import { anthropicThinkingContent } from './anthropic-thinking.js';

type Json = Record<string, unknown>;

/** Body options that depend on the client. */
export interface AnthropicBodyOptions {
  readonly model: string;
  readonly stream: boolean;
  /** `max_tokens` when the request sets none (the API requires it). */
  readonly defaultMaxTokens: number;
  /** Extended-thinking budget in tokens, when enabled. */
  readonly thinkingBudgetTokens: number | undefined;
}

/** The request body as sent. Throws for a `responseFormat` the Messages API cannot honour. */
export function anthropicRequestBody(request: LlmRequest, options: AnthropicBodyOptions): Json {
  if (request.responseFormat !== undefined && request.responseFormat.type !== 'text') {
    throw new ModelConfigurationError(
      'request.responseFormat.type',
      `'${request.responseFormat.type}' is not supported by the Anthropic Messages API; allowed: 'text' (check capabilities.jsonMode / strictJsonSchema)`,
    );
  }
  const body: Json = {
    model: options.model,
    max_tokens: request.maxOutputTokens ?? options.defaultMaxTokens,
    messages: anthropicMessages(request.messages),
  };
  const system = request.system.filter((s) => s.length > 0).join('\n\n');
  if (system !== '') body.system = system;
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
  }
  if (request.toolChoice !== undefined && request.tools.length > 0)
    body.tool_choice = anthropicToolChoice(request.toolChoice);
  if (request.temperature !== undefined) body.temperature = Math.min(1, request.temperature);
  if (options.thinkingBudgetTokens !== undefined)
    body.thinking = { type: 'enabled', budget_tokens: options.thinkingBudgetTokens };
  if (options.stream) body.stream = true;
  return body;
}

function anthropicToolChoice(choice: LlmToolChoice): Json {
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any' };
  return { type: 'tool', name: choice.name };
}

/** Maps messages to Messages API turns, merging consecutive turns of one role. */
export function anthropicMessages(messages: readonly LlmMessage[]): Json[] {
  const out: { role: 'user' | 'assistant'; content: Json[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: Json[]) => {
    const last = out[out.length - 1];
    if (last !== undefined && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'user') {
      // Images go before the text, as the Messages API documentation recommends.
      const images = (m.images ?? []).map((i) => ({
        type: 'image',
        source: { type: 'base64', media_type: i.mediaType, data: i.data },
      }));
      push('user', [...images, { type: 'text', text: m.content }]);
    } else if (m.role === 'tool') {
      push('user', [
        {
          type: 'tool_result',
          tool_use_id: m.toolCallId,
          content: m.content,
          ...(m.isError ? { is_error: true } : {}),
        },
      ]);
    } else {
      const blocks: Json[] = m.content === '' ? [] : [{ type: 'text', text: m.content }];
      for (const c of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.args });
      // Thinking goes first, and never alone: a turn of only thinking is not a valid assistant turn.
      if (blocks.length > 0) push('assistant', [...anthropicThinkingContent(m.reasoning ?? []), ...blocks]);
    }
  }
  return out;
}
