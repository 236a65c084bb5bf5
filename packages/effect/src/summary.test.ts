import { describe, expect, it } from 'vitest';
import { Facts } from '../test/kit.js';
import { formatSummary } from './format.js';
import { summarizeLog } from './summary.js';

describe('summarizeLog', () => {
  it('reports runs, turns, phase timeline, tools by name, usage, denials, errors and parked state', () => {
    const f = new Facts()
      .add('run.started', { run_id: 'r1', at_ms: 1000 })
      .user('go')
      .calls({ id: 'a', name: 'read' }, { id: 'b', name: 'bash' })
      .result('a', true, 'read')
      .add('tool.result', {
        tool_call_id: 'b',
        name: 'bash',
        ok: false,
        output: 'exit 2',
        exit_code: 2,
        metadata: { duration_ms: 40 },
      })
      .text('done')
      .add('run.ended', { status: 'completed', run_id: 'r1', completion: 'narrative', at_ms: 1600 })
      .add('run.started', { run_id: 'r2', at_ms: 2000 })
      .user('again')
      .add('run.ended', {
        status: 'failed',
        run_id: 'r2',
        error: { code: 'BUDGET_EXHAUSTED', message: 'no tokens left' },
        at_ms: 2100,
      })
      .add('run.started', { run_id: 'r3' })
      .user('dangerous')
      .calls({ id: 'z', name: 'bash', needs_confirmation: true });
    const s = summarizeLog(f.list);
    expect(s.runs).toEqual([
      { run_id: 'r1', status: 'completed', started_seq: 1, ended_seq: 7, completion: 'narrative', duration_ms: 600 },
      { run_id: 'r2', status: 'failed', started_seq: 8, ended_seq: 10, completion: null, duration_ms: 100 },
      { run_id: 'r3', status: 'running', started_seq: 11, ended_seq: null, completion: null, duration_ms: null },
    ]);
    expect(s.turns).toBe(3);
    expect(s.tools).toEqual({
      total: 2,
      ok: 1,
      failed: 1,
      by_name: {
        read: { calls: 1, ok: 1, failed: 0, duration_ms: 0 },
        bash: { calls: 1, ok: 0, failed: 1, duration_ms: 40 },
      },
    });
    expect(s.errors).toEqual([{ seq: 10, code: 'BUDGET_EXHAUSTED', message: 'no tokens left' }]);
    expect(s.parked).toEqual({ phase: 'confirm', tool_call_id: 'z', tool_name: 'bash' });
    expect(s.final_phase).toBe('confirm');
    expect(s.phase_timeline.map((t) => t.phase)).toEqual([
      'idle',
      'infer',
      'tool',
      'infer',
      'done',
      'idle',
      'infer',
      'idle',
      'infer',
      'confirm',
    ]);
    expect(s.usage).toEqual({ input_tokens: 30, output_tokens: 15 });
    expect(s.duration_ms).toBe(1100);
    const text = formatSummary(s);
    expect(text).toContain('run r1: completed (narrative) in 600 ms');
    expect(text).toContain('parked: waiting for confirmation of bash (z)');
    expect(text).toContain('error at seq 10: BUDGET_EXHAUSTED: no tokens left');
  });

  it('does not count facts the fold ignored as answers or results', () => {
    const f = new Facts()
      .user('go')
      .result('ghost')
      .add('confirmation.answered', { tool_call_id: 'ghost', approved: true });
    const s = summarizeLog(f.list);
    expect(s.tools.total).toBe(0);
    expect(s.confirmations).toEqual({ approved: 0, refused: 0 });
    expect(s.ignored).toBe(2);
  });

  it('a call left without a result is listed: the log ending while it was due, or its run ending first', () => {
    const f = new Facts()
      .add('run.started', { run_id: 'r1' })
      .user('go')
      .calls({ id: 'a', name: 'read' }, { id: 'b', name: 'bash' })
      .result('a', true, 'read')
      .add('run.ended', { status: 'cancelled', run_id: 'r1', error: { code: 'SUPERSEDED', message: 'x' } })
      .add('run.started', { run_id: 'r2' })
      .user('again')
      .calls({ id: 'c', name: 'bash' });
    const s = summarizeLog(f.list);
    expect(s.tools.total).toBe(1);
    expect(s.unfinished_calls).toEqual([
      { tool_call_id: 'b', name: 'bash', run_id: 'r1', seq: 3, ended_by: 'run_ended' },
      { tool_call_id: 'c', name: 'bash', run_id: 'r2', seq: 8, ended_by: 'log_end' },
    ]);
    const text = formatSummary(s);
    expect(text).toContain('no result: bash (b) asked at seq 3 in run r1: its run ended before its result');
    expect(text).toContain('no result: bash (c) asked at seq 8 in run r2: the log ends while it was due');
    const whole = new Facts()
      .add('run.started', { run_id: 'r1' })
      .user('go')
      .calls({ id: 'a', name: 'read' })
      .result('a');
    expect(summarizeLog(whole.list).unfinished_calls).toBeUndefined();
  });
});
