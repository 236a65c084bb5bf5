/**
 * Whose run a run id names, for resources that keep state per caller (`ToolResourceContext.runOwner`):
 * the session's live run and the host's calls are the session's own; a child run the session's
 * gate has adopted (a sub-agent's or a worker's, while it goes) is that child's; any other id is
 * unknown.
 */
import type { SessionGate } from '../gate/session-gate.js';
import type { RunOwner } from '../tools/tool-resource.js';

/** The run-owner lookup of a session. */
export function runOwnerLookup(
  sessionId: string,
  activeRunId: () => string | null | undefined,
  gate: SessionGate,
): (runId: string) => RunOwner | undefined {
  return (runId) => {
    if (typeof runId !== 'string' || runId === '') return undefined;
    // A child's run is looked up first: its id is never the session's, but this order needs no trust in that.
    const ended = gate.childEnded(runId);
    if (ended !== undefined) return { kind: 'child', runId, ended };
    if (runId === activeRunId() || runId === `host:${sessionId}`) return { kind: 'session' };
    return undefined;
  };
}
