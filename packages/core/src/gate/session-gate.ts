/**
 * The completion gate of one session: the run's mutation ledger read from the log, the
 * verification reports and waivers, the host's attestor, and the continuation budget.
 */
import { A3sError, type Fact } from '@a3s-code/effect';
import { VerificationLedger, type CompletionAttestor, type GateDecision } from './completion-gate.js';
import {
  ledgerOf,
  runEnded,
  runStartIndex,
  type LedgerEntry,
  type MutationLedger,
  type TierOf,
} from './mutation-ledger.js';
import { runRefusals } from './run-refusals.js';
import type { VerificationReport } from './verification-report.js';

/** A run changed the workspace and nothing verified or waived the change. */
export class CompletionIncompleteError extends A3sError {
  /** The effect digest nobody verified. */
  readonly digest: string;
  constructor(digest: string, reason: string) {
    super(
      'COMPLETION_INCOMPLETE',
      `the run changed the workspace but cannot complete: ${reason} (effect digest ${digest.slice(0, 12)}…); verify the changes (verifyCommands or the verify tool) or waive this digest`,
      {
        details: { effect_digest: digest, reason },
      },
    );
    this.digest = digest;
  }
}

/** Gate settings of a session. */
export interface GateOptions {
  /** Produces reports from outside the run; merged before every decision. */
  readonly attestor?: CompletionAttestor;
  /** Ask the model to continue (verify) instead of failing at once. Default: enabled, 3 turns. */
  readonly continuation?: { readonly enabled?: boolean; readonly maxTurns?: number };
  /**
   * Checks the host requires: every report the `verify` tool makes also runs these (after the
   * model's own commands, each required), so a model cannot pass the gate with checks of its
   * own choosing alone (`true`). Ids appear in the report as `host.<id>`.
   */
  readonly requiredChecks?: readonly RequiredCheck[];
}

/** A check the host requires in every `verify` report. */
export interface RequiredCheck {
  /** 1..64 of letters, digits, `.`, `_`, `-`; the report names it `host.<id>`. */
  readonly id: string;
  /** Shell command; exit code 0 passes. */
  readonly command: string;
  /** `test`, `typecheck`, `lint`, `build`, ... */
  readonly kind?: string;
  readonly description?: string;
  /** 1000..3,600,000 ms. Default 120000. */
  readonly timeoutMs?: number;
}

/** The gate bound to a session's log and tool tiers. */
export class SessionGate {
  readonly verification: VerificationLedger;
  /** The gates of child runs (sub-agents, workers) on their own logs, by run id. */
  readonly #children = new Map<string, SessionGate>();
  /** Settles when each adopted child run ends, by run id. */
  readonly #ends = new Map<string, Promise<void>>();
  /** Outcomes of background children: the changes an unknown-change digest stands for, and when they became known. */
  readonly #resolved = new Map<string, { readonly entries: readonly LedgerEntry[]; readonly n: number }>();
  /** How many outcomes were known at each run's latest decision (the ledger of an ended run stops there). */
  readonly #decidedAt = new Map<string, number>();
  /** Unknown-change digests of background children still at work. */
  readonly #pending = new Set<string>();
  #known = 0;

  constructor(
    private readonly facts: () => readonly Fact[],
    private readonly tierOf: TierOf,
    private readonly options: GateOptions = {},
    reports: readonly VerificationReport[] = [],
  ) {
    this.verification = new VerificationLedger(reports);
  }

  /**
   * Makes `gate` the gate of run `runId` (a child run on its own log), so that `verify` inside it
   * binds its report to the child's changes and records it where the child's completion is
   * decided. Returns the remover.
   */
  adopt(runId: string, gate: SessionGate): () => void {
    this.#children.set(runId, gate);
    let ended!: () => void;
    this.#ends.set(runId, new Promise<void>((resolve) => (ended = resolve)));
    return () => {
      if (this.#children.get(runId) === gate) {
        this.#children.delete(runId);
        this.#ends.delete(runId);
      }
      ended();
    };
  }

  /** For an adopted child run that is going: a promise that settles when it ends (its remover runs). */
  childEnded(runId: string): Promise<void> | undefined {
    return this.#ends.get(runId);
  }

  /** The gate that decides run `runId`: an adopted child's, else this one. */
  forRun(runId: string): SessionGate {
    return this.#children.get(runId)?.forRun(runId) ?? this;
  }

  /** The checks the host requires in every `verify` report (none by default). */
  get requiredChecks(): readonly RequiredCheck[] {
    return this.options.requiredChecks ?? [];
  }

  /** Continuation turns allowed per run, 0..10. */
  get maxContinuations(): number {
    const c = this.options.continuation;
    return c?.enabled === false ? 0 : (c?.maxTurns ?? 3);
  }

  /**
   * Records what the change with unknown paths `digest` stands for: the changes a background
   * child (a worker) made, now that its run has ended. A run's ledger uses it while the run is
   * going and, once the run has ended, only if it was known at the run's last gate decision: a
   * child still running when its run ended stays "changed, paths unknown". Only digests of
   * unknown changes (`unknown:<ref>`) can be resolved.
   */
  resolveUnknown(digest: string, entries: readonly LedgerEntry[]): void {
    if (!digest.startsWith('unknown:')) return;
    this.#pending.delete(digest);
    this.#resolved.set(digest, { entries: [...entries], n: ++this.#known });
  }

  /**
   * Records that the change with unknown paths `digest` stands for a background child still at
   * work (a worker that may change files): until {@link resolveUnknown} settles it, no
   * verification can complete a run whose ledger holds it.
   */
  expectResolution(digest: string): void {
    if (digest.startsWith('unknown:') && !this.#resolved.has(digest)) this.#pending.add(digest);
  }

  /** Why `ledger` is not final yet: a background child of the run is still at work. */
  #inProgress(ledger: MutationLedger): string | undefined {
    const n = ledger.entries.filter((e) => this.#pending.has(e.digest)).length;
    if (n === 0) return undefined;
    return `${n} background worker(s) started in this run ${n === 1 ? 'is' : 'are'} still running, so the changes are not final and no verification can cover them: wait for the worker(s) to end (vibe_wait) or stop them, then verify again`;
  }

  /** The changes of run `runId` so far (empty for an unknown run). */
  ledger(runId: string): MutationLedger {
    const facts = this.facts();
    const start = runStartIndex(facts, runId);
    if (start < 0) return { entries: [], digest: null };
    const upTo = runEnded(facts, start, runId) ? (this.#decidedAt.get(runId) ?? 0) : this.#known;
    return ledgerOf(facts, start, this.tierOf, (digest) => {
      const r = this.#resolved.get(digest);
      return r !== undefined && r.n <= upTo ? r.entries : undefined;
    });
  }

  /**
   * Every change the session's model calls recorded so far (core-internal): those of each run in
   * the log, nested and delegated ones included, and those of the child runs still at work on
   * their own logs. Host calls are not in the log, so not here either.
   */
  modelChanges(): readonly LedgerEntry[] {
    const own = ledgerOf(this.facts(), 0, this.tierOf, (digest) => this.#resolved.get(digest)?.entries).entries;
    const children = [...new Set(this.#children.values())].filter((g) => g !== this);
    return [...own, ...children.flatMap((g) => g.modelChanges())];
  }

  /**
   * True when a model call of the session (nested and delegated ones included) ran a tool that
   * runs programs (`exec` tier: a command, a cell, a program): what those change is seen only
   * where the change record looks (core-internal).
   */
  modelRanPrograms(): boolean {
    const ran = this.facts().some((f) => {
      if (f.type !== 'tool.result') return false;
      return this.tierOf((f.payload as { name?: string }).name ?? '') === 'exec';
    });
    return ran || [...new Set(this.#children.values())].some((g) => g !== this && g.modelRanPrograms());
  }

  /** The id of the latest run in the log, or null. */
  latestRunId(): string | null {
    const facts = this.facts();
    for (let i = facts.length - 1; i >= 0; i--)
      if (facts[i]!.type === 'run.started') return (facts[i]!.payload as { run_id: string }).run_id;
    return null;
  }

  /**
   * The verdict at the end of a run: attestor first, then the evidence bound to the digest.
   * `unverifiable`, asked only before a continuation, says why the model could not verify
   * (nobody can approve the verify tool): the run is then not continued.
   */
  async decide(
    runId: string,
    sessionId: string,
    continuationsUsed: number,
    unverifiable?: () => Promise<string | undefined>,
  ): Promise<GateDecision> {
    this.#decidedAt.set(runId, this.#known);
    const ledger = this.ledger(runId);
    if (ledger.digest !== null && this.options.attestor) {
      const attested = await this.options.attestor.attest({ runId, sessionId, ledger });
      for (const r of attested === undefined ? [] : Array.isArray(attested) ? attested : [attested])
        this.verification.addReport({ ...(r as VerificationReport), source: 'attestor' });
    }
    const canContinue = continuationsUsed < this.maxContinuations;
    const plain = { runId, inProgress: this.#inProgress(ledger) };
    const first = this.verification.evaluate(ledger, canContinue, plain);
    if (first.decision === 'allow') return first;
    // Only a run that cannot complete yet has its refusals read (a scan of its facts).
    const facts = this.facts();
    const scope = { ...plain, refusals: runRefusals(facts, runStartIndex(facts, runId)) };
    const decision = this.verification.evaluate(ledger, canContinue, scope);
    const why = decision.decision === 'continue' ? await unverifiable?.() : undefined;
    return why === undefined
      ? decision
      : this.verification.evaluate(ledger, canContinue, { ...scope, unverifiable: why });
  }

  /** True when the run may end now without another model call: verified or waived. */
  allowsEarlyEnd(runId: string): boolean {
    const ledger = this.ledger(runId);
    const d = this.verification.evaluate(ledger, false, { runId, inProgress: this.#inProgress(ledger) });
    return d.decision === 'allow' && d.completion !== 'narrative';
  }
}

/** The continuation message the gate appends when the model must verify. */
export function continuationText(digest: string, reason: string): string {
  return [
    `The workspace changed in this run (effect digest ${digest.slice(0, 12)}…), but ${reason}.`,
    'Verify the changes now: run the relevant checks with the verify tool (tests, type checks, builds). Your own statement that they pass does not count.',
    'If a check fails, fix the cause and verify again.',
    'A passing verification ends the run with no further turn, so write your final answer for the person in the same message as the verify call.',
  ].join(' ');
}
