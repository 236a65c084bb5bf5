/** The one-line outcome of a run, and where its log is. */
import { formatCost, terminalText } from '@a3s-code/core';
import type { RunResult } from '@a3s-code/sdk';
import type { Style } from '../style.js';
import { stoppedSuffix, type StoppedCalls } from './denials.js';
import { argSummary } from './tool-card.js';

/** `completed (verified) · 4 tool call(s) · 1 refused · 1 denied · 8192 in / 165 out tokens · $0.0371`: `stopped` counts refused and denied calls; the cost shows when the model has a price. */
export function runSummary(style: Style, r: RunResult, stopped?: StoppedCalls, cost?: number): string {
  const status = r.status === 'completed' ? style.green(r.status) : style.yellow(r.status);
  const completion = r.completion ? ` (${r.completion})` : '';
  let line = `${status}${completion} · ${r.toolCalls} tool call(s)${stoppedSuffix(stopped)} · ${r.usage.inputTokens} in / ${r.usage.outputTokens} out tokens`;
  if (cost !== undefined) line += ` · ${formatCost(cost)}`;
  if (r.endedBy === 'budget')
    line += style.yellow(
      '\nstopped: the tool budget of this turn is used up (`toolBudget` in a3s.config.json, 8 successful tool results by default); the task may be unfinished',
    );
  if (r.endedBy === 'tool_rounds')
    line += style.yellow(
      '\nstopped: the tool-round cap of this turn is reached (`maxToolRounds` in a3s.config.json) and the model still asked for tools, which did not run; the task may be unfinished',
    );
  if (r.endedBy === 'output_limit')
    line += style.yellow(
      "\nstopped: the model's answer reached its output-token limit and may end mid-sentence (raise `providers.<id>.maxOutputTokens` in a3s.config.json, or ask it to go on)",
    );
  if (r.endedBy === 'refused')
    line += style.yellow(
      '\nstopped: a call was refused when it was asked for, which ends the turn (the calls after it did not run); say what to do instead',
    );
  if (r.parked?.kind === 'confirm') {
    const what = argSummary(r.parked.args);
    line += `\nparked: waiting for confirmation of ${terminalText(r.parked.toolName)}${what === '' ? '' : ` ${terminalText(what)}`} (${terminalText(r.parked.toolId)})`;
  }
  if (r.parked?.kind === 'question')
    line += `\nparked: waiting for an answer to "${terminalText(r.parked.question)}" (${terminalText(r.parked.questionId)})`;
  return line;
}
