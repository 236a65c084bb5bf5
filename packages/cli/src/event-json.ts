/**
 * One event envelope as one line of JSON: what `a3s run --json` prints and what `a3s serve` sends
 * as the params of its `event` notification, so both carry the same text.
 */
import type { ProjectedEventV1 } from '@a3s-code/sdk';

/** The JSON text of an event (an `EventEnvelopeV1` with the SDK's `text`/`toolName`/`tool_name`). */
export function eventJson(event: ProjectedEventV1): string {
  return JSON.stringify(event);
}
