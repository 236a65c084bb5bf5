export type {
  LlmCapabilities,
  LlmCallObserver,
  LlmClient,
  LlmFinishReason,
  LlmImage,
  LlmForkIdentity,
  LlmMessage,
  LlmRequest,
  LlmResponse,
  LlmResponseFormat,
  LlmRetryNotice,
  LlmStreamEvent,
  LlmToolCall,
  LlmToolChoice,
  LlmToolSpec,
  LlmUsage,
  ReasoningBlock,
} from './llm-client.js';
export { LlmError, MALFORMED_TOOL_ARGUMENTS, type LlmErrorKind, type LlmErrorOptions } from './llm-error.js';
export {
  MALFORMED_ARGS_KEY,
  malformedArgsOf,
  malformedToolArgs,
  parseToolArgsText,
  toolArgsFromValue,
  type MalformedToolArgs,
} from './tool-args-text.js';
export { kindForStatus, parseRetryAfter, retryAfterFromHeaders } from './http-status.js';
export { abortableSleep } from './abortable-sleep.js';
export type {
  ModelConfig,
  ModelEnvironment,
  ModelResolver,
  ModelSelection,
  ProviderSettings,
} from './model-resolver.js';
export {
  ScriptedLlmClient,
  ScriptError,
  type LlmScript,
  type ScriptedLlmClientOptions,
  type ScriptedTurn,
} from './scripted-llm-client.js';
export { collectResponse, completeWith, ResponseAccumulator } from './collect-response.js';
export { GovernedLlmClient, type LlmGovernance, type LlmRetryOptions } from './governed-llm-client.js';
export {
  LlmBudget,
  type BudgetMark,
  type BudgetsConfig,
  type LlmBudgetLimits,
  type LlmCallAdmission,
  type LlmCallRefusal,
} from './llm-budget.js';
export { costOf, formatCost, priceOf, type ModelPrice, type ModelPricing, type TokenCounts } from './model-pricing.js';
