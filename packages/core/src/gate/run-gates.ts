/**
 * Which completion gate a run answers to, when it is not the session's: a sub-agent's run has a
 * gate of its own (over its own log), and `verify` called in that run must record its report
 * there, bound to that run's changes, or the sub-agent could never complete verified.
 * Core-internal: not exported from the package entry.
 */
import type { SessionGate } from './session-gate.js';

const gates = new Map<string, SessionGate>();

/** Binds run `runId` to `gate` while it runs; returns the unbinder. */
export function bindRunGate(runId: string, gate: SessionGate): () => void {
  gates.set(runId, gate);
  return () => {
    if (gates.get(runId) === gate) gates.delete(runId);
  };
}

/** The gate bound to run `runId`, if any. */
export function gateOfRun(runId: string): SessionGate | undefined {
  return gates.get(runId);
}
