/**
 * One event envelope as one line of JSON: what `a3s run --json` prints and what `a3s serve` sends
 * as the params of its `event` notification, so both carry the same text.
 */
import type { ProjectedEventV1 } from '@a3s-code/sdk';

/** The JSON text of an event (an `EventEnvelopeV1` with the SDK's `text`/`toolName`/`tool_name`). */
export function eventJson(event: ProjectedEventV1): string {
  return JSON.stringify(event);
}

/**
 * The one line `a3s run --json` prints when it fails before a run starts (no model, a bad flag, an
 * attachment it cannot send), when no event could say so: `type` `a3s_error`, which no event
 * envelope has. A run that starts reports its failure as an `error` event.
 */
export function errorJson(
  code: string | undefined,
  message: string,
  hints: readonly string[],
  exitCode: number,
): string {
  return JSON.stringify({ type: 'a3s_error', code: code ?? null, message, hints, exit_code: exitCode });
}
