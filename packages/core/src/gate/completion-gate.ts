/**
 * The completion gate: a run that changed the workspace completes only
 * with a passed verification report bound to the *current* digest of its changes, or a host
 * waiver of that digest. Reports from a host `CompletionAttestor` are merged first. Assistant
 * text is never evidence: the gate reads only the ledger, reports and waivers.
 */
import { isInterruptedChange } from './change-record.js';
import type { MutationLedger } from './mutation-ledger.js';
import type { RunRefusals } from './run-refusals.js';
import type { VerificationReport } from './verification-report.js';

/** The completion verdict recorded on a completed run. */
export type Completion = 'verified' | 'waived' | 'narrative';

/** What the gate decides. */
export type GateDecision =
  | {
      readonly decision: 'allow';
      readonly completion: Completion;
      readonly report?: VerificationReport;
      readonly waiver?: CompletionWaiver;
    }
  | { readonly decision: 'continue' | 'incomplete'; readonly digest: string; readonly reason: string };

/** A host waiver: completion without verification, for exactly one digest. */
export interface CompletionWaiver {
  readonly digest: string;
  readonly reason: string;
  readonly at_ms: number;
}

/** Produces reports from outside the run (CI results, a reviewer's sign-off), merged before deciding. */
export interface CompletionAttestor {
  attest(request: {
    readonly runId: string;
    readonly sessionId: string;
    readonly ledger: MutationLedger;
  }): Promise<VerificationReport | readonly VerificationReport[] | undefined>;
}

/** A session's verification reports and waivers. */
export class VerificationLedger {
  readonly #reports: VerificationReport[] = [];
  readonly #waivers: CompletionWaiver[] = [];

  constructor(reports: readonly VerificationReport[] = [], waivers: readonly CompletionWaiver[] = []) {
    this.#reports.push(...reports);
    this.#waivers.push(...waivers);
  }

  /** Every report, oldest first. */
  get reports(): readonly VerificationReport[] {
    return [...this.#reports];
  }

  /** Every waiver, oldest first. */
  get waivers(): readonly CompletionWaiver[] {
    return [...this.#waivers];
  }

  addReport(report: VerificationReport): void {
    this.#reports.push(report);
  }

  waive(digest: string, reason: string, atMs: number): CompletionWaiver {
    const w = { digest, reason, at_ms: atMs };
    this.#waivers.push(w);
    return w;
  }

  /**
   * The verdict for `ledger`, considering only evidence bound to its exact digest and, with
   * `scope.runId`, made for that run (a report of another run, `run_id` set and different, does
   * not count even for the same digest: it checked the workspace as it was then). `scope.inProgress`
   * says why the ledger is not final yet (a background worker of the run still changing files):
   * no report can then verify it, since it checked a state that is still changing. `scope.refusals`
   * (the run's refused re-runs and verify calls) and `scope.unverifiable` (why the model cannot
   * verify) are named in the reason.
   */
  evaluate(
    ledger: MutationLedger,
    canContinue: boolean,
    scope: {
      readonly runId?: string;
      readonly inProgress?: string;
      readonly refusals?: RunRefusals;
      readonly unverifiable?: string;
    } = {},
  ): GateDecision {
    if (ledger.digest === null) return { decision: 'allow', completion: 'narrative' };
    const digest = ledger.digest;
    const { runId, inProgress } = scope;
    const reports = this.#reports.filter(
      (r) => runId === undefined || r.run_id === null || r.run_id === undefined || r.run_id === runId,
    );
    const report =
      inProgress === undefined
        ? [...reports].reverse().find((r) => r.effect_digest === digest && r.status === 'passed')
        : undefined;
    if (report) return { decision: 'allow', completion: 'verified', report };
    const waiver = [...this.#waivers].reverse().find((w) => w.digest === digest);
    if (waiver) return { decision: 'allow', completion: 'waived', waiver };
    const bound = reports.filter((r) => r.effect_digest === digest);
    const reason =
      inProgress !== undefined
        ? inProgress
        : bound.length > 0
          ? `the latest verification of these changes is '${bound.at(-1)!.status}', not 'passed'`
          : this.#reports.some((r) => r.effect_digest === digest)
            ? 'the only verification reports for these changes were made in another run, which checked the workspace as it was then'
            : this.#reports.length > 0
              ? 'no verification report covers the current changes (earlier reports are for other changes)'
              : 'the changes have not been verified';
    const blocked = scope.unverifiable ?? verifyRefused(scope.refusals);
    return {
      decision: canContinue && blocked === undefined ? 'continue' : 'incomplete',
      digest,
      reason: reason + interruptedNote(ledger, scope.refusals) + (blocked === undefined ? '' : `; ${blocked}`),
    };
  }
}

/** Why asking the model to verify again cannot help: its last `verify` call was refused for want of an approver. */
function verifyRefused(refusals: RunRefusals | undefined): string | undefined {
  if (refusals?.verify === undefined) return undefined;
  return `the verify tool was refused (${refusals.verify}): nobody can approve a verification in this session, so the model is not asked again; open the session with an approver (onConfirm) or allow the verify tool in its permissions`;
}

/** What a reason adds when the changes include calls a crash interrupted (their paths are unknown). */
function interruptedNote(ledger: MutationLedger, refusals: RunRefusals | undefined): string {
  const tools = [...new Set(ledger.entries.filter((e) => isInterruptedChange(e.digest)).map((e) => e.tool))];
  if (tools.length === 0) return '';
  const refused = (refusals?.reruns ?? []).filter((r) => tools.includes(r.tool));
  const rerun =
    refused.length === 0
      ? 're-run on resume; paths unknown'
      : `paths unknown; ${refused.map((r) => `the re-run of '${r.tool}' (call ${r.callId}) on resume was refused (${r.why}), so it did not run again`).join('; ')}`;
  return `; they include what ${tools.map((t) => `'${t}'`).join(', ')} may have changed before the process stopped while it ran (${rerun})`;
}
