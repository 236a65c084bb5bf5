/**
 * The per-run diagnostics ledger: what diagnostics-on-write already reported in a run, keyed by
 * (severity, code, message) and deliberately not by position, so a known diagnostic that only
 * moves is not reported again. A new run starts empty.
 */
import type { LspDiagnostic } from './protocol.js';

const RUNS = 8;

/** The key of a diagnostic in the ledger. */
export function ledgerKey(d: LspDiagnostic): string {
  return `${d.severity ?? 1}\u0000${d.code ?? ''}\u0000${d.message}`;
}

/** Reported diagnostic keys per run (the last few runs are kept). */
export class DiagnosticsLedger {
  readonly #runs = new Map<string, Set<string>>();

  /** Returns the diagnostics of `list` not yet reported in `runId` and records them as reported. */
  fresh(runId: string, list: readonly LspDiagnostic[]): LspDiagnostic[] {
    let seen = this.#runs.get(runId);
    if (seen === undefined) {
      seen = new Set();
      this.#runs.set(runId, seen);
      if (this.#runs.size > RUNS) this.#runs.delete(this.#runs.keys().next().value!);
    }
    const out: LspDiagnostic[] = [];
    for (const d of list) {
      const k = ledgerKey(d);
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(d);
    }
    return out;
  }
}
