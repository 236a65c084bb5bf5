import { describe, expect, it } from 'vitest';
import { drafts } from './drafts.js';
import { validatePayload } from './kind-validators.js';

// The host's facts are built here with the keys earlier logs already use: a resumed or replayed
// log must find the same keys, so these strings are a compatibility promise.
describe('host fact drafts', () => {
  it('keep the keys earlier logs use, and every payload is valid for its kind', () => {
    const built = [
      drafts.runStarted('r1', { model: 'scripted/demo', system: ['s'], tools: [], at_ms: 1 }),
      drafts.prompt('r1', 'fix it', 1),
      drafts.steer('r1', 2, 3, 'q7', 'also docs', 4),
      drafts.continuation('r1', 12, 'completion_gate', 'verify first', 'changed, not verified', 5),
      drafts.continuation('r1', 13, 'stop_hook', 'keep going', 'hook said so', 6),
      drafts.confirmationAnswered('r1', 'confirm:2:0', { tool_call_id: 'c1', approved: false, reason: 'no', at_ms: 7 }),
      drafts.questionAnswered('q1', 9, { question_id: 'q1', text: 'yes', at_ms: 8 }),
      drafts.runEnded('r1', { status: 'completed', completion: 'verified', at_ms: 9 }),
    ];
    expect(built.map((d) => d.key)).toEqual([
      'run:r1',
      'user:r1',
      'steer:r1:2:3:q7',
      'continuation:r1:12',
      'stop-hook:r1:13',
      'confirm:r1:confirm:2:0',
      'answer:q1:9',
      'end:r1',
    ]);
    for (const d of built) expect(() => validatePayload(d.type, d.payload)).not.toThrow();
    expect(built[0]!.payload).toMatchObject({ run_id: 'r1' });
    expect(Object.keys(built[7]!.payload)).toEqual(['status', 'run_id', 'completion', 'at_ms']);
    expect(built[3]!.payload).toEqual({
      text: 'verify first',
      source: 'continuation',
      origin: 'completion_gate',
      reason: 'changed, not verified',
      at_ms: 5,
    });
  });
});
