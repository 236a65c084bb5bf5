/**
 * `@a3s-code/providers`: the real model providers of A3S Code — the OpenAI-compatible and
 * Anthropic clients, their SSE parser, typed HTTP errors, the retry helper, model selection from
 * `provider/model` and the environment, and {@link providerModelResolver}, the resolver hosts
 * hand to core.
 */
export { AnthropicClient, ANTHROPIC_BASE_URL, type AnthropicClientOptions } from './anthropic-client.js';
export { DEFAULT_REQUEST_TIMEOUT_MS } from './client-options.js';
export type { HttpClientOptions } from './client-options.js';
export type { FetchFunction } from './http-call.js';
export {
  createLlmClient,
  describeProviders,
  resolveModelConfig,
  type ModelConfig,
  type ModelSelection,
  type ProviderDescription,
  type ProviderFamily,
} from './model-selection.js';
export { providerModelResolver } from './model-resolver.js';
export {
  OPENAI_BASE_URL,
  OpenAICompatibleClient,
  type OpenAICompatibleClientOptions,
} from './openai-compatible-client.js';
export type { MaxTokensField } from './openai-request.js';
export { withRetries, type RetryHooks, type RetryPolicy } from './retry.js';
export {
  GROWTH_STEP_CHARS,
  readSseEvents,
  SSE_LIMITS,
  SseLimitError,
  SseParser,
  type SseEvent,
  type SseLimits,
} from './sse-parser.js';
