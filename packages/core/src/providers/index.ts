/**
 * Real model providers: the OpenAI-compatible and Anthropic clients, their SSE parser, typed
 * HTTP errors, the retry helper and model selection.
 */
export { AnthropicClient, ANTHROPIC_BASE_URL, ANTHROPIC_VERSION, type AnthropicClientOptions } from './anthropic-client.js';
export type { HttpClientOptions } from './client-options.js';
export type { FetchFunction } from './http-call.js';
export {
  createLlmClient,
  describeProviders,
  parseModelRef,
  PROVIDER_NAMES,
  resolveModelConfig,
  type ModelConfig,
  type ProviderDescription,
  type ModelEnvironment,
  type ModelSelection,
  type ProviderName,
} from './model-selection.js';
export {
  CONSERVATIVE_CAPABILITIES,
  OPENAI_BASE_URL,
  OPENAI_CAPABILITIES,
  OpenAICompatibleClient,
  type OpenAICompatibleClientOptions,
} from './openai-compatible-client.js';
export type { MaxTokensField } from './openai-request.js';
export { kindForStatus, ModelConfigurationError, parseRetryAfter, retryAfterFromHeaders } from './provider-errors.js';
export { retryDelay, withRetries, type RetryHooks, type RetryPolicy } from './retry.js';
export { readSseEvents, SseParser, type SseEvent } from './sse-parser.js';
export { MALFORMED_TOOL_ARGUMENTS } from './tool-call-assembler.js';
