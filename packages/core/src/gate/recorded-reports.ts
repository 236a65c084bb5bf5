/**
 * The verification reports a session's log records: the reports of the `verify` tool's calls,
 * read back from their `tool.result` facts, so a session opened again (another process, after a
 * crash before the run's end was written) has the evidence its runs produced, bound to the digest
 * and run they were made for, as the run that made them had it.
 */
import type { Fact } from '@a3s-code/effect';
import { checkHostReport } from './report-check.js';
import { reportStatus, type VerificationReport } from './verification-report.js';

interface ResultFields {
  readonly tool_call_id?: unknown;
  readonly name?: unknown;
  readonly ok?: unknown;
  readonly metadata?: unknown;
}

/**
 * The reports of `verify` calls recorded in `facts`, oldest first. Only a report that is the
 * recorded result of a `verify` call the model made in the same run (its `model.turn` names the
 * call, its `tool.result` was written by that call's transition), made by the tool's commands for
 * that very run, whose status is what its checks give, and whose call succeeded when it passed.
 */
export function recordedVerifyReports(facts: readonly Fact[]): VerificationReport[] {
  const out: VerificationReport[] = [];
  let runId: string | null = null;
  let calls = new Set<string>();
  for (const f of facts) {
    if (f.type === 'run.started') {
      const id = (f.payload as { run_id?: unknown }).run_id;
      runId = typeof id === 'string' ? id : null;
      calls = new Set();
    } else if (f.type === 'run.ended') {
      runId = null;
      calls = new Set();
    } else if (f.type === 'model.turn' && runId !== null) {
      for (const id of verifyCallIds(f.payload)) calls.add(id);
    } else if (f.type === 'tool.result' && runId !== null) {
      const report = reportOf(f, runId, calls);
      if (report !== undefined) out.push(report);
    }
  }
  return out;
}

function verifyCallIds(payload: unknown): string[] {
  const decision = (payload as { decision?: { kind?: unknown; calls?: unknown } } | null)?.decision;
  if (decision?.kind !== 'tool' || !Array.isArray(decision.calls)) return [];
  const ids: string[] = [];
  for (const c of decision.calls as readonly { id?: unknown; name?: unknown }[])
    if (c !== null && typeof c === 'object' && c.name === 'verify' && typeof c.id === 'string') ids.push(c.id);
  return ids;
}

function reportOf(f: Fact, runId: string, calls: ReadonlySet<string>): VerificationReport | undefined {
  const p = f.payload as ResultFields;
  if (p.name !== 'verify' || typeof p.tool_call_id !== 'string' || !calls.has(p.tool_call_id)) return undefined;
  if (f.cause === null || !f.cause.startsWith('tool:') || !f.cause.endsWith(`:${p.tool_call_id}`)) return undefined;
  const metadata = p.metadata;
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  let report: VerificationReport;
  try {
    report = checkHostReport((metadata as { report?: unknown }).report);
  } catch {
    return undefined;
  }
  if (report.source !== 'commands' || report.run_id !== runId) return undefined;
  if (reportStatus(report.checks, report.residual_risks) !== report.status) return undefined;
  if (report.status === 'passed' && p.ok !== true) return undefined;
  return report;
}
