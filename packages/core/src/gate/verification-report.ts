/**
 * Verification reports (`a3s.verification_report.v1`): checkable evidence that a change is ready,
 * bound to the effect digest of the changes at the time the checks ran.
 */

/** Status of a report (and of a check). */
export type VerificationStatus = 'passed' | 'failed' | 'needs_review' | 'skipped';

/**
 * Status of a check: a report's statuses, or `denied` when the permission rules, the operator or
 * a hook refused to run its command (its evidence's `reason` names the rule or the refusal).
 */
export type VerificationCheckStatus = VerificationStatus | 'denied';

/** Evidence of one check. */
export interface CheckEvidence {
  readonly command?: string;
  readonly exit_code?: number | null;
  readonly timed_out?: boolean;
  readonly duration_ms?: number;
  /** The end of the command's output, bounded. */
  readonly output_tail?: string;
  /** Why the check has no result (denied, cancelled, ...). */
  readonly reason?: string;
}

/** One check of a report. */
export interface VerificationCheck {
  readonly id: string;
  readonly kind: string;
  readonly description: string;
  readonly status: VerificationCheckStatus;
  readonly required: boolean;
  readonly evidence: CheckEvidence;
}

/** A verification report. */
export interface VerificationReport {
  readonly schema: 'a3s.verification_report.v1';
  readonly id: string;
  readonly subject: string;
  readonly status: VerificationStatus;
  readonly checks: readonly VerificationCheck[];
  readonly residual_risks: readonly string[];
  /** The ledger digest the checks ran against; `null` when nothing had changed. */
  readonly effect_digest: string | null;
  readonly run_id: string | null;
  readonly created_at_ms: number;
  /** Who produced it: `commands` (verifyCommands / the verify tool) or `attestor`. */
  readonly source: 'commands' | 'attestor';
}

/**
 * A report as text for the model and for people: a headline, one line per check, one per
 * residual risk. It is the `verify` tool's output and, when a passing verification ends a run,
 * the run's final text.
 */
export function describeReport(report: VerificationReport): string {
  const checks = report.checks.map((c) => {
    const exit = c.evidence.exit_code === undefined ? '' : ` [exit ${String(c.evidence.exit_code)}]`;
    const why = c.evidence.reason === undefined || c.status === 'passed' ? '' : ` (${c.evidence.reason})`;
    return `- ${c.id} (${c.kind}${c.required ? ', required' : ', optional'}): ${c.status}${exit}${why}`;
  });
  return [
    `verification '${report.subject}': ${report.status}`,
    ...checks,
    ...report.residual_risks.map((r) => `- residual risk: ${r}`),
  ].join('\n');
}

/**
 * The report's status from its checks. A check with `required: false` is
 * advisory: its failure is reported but never fails the report. Any failed or denied required
 * check → failed (a refused command proves nothing, and it will not run until the rules change); else a required check that needs review or was skipped, or any residual risk →
 * needs_review; else no checks → skipped; else no check passed at all (only advisory ones
 * that failed or were skipped) → needs_review, since nothing was proven; else passed.
 */
export function reportStatus(
  checks: readonly Pick<VerificationCheck, 'status' | 'required'>[],
  residualRisks: readonly string[],
): VerificationStatus {
  if (checks.some((c) => c.required && (c.status === 'failed' || c.status === 'denied'))) return 'failed';
  if (
    checks.some((c) => c.required && (c.status === 'needs_review' || c.status === 'skipped')) ||
    residualRisks.length > 0
  )
    return 'needs_review';
  if (checks.length === 0) return 'skipped';
  if (!checks.some((c) => c.status === 'passed')) return 'needs_review';
  return 'passed';
}
