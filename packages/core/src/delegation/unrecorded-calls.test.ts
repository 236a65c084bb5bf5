import type { Fact } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import type { EventEnvelopeV1 } from '../events/event-envelope.js';
import { CallWatch } from './unrecorded-calls.js';

const ev = (type: string, payload: Record<string, unknown>) => ({ type, payload }) as unknown as EventEnvelopeV1;
const fact = (seq: number, type: string, payload: Record<string, unknown>, cause: string | null = null): Fact =>
  ({ seq, type, key: `${type}:${seq}`, cause, payload }) as Fact;
const tiers = (name: string) => (name === 'peek' ? 'read' : name === 'write' ? 'write' : undefined);
const started = [fact(1, 'run.started', { run_id: 'r1' })];

describe('the calls of a child run that no result records', () => {
  it('a nested call reusing the id of its top-level call does not end it: the top-level call, still running, is an unknown change', () => {
    const w = new CallWatch();
    w.observe(ev('tool_start', { id: 'x', name: 'write', depth: 0 }));
    w.observe(ev('tool_start', { id: 'x', name: 'peek', depth: 1 }));
    w.observe(ev('tool_end', { id: 'x', name: 'peek', metadata: {} }));
    expect(w.unrecorded(started, 'r1', tiers, 't')).toEqual([
      { path: '(unknown)', digest_after: expect.stringMatching(/^unknown:t:x#/) },
    ]);
  });

  it('a call that ended reports the record the kernel gave it; one whose result is in the log reports nothing here', () => {
    const w = new CallWatch();
    const record = [{ call_id: 'a', tool: 'write', path: 'f.txt', digest: 'sha256:1' }];
    w.observe(ev('tool_start', { id: 'a', name: 'write', depth: 0 }));
    w.observe(ev('tool_end', { id: 'a', name: 'write', metadata: { change_record: record } }));
    w.observe(ev('tool_start', { id: 'b', name: 'write', depth: 0 }));
    w.observe(ev('tool_end', { id: 'b', name: 'write', metadata: { change_record: record } }));
    const facts = [...started, fact(2, 'tool.result', { tool_call_id: 'b', name: 'write', ok: true }, 'tool:1:0:b')];
    expect(w.unrecorded(facts, 'r1', tiers, 't')).toEqual([{ path: 'f.txt', digest_after: 'sha256:1' }]);
  });

  it('a read call that started is no change; one whose event was cut short with a record is an unknown change', () => {
    const w = new CallWatch();
    w.observe(ev('tool_start', { id: 'p', name: 'peek', depth: 0 }));
    w.observe(ev('tool_start', { id: 'q', name: 'peek', depth: 0 }));
    w.observe(
      ev('tool_end', { id: 'q', metadata: { preview: '{"change_record":[{"call_id"…' }, metadata_truncated: true }),
    );
    expect(w.unrecorded(started, 'r1', tiers, 't')).toEqual([
      { path: '(unknown)', digest_after: expect.stringMatching(/^unknown:t:q#/) },
    ]);
  });
});
