/**
 * The refusals of a run that the completion gate names: calls a crash interrupted whose re-run
 * was refused (what their cut-off attempt changed stays unknown), and `verify` calls refused
 * because nobody can approve them (asking the model to verify again cannot help).
 */
import type { Fact } from '@a3s-code/effect';
import { NO_APPROVER_REASON } from '../permissions/confirmation.js';
import { isInterruptedChange, readChangeRecord } from './change-record.js';

/** A call a crash interrupted whose re-run on resume was refused. */
export interface RefusedRerun {
  readonly tool: string;
  readonly callId: string;
  /** The refusal, as the call's result says it (`not confirmed: no approver`). */
  readonly why: string;
}

/** What {@link runRefusals} found in a run's facts. */
export interface RunRefusals {
  readonly reruns: readonly RefusedRerun[];
  /** The refusal of the run's latest `verify` call, when it was refused for want of an approver. */
  readonly verify?: string;
}

interface ResultPayload {
  readonly tool_call_id?: unknown;
  readonly name?: unknown;
  readonly ok?: unknown;
  readonly output?: unknown;
  readonly metadata?: Readonly<Record<string, unknown>> | null;
}

const DENIED = 'Permission denied: ';
const NOBODY = `not confirmed: ${NO_APPROVER_REASON}`;

/** The refusals among the facts of a run, from index `from` (its `run.started`) on. */
export function runRefusals(facts: readonly Fact[], from: number): RunRefusals {
  const reruns: RefusedRerun[] = [];
  // The tools of the calls of the latest model turn, by id: a refused confirmation names only the id.
  let calls = new Map<string, string>();
  let verify: string | undefined;
  for (let i = Math.max(0, from); i < facts.length; i++) {
    const f = facts[i]!;
    if (f.type === 'model.turn') {
      calls = callsOf(f.payload);
      continue;
    }
    if (f.type === 'confirmation.answered') {
      const p = f.payload as { tool_call_id?: unknown; approved?: unknown; reason?: unknown };
      const nobody = typeof p.reason === 'string' && p.reason.startsWith(NO_APPROVER_REASON);
      if (p.approved === false && nobody && calls.get(String(p.tool_call_id)) === 'verify')
        verify = `not confirmed: ${p.reason as string}`;
      continue;
    }
    if (f.type !== 'tool.result') continue;
    const p = f.payload as ResultPayload;
    if (typeof p.name !== 'string') continue;
    const output = typeof p.output === 'string' ? p.output : '';
    const why = output.startsWith(DENIED) ? output.slice(DENIED.length) : output;
    // Only the latest verify call counts: one that ran (or failed otherwise) says an approval was not needed.
    if (p.name === 'verify') verify = p.ok === false && why.startsWith(NOBODY) ? why : undefined;
    if (p.ok !== false || p.metadata?.error_code !== 'PERMISSION_DENIED') continue;
    const interrupted = (readChangeRecord(p.metadata) ?? []).some((e) => isInterruptedChange(e.digest));
    if (interrupted) reruns.push({ tool: p.name, callId: String(p.tool_call_id), why });
  }
  return verify === undefined ? { reruns } : { reruns, verify };
}

/** The tool of each call of a `model.turn` payload, by call id. */
function callsOf(payload: unknown): Map<string, string> {
  const decision = (payload as { decision?: { kind?: unknown; calls?: unknown } } | null)?.decision;
  const out = new Map<string, string>();
  if (decision?.kind !== 'tool' || !Array.isArray(decision.calls)) return out;
  for (const c of decision.calls as { id?: unknown; name?: unknown }[])
    if (typeof c?.id === 'string' && typeof c.name === 'string') out.set(c.id, c.name);
  return out;
}
