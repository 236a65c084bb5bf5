/**
 * The `compact` transition: asks the model, through the LLM invoker, for a summary of the
 * conversation that keeps what the run needs to go on: the goal, constraints,
 * acceptance criteria, decisions taken, and verification evidence. The last messages stay
 * verbatim after the summary.
 */
import { drafts, type FactDraft, type FoldState } from '@a3s-code/effect';
import { preCompactBlock, type SessionHooks } from '../hooks/session-hooks.js';
import { collectResponse } from '../llm/collect-response.js';
import { toLlmMessages } from './conversation.js';
import type { RunEnv } from './run-env.js';

/** Messages kept verbatim after a compaction summary. */
export const COMPACTION_KEPT_MESSAGES = 4;

const INSTRUCTIONS = [
  'You are compacting the conversation of a coding agent so it can continue with a shorter context.',
  'Write a summary that lets the agent continue exactly where it is. Keep, in this order:',
  "1. The goal, in the user's own words where possible.",
  '2. Constraints and acceptance criteria the user set.',
  '3. Decisions taken and why; files changed and how.',
  '4. Verification evidence: commands run and their results.',
  '5. What remains to be done next.',
  'Do not change the scope. Do not invent facts. Answer with the summary only.',
].join('\n');

/** The model's summary, or why it gave none that can replace the conversation. */
export type SummaryAnswer = { readonly summary: string } | { readonly problem: string };

/**
 * Asks the model, through the LLM invoker, for a summary of `state`'s conversation. An answer
 * that cannot stand in for the conversation (empty text; tool calls are never run here) is
 * returned as a `problem`, so that nothing is dropped for it.
 */
export async function askSummary(env: RunEnv, state: FoldState): Promise<SummaryAnswer> {
  const messages = state.view.messages;
  env.stats.modelCalls++;
  const response = await collectResponse(
    env.llm.stream({
      system: [INSTRUCTIONS],
      messages: [
        ...toLlmMessages(messages),
        { role: 'user', content: 'Summarise the conversation above as instructed.' },
      ],
      tools: [],
      signal: env.signal,
    }),
    env.llm.provider,
  );
  env.stats.inputTokens += response.usage.inputTokens;
  env.stats.outputTokens += response.usage.outputTokens;
  const summary = response.text.trim();
  if (summary === '') {
    const calls = response.toolCalls.length;
    return {
      problem:
        calls > 0
          ? `the model answered with ${calls} tool call(s) and no summary text (tool calls are not run during compaction)`
          : 'the model returned an empty summary',
    };
  }
  return { summary };
}

/**
 * Runs `compact:<turn>:<cycle>` and returns its `compaction.done`. When the model gives no usable
 * summary the conversation is kept whole: a skipped `compaction.done` naming the problem.
 */
export async function runCompact(env: RunEnv, turn: number, state: FoldState): Promise<FactDraft[]> {
  const answer = await askSummary(env, state);
  if ('problem' in answer) return [skippedCompaction(turn, state, answer.problem, env.clock(), 'model')];
  const { summary } = answer;
  env.events.emit({
    kind: 'contextCompacted',
    payload: { summary_chars: summary.length, facts_folded: state.counters.facts },
  });
  const kept = Math.min(COMPACTION_KEPT_MESSAGES, state.view.messages.length);
  return [drafts.compaction(turn, { summary, kept, keep_request: true, at_ms: env.clock() }, state.counters.cycle)];
}

/**
 * The run's automatic `compact:<turn>:<cycle>`: the session's `pre_compact` hooks run first (trigger
 * `auto`, same order and decisions as for `session.compact()`). When one blocks, no summary is
 * asked for: the transition still records its `compaction.done` (so it does not run again and the
 * fold moves on to `infer`), marked `skipped` with the hook's reason, and it leaves the
 * conversation as it is. A hook that throws fails the run, as for the other session hooks.
 */
export async function runAutoCompact(
  env: RunEnv,
  turn: number,
  state: FoldState,
  hooks: SessionHooks,
): Promise<FactDraft[]> {
  const reason = await preCompactBlock(hooks, {
    session_id: env.sessionId,
    trigger: 'auto',
    messages: state.view.messages.length,
    run_id: env.runId,
  });
  if (reason === undefined) return runCompact(env, turn, state);
  return [skippedCompaction(turn, state, reason, env.clock())];
}

/**
 * A `compaction.done` that changes nothing the model sees: the fold always puts the summary
 * first and keeps the last `kept` messages, so a conversation that already starts with a
 * summary carries that summary over and keeps everything after it; otherwise every message is
 * kept behind a one-line note that compaction was skipped (the only visible change). `blockedBy`
 * names who stopped it: a `pre_compact` hook, or the model, which gave no usable summary.
 */
export function skippedCompaction(
  turn: number,
  state: FoldState,
  reason: string,
  atMs: number,
  blockedBy: 'pre_compact' | 'model' = 'pre_compact',
): FactDraft {
  const messages = state.view.messages;
  const first = messages[0];
  const carried = first !== undefined && first.role === 'user' && first.source === 'summary' ? first.text : undefined;
  const why = blockedBy === 'model' ? reason : `a pre_compact hook blocked it: ${reason}`;
  return {
    type: 'compaction.done',
    key: `compaction:${turn}:${state.counters.cycle}`,
    payload: {
      summary:
        carried ?? `(No summary: automatic compaction was skipped because ${why}. The whole conversation follows.)`,
      kept: carried === undefined ? messages.length : messages.length - 1,
      at_ms: atMs,
      skipped: true,
      blocked_by: blockedBy,
      reason,
    },
  };
}
