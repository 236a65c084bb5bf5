/** `session.compact()`: a compaction outside any run, appended as a host fact. */
import type { FoldState } from '@a3s-code/effect';
import type { ResolvedSessionConfig } from '../session/resolved-session-config.js';
import type { ToolInvoker } from '../invoker/tool-invoker.js';
import { runCompact } from './compact-executor.js';
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

/** Summarises the conversation through the LLM invoker and appends `compaction.done`. */
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
    const [draft] = await runCompact(run.env, state.counters.turn, state);
    const summary = (draft!.payload as { summary: string }).summary;
    await store.append([{ ...draft!, key: `compaction:host:${store.log.length + 1}` }], null);
    return { summaryChars: summary.length, factsFolded: state.counters.facts };
  } finally {
    run.env.events.close();
    run.dispose();
  }
}
