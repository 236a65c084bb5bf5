export type {
  LlmCapabilities,
  LlmClient,
  LlmFinishReason,
  LlmMessage,
  LlmRequest,
  LlmResponse,
  LlmResponseFormat,
  LlmStreamEvent,
  LlmToolCall,
  LlmToolChoice,
  LlmToolSpec,
  LlmUsage,
  ReasoningBlock,
} from './llm-client.js';
export { LlmError, type LlmErrorKind, type LlmErrorOptions } from './llm-error.js';
export { collectResponse, completeWith, ResponseAccumulator } from './collect-response.js';
export { GovernedLlmClient, type LlmGovernance, type LlmRetryOptions } from './governed-llm-client.js';
export { LlmBudget, type BudgetMark, type LlmBudgetLimits } from './llm-budget.js';
export { costOf, formatCost, priceOf, type ModelPrice, type ModelPricing, type TokenCounts } from './model-pricing.js';
