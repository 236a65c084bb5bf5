/** The one-line outcome of a run, and where its log is. */
import type { RunResult } from '@a3s-code/sdk';
import type { Style } from '../style.js';

/** `completed (verified) · 4 tool call(s) · 8192 in / 165 out tokens`. */
export function runSummary(style: Style, r: RunResult): string {
  const status = r.status === 'completed' ? style.green(r.status) : style.yellow(r.status);
  const completion = r.completion ? ` (${r.completion})` : '';
  let line = `${status}${completion} · ${r.toolCalls} tool call(s) · ${r.usage.inputTokens} in / ${r.usage.outputTokens} out tokens`;
  if (r.parked?.kind === 'confirm') line += `\nparked: waiting for confirmation of ${r.parked.toolName} (${r.parked.toolId})`;
  if (r.parked?.kind === 'question') line += `\nparked: waiting for an answer to "${r.parked.question}" (${r.parked.questionId})`;
  return line;
}
