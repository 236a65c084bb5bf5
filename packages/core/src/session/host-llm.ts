/** The provider client of session work outside any run (host-direct `generate_object`). */
import type { ResolvedSessionConfig } from './resolved-session-config.js';
import type { AgentEventEmitter } from '../events/event-emitter.js';
import { GovernedLlmClient } from '../llm/governed-llm-client.js';
import type { LlmBudget } from '../llm/llm-budget.js';

/**
 * A governed client over the session's model for work outside a run: ended by the session's
 * `signal`, its events on `events`, drawing from the session's provider `budget` (when set).
 */
export function hostLlmClient(
  config: ResolvedSessionConfig,
  signal: AbortSignal,
  events: AgentEventEmitter,
  budget: LlmBudget | undefined,
): GovernedLlmClient {
  return new GovernedLlmClient(config.model, {
    signal,
    events,
    ...(budget ? { budget } : {}),
    ...(config.llmRetry ? { retry: config.llmRetry } : {}),
  });
}
