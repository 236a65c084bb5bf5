import type { Fact } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { SessionGate } from './session-gate.js';
import type { VerificationReport } from './verification-report.js';

// The gate matrix (issue: Core III): workspace changed/unchanged × report passed/failed/stale/none
// × waiver/no waiver × attestor/no attestor, each decided by the real SessionGate over a log.
const changedLog = (changed: boolean): Fact[] => {
  const facts: Fact[] = [{ seq: 1, type: 'run.started', key: 'run:r', cause: null, payload: { run_id: 'r' } }];
  const metadata = changed
    ? { changes: [{ path: 'a.ts', action: 'modify', digest_after: 'sha256:1' }] }
    : { changed_paths: [] };
  facts.push({
    seq: 2,
    type: 'tool.result',
    key: 'tr',
    cause: 'tool:1:0:c',
    payload: { tool_call_id: 'c', name: 'edit', ok: true, output: '', exit_code: 0, metadata },
  });
  return facts;
};
const report = (
  status: VerificationReport['status'],
  digest: string | null,
  source: VerificationReport['source'] = 'commands',
): VerificationReport => ({
  schema: 'a3s.verification_report.v1',
  id: `vr-${status}-${String(digest).slice(0, 4)}`,
  subject: 's',
  status,
  checks: [],
  residual_risks: [],
  effect_digest: digest,
  run_id: 'r',
  created_at_ms: 0,
  source,
});

type ReportKind = 'passed' | 'failed' | 'stale' | 'none';
const cases: [boolean, ReportKind, boolean, boolean][] = [];
for (const changed of [false, true])
  for (const r of ['passed', 'failed', 'stale', 'none'] as const)
    for (const waiver of [false, true])
      for (const attestor of [false, true]) cases.push([changed, r, waiver, attestor]);

function expected(changed: boolean, r: ReportKind, waiver: boolean, attestor: boolean): string {
  if (!changed) return 'allow:narrative';
  if (r === 'passed' || attestor) return 'allow:verified';
  if (waiver) return 'allow:waived';
  return 'incomplete';
}

describe('completion gate matrix', () => {
  it.each(cases)('GATE-01..05: changed=%s report=%s waiver=%s attestor=%s', async (changed, r, waiver, attestor) => {
    const facts = changedLog(changed);
    const gate = new SessionGate(
      () => facts,
      () => 'write',
      {
        continuation: { enabled: false },
        ...(attestor
          ? { attestor: { attest: async ({ ledger }) => report('passed', ledger.digest, 'attestor') } }
          : {}),
      },
    );
    const digest = gate.ledger('r').digest;
    expect(digest === null).toBe(!changed);
    if (r === 'passed') gate.verification.addReport(report('passed', digest));
    if (r === 'failed') gate.verification.addReport(report('failed', digest));
    if (r === 'stale') gate.verification.addReport(report('passed', 'e'.repeat(64)));
    if (waiver && digest) gate.verification.waive(digest, 'host decision', 0);
    const d = await gate.decide('r', 's', 0);
    expect(d.decision === 'allow' ? `allow:${d.completion}` : d.decision).toBe(expected(changed, r, waiver, attestor));
  });

  it('GATE-05: with continuation turns left, an unverified change asks to continue instead', async () => {
    const facts = changedLog(true);
    const gate = new SessionGate(
      () => facts,
      () => 'write',
      { continuation: { maxTurns: 2 } },
    );
    expect((await gate.decide('r', 's', 0)).decision).toBe('continue');
    expect((await gate.decide('r', 's', 2)).decision).toBe('incomplete');
  });
});
