/** The completion-gate side of a session: host verification, waivers and the change ledger. */
import { SessionConfigurationError } from '../errors/session-errors.js';
import type { MutationLedger } from '../gate/mutation-ledger.js';
import type { SessionGate } from '../gate/session-gate.js';
import type { VerificationReport } from '../gate/verification-report.js';
import {
  runVerification,
  validateVerification,
  type VerificationCommand,
  type VerifyOptions,
} from '../gate/verify-commands.js';
import type { ToolInvocationResult } from '../invoker/invocation-types.js';

/**
 * Runs verification commands as host `bash` calls through the kernel and records the report,
 * bound to the digest of the active run's changes (`activeRunId`) or, outside a run, the latest run's.
 */
export async function verifyThroughKernel(
  gate: SessionGate,
  tool: (name: string, args: unknown) => Promise<ToolInvocationResult>,
  activeRunId: string | null,
  subject: string,
  commands: readonly VerificationCommand[],
  options: VerifyOptions,
  now: number,
): Promise<VerificationReport> {
  validateVerification(subject, commands);
  const runId = activeRunId ?? gate.latestRunId();
  const report = await runVerification(
    subject,
    commands,
    (command, timeoutMs) => tool('bash', { command, timeout: timeoutMs }),
    { digest: runId === null ? null : gate.ledger(runId).digest, runId, now },
    options,
  );
  gate.verification.addReport(report);
  return report;
}

/** Records a host waiver of exactly `digest`, after checking the arguments. */
export function waiveDigest(gate: SessionGate, digest: string, reason: string, now: number): void {
  if (typeof digest !== 'string' || !/^[0-9a-f]{64}$/.test(digest))
    throw new SessionConfigurationError('digest', 'must be a 64-character hex effect digest');
  if (typeof reason !== 'string' || reason.trim().length === 0)
    throw new SessionConfigurationError('reason', 'must say why the change needs no verification');
  gate.verification.waive(digest, reason, now);
}

/** The ledger of run `runId`, or of the latest run when `runId` is null. */
export function ledgerFor(gate: SessionGate, runId: string | null): MutationLedger {
  const id = runId ?? gate.latestRunId();
  return id === null ? { entries: [], digest: null } : gate.ledger(id);
}
