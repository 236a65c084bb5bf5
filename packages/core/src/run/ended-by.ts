/** How a completed run ended (`RunResult.endedBy`), read off the fold and the log's last fact. */
import type { FoldState } from '@a3s-code/effect';
import type { RunEnv } from './run-env.js';
import type { RunResult } from './run-result.js';

/**
 * How a settled run ended: a verification in `infer`; the tool budget after `budget.denied`; the
 * output limit after an answer cut off; a refusal after a refused confirmation; the tool-round cap
 * when the turn is done on a tool result (tools asked for on a request that offered none); else the answer.
 */
export function settledBy(env: RunEnv, state: FoldState): NonNullable<RunResult['endedBy']> {
  if (state.phase === 'infer') return 'verification';
  const fact = env.store.log.facts.at(-1);
  const p = fact?.payload as { cut_off?: unknown; approved?: unknown } | undefined;
  if (fact?.type === 'budget.denied') return 'budget';
  if (fact?.type === 'model.turn' && p?.cut_off === true) return 'output_limit';
  if (fact?.type === 'confirmation.answered' && p?.approved === false) return 'refused';
  return state.phase === 'done' && fact?.type === 'tool.result' && !state.view.tools_enabled ? 'tool_rounds' : 'answer';
}
