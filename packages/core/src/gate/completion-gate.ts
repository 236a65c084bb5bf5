/**
 * The completion gate: a run that changed the workspace completes only
 * with a passed verification report bound to the *current* digest of its changes, or a host
 * waiver of that digest. Reports from a host `CompletionAttestor` are merged first. Assistant
 * text is never evidence: the gate reads only the ledger, reports and waivers.
 */
import type { MutationLedger } from './mutation-ledger.js';
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

  /** The verdict for `ledger`, considering only evidence bound to its exact digest. */
  evaluate(ledger: MutationLedger, canContinue: boolean): GateDecision {
    if (ledger.digest === null) return { decision: 'allow', completion: 'narrative' };
    const digest = ledger.digest;
    const report = [...this.#reports].reverse().find((r) => r.effect_digest === digest && r.status === 'passed');
    if (report) return { decision: 'allow', completion: 'verified', report };
    const waiver = [...this.#waivers].reverse().find((w) => w.digest === digest);
    if (waiver) return { decision: 'allow', completion: 'waived', waiver };
    const bound = this.#reports.filter((r) => r.effect_digest === digest);
    const reason =
      bound.length > 0
        ? `the latest verification of these changes is '${bound.at(-1)!.status}', not 'passed'`
        : this.#reports.length > 0
          ? 'no verification report covers the current changes (earlier reports are for other changes)'
          : 'the changes have not been verified';
    return { decision: canContinue ? 'continue' : 'incomplete', digest, reason };
  }
}
