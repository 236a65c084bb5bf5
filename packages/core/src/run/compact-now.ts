/** `session.compact()`: a compaction outside any run, appended as a host fact. */
import type { FoldState } from '@a3s-code/effect';
import type { ResolvedSessionConfig } from '../session/resolved-session-config.js';
import type { ToolInvoker } from '../invoker/tool-invoker.js';
import { askSummary, COMPACTION_KEPT_MESSAGES } from './compact-executor.js';
import { drafts } from '@a3s-code/effect';
import { LlmError } from '../llm/llm-error.js';
import { runPreCompactHooks } from '../hooks/session-hooks.js';
import type { LlmBudget } from '../llm/llm-budget.js';
import { createRun } from './run-setup.js';

/** Options of {@link compactNow}. */
export interface CompactNowOptions {
  /** The session's resolved configuration (model, fact store, hooks, clock). */
  readonly config: ResolvedSessionConfig;
  /** The session's tool invoker (the compaction run's environment needs one). */
  readonly invoker: ToolInvoker;
  /** The folded state of the session's log: the conversation to summarise. */
  readonly state: FoldState;
  /** The session's signal: closing the session aborts the compaction. */
  readonly sessionSignal: AbortSignal;
  /** The session's provider budget, when one is configured; the summary call draws from it. */
  readonly llmBudget?: LlmBudget;
}

/**
 * Summarises the conversation through the LLM invoker and appends `compaction.done`. A model that
 * gives no summary text fails it with `LLM_INVALID_RESPONSE` and the log is left as it was.
 */
export async function compactNow(
  options: CompactNowOptions,
): Promise<{ readonly summaryChars: number; readonly factsFolded: number }> {
  const { config, invoker, state, sessionSignal, llmBudget } = options;
  const store = config.factStore;
  await runPreCompactHooks(config.hooks, {
    session_id: config.sessionId,
    trigger: 'manual',
    messages: state.view.messages.length,
  });
  const run = createRun({
    sessionId: config.sessionId,
    runId: `compact-${store.log.length}`,
    store,
    invoker,
    model: config.model,
    governance: config.governance,
    ...(llmBudget ? { llmBudget } : {}),
    questionCap: 0,
    steerCapacity: 1,
    clock: config.clock,
    sessionSignal,
  });
  try {
    const answer = await askSummary(run.env, state);
    if ('problem' in answer) {
      const provider = config.model.provider;
      throw new LlmError('invalid_response', `compaction: ${answer.problem}; the conversation was left as it is`, {
        provider,
      });
    }
    const { summary } = answer;
    run.env.events.emit({
      kind: 'contextCompacted',
      payload: { summary_chars: summary.length, facts_folded: state.counters.facts },
    });
    const kept = Math.min(COMPACTION_KEPT_MESSAGES, state.view.messages.length);
    const draft = drafts.compaction(state.counters.turn, { summary, kept, keep_request: true, at_ms: run.env.clock() });
    await store.append([{ ...draft, key: `compaction:host:${store.log.length + 1}` }], null);
    return { summaryChars: summary.length, factsFolded: state.counters.facts };
  } finally {
    run.env.events.close();
    run.dispose();
  }
}
