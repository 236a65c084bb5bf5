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

/** Runs `compact:<turn>` and returns its `compaction.done`. */
export async function runCompact(env: RunEnv, turn: number, state: FoldState): Promise<FactDraft[]> {
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
  const summary = response.text.trim() || '(The model returned an empty summary.)';
  env.events.emit({
    kind: 'contextCompacted',
    payload: { summary_chars: summary.length, facts_folded: state.counters.facts },
  });
  return [
    drafts.compaction(turn, { summary, kept: Math.min(COMPACTION_KEPT_MESSAGES, messages.length), at_ms: env.clock() }),
  ];
}

/**
 * The run's automatic `compact:<turn>`: the session's `pre_compact` hooks run first (trigger
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
 * kept behind a one-line note that compaction was skipped (the only visible change).
 */
export function skippedCompaction(turn: number, state: FoldState, reason: string, atMs: number): FactDraft {
  const messages = state.view.messages;
  const first = messages[0];
  const carried = first !== undefined && first.role === 'user' && first.source === 'summary' ? first.text : undefined;
  return {
    type: 'compaction.done',
    key: `compaction:${turn}`,
    payload: {
      summary:
        carried ??
        `(No summary: automatic compaction was skipped because a pre_compact hook blocked it: ${reason}. The whole conversation follows.)`,
      kept: carried === undefined ? messages.length : messages.length - 1,
      at_ms: atMs,
      skipped: true,
      blocked_by: 'pre_compact',
      reason,
    },
  };
}
