import { FactLog } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import {
  attemptsOf,
  completedDraft,
  failedDraft,
  foreignRunReason,
  recoverDynamicWorkflowStepOutput,
  startedDraft,
  type AttemptIdentity,
} from './step-record.js';

const key = { runId: 'run-1', query: 'fix the bug', stepId: 'plan', stepDigest: 'd1', sessionId: 's1' };

function log(...attempts: [AttemptIdentity, 'started' | 'completed' | 'failed'][]): FactLog {
  const l = new FactLog();
  for (const [a, what] of attempts) {
    if (what === 'started') l.append([startedDraft(a, 'generate_object', 1)], null);
    else if (what === 'completed') l.append([completedDraft(a, { plan: a.attempt }, [], 5, 2)], null);
    else l.append([failedDraft(a, { code: 'X', message: 'boom' }, 3)], null);
  }
  return l;
}

describe('recoverDynamicWorkflowStepOutput', () => {
  it('DWF-07: recovers a completed step only when run id, original query and step id all match', () => {
    const a1 = { ...key, attempt: 1 };
    const facts = log([a1, 'started'], [a1, 'completed']).facts;
    expect(recoverDynamicWorkflowStepOutput(facts, key)).toEqual({ output: { plan: 1 }, attempt: 1, changes: [] });
    expect(recoverDynamicWorkflowStepOutput(facts, { ...key, runId: 'run-2' })).toBeUndefined();
    expect(recoverDynamicWorkflowStepOutput(facts, { ...key, query: 'fix the bug ' })).toBeUndefined();
    expect(recoverDynamicWorkflowStepOutput(facts, { ...key, stepId: 'implement' })).toBeUndefined();
    // A different definition of the step is not recovered either; without a digest it is.
    expect(recoverDynamicWorkflowStepOutput(facts, { ...key, stepDigest: 'd2' })).toBeUndefined();
    const { stepDigest: _digest, ...withoutDigest } = key;
    expect(recoverDynamicWorkflowStepOutput(facts, withoutDigest)?.output).toEqual({ plan: 1 });
  });

  it('DWF-08: never promotes an unfinished or failed attempt, nor an older success behind a newer start', () => {
    const a1 = { ...key, attempt: 1 };
    const a2 = { ...key, attempt: 2 };
    expect(recoverDynamicWorkflowStepOutput(log([a1, 'started']).facts, key)).toBeUndefined();
    expect(recoverDynamicWorkflowStepOutput(log([a1, 'started'], [a1, 'failed']).facts, key)).toBeUndefined();
    // Completed once, then started again and never finished: the latest attempt decides.
    expect(
      recoverDynamicWorkflowStepOutput(log([a1, 'started'], [a1, 'completed'], [a2, 'started']).facts, key),
    ).toBeUndefined();
    // The crashed first attempt, then a completed second: the second is recovered.
    expect(
      recoverDynamicWorkflowStepOutput(log([a1, 'started'], [a2, 'started'], [a2, 'completed']).facts, key)?.attempt,
    ).toBe(2);
    expect(attemptsOf(log([a1, 'started'], [a2, 'started']).facts, key)).toBe(2);
  });

  it('DWF-08: the log of another query is no cache for this one', () => {
    const other = { ...key, query: 'add a feature', attempt: 1 };
    const facts = log([other, 'started'], [other, 'completed']).facts;
    expect(recoverDynamicWorkflowStepOutput(facts, key)).toBeUndefined();
    expect(attemptsOf(facts, key)).toBe(0);
  });

  it("DWF-08: another session's record of the same run is no cache for this one", () => {
    const a1 = { ...key, attempt: 1 };
    const facts = log([a1, 'started'], [a1, 'completed']).facts;
    expect(recoverDynamicWorkflowStepOutput(facts, { ...key, sessionId: 's2' })).toBeUndefined();
    expect(foreignRunReason(facts, 's1')).toBeUndefined();
    expect(foreignRunReason(facts, 's2')).toBe('it was started by another session');
    expect(foreignRunReason([], 's2')).toBeUndefined();
    // A record that names no session (written before sessions were recorded) belongs to none.
    const l = new FactLog();
    l.append(
      [{ type: 'workflow.step_started', key: 'k', payload: { run_id: 'run-1', step_id: 'plan', attempt: 1 } }],
      null,
    );
    expect(foreignRunReason(l.facts, 's1')).toBe('its log does not record which session started it');
  });
});
