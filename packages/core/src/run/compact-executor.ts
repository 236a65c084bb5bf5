/**
 * The `compact` transition: asks the model, through the LLM invoker, for a summary of the
 * conversation that keeps what the run needs to go on (PROMPT-05): the goal, constraints,
 * acceptance criteria, decisions taken, and verification evidence. The last messages stay
 * verbatim after the summary.
 */
import { drafts, type FactDraft, type FoldState } from '@a3s-code/effect';
import { collectResponse } from '../llm/collect-response.js';
import { toLlmMessages } from './conversation.js';
import type { RunEnv } from './run-env.js';

/** Messages kept verbatim after a compaction summary. */
export const COMPACTION_KEPT_MESSAGES = 4;

const INSTRUCTIONS = [
  'You are compacting the conversation of a coding agent so it can continue with a shorter context.',
  'Write a summary that lets the agent continue exactly where it is. Keep, in this order:',
  '1. The goal, in the user\'s own words where possible.',
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
      messages: [...toLlmMessages(messages), { role: 'user', content: 'Summarise the conversation above as instructed.' }],
      tools: [],
      signal: env.signal,
    }),
    env.llm.provider,
  );
  env.stats.inputTokens += response.usage.inputTokens;
  env.stats.outputTokens += response.usage.outputTokens;
  const summary = response.text.trim() || '(The model returned an empty summary.)';
  env.events.emit({ kind: 'contextCompacted', payload: { summary_chars: summary.length, facts_folded: state.counters.facts } });
  return [drafts.compaction(turn, { summary, kept: Math.min(COMPACTION_KEPT_MESSAGES, messages.length), at_ms: env.clock() })];
}
