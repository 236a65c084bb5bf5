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
  if (r.parked !== undefined) line += `\n${parkedLine(r.parked)}`;
  return line;
}

/** Where a run waits: `parked: waiting for confirmation of bash rm -rf build (b1)`, or for an answer to a question. */
export function parkedLine(
  parked:
    | {
        readonly kind: 'confirm';
        readonly toolName: string;
        readonly toolId: string;
        readonly args?: Readonly<Record<string, unknown>>;
      }
    | { readonly kind: 'question'; readonly question: string; readonly questionId: string },
): string {
  if (parked.kind === 'question')
    return `parked: waiting for an answer to "${terminalText(parked.question)}" (${terminalText(parked.questionId)})`;
  const what = parked.args === undefined ? '' : argSummary(parked.args);
  return `parked: waiting for confirmation of ${terminalText(parked.toolName)}${what === '' ? '' : ` ${terminalText(what)}`} (${terminalText(parked.toolId)})`;
}

/**
 * Where the run a session's log left open waits, from the session's view: its `parked:` line, and
 * whether it waits for a confirmation; `undefined` when it waits for no answer.
 */
export function parkedInView(view: {
  readonly pending_confirmation: {
    readonly call: { readonly id: string; readonly name: string; readonly args?: Readonly<Record<string, unknown>> };
  } | null;
  readonly pending_question: { readonly question_id: string; readonly question: string } | null;
}): { readonly line: string; readonly confirm: boolean } | undefined {
  const { pending_confirmation: c, pending_question: q } = view;
  if (c !== null)
    return {
      line: parkedLine({
        kind: 'confirm',
        toolName: c.call.name,
        toolId: c.call.id,
        ...(c.call.args === undefined ? {} : { args: c.call.args }),
      }),
      confirm: true,
    };
  if (q !== null)
    return { line: parkedLine({ kind: 'question', question: q.question, questionId: q.question_id }), confirm: false };
  return undefined;
}
