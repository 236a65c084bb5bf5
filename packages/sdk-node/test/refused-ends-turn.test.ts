// A call a person refuses ends the turn: the run says so (`endedBy: 'refused'`, `ended_by` on
// `agent_end`) rather than passing the words the model said with its calls off as its answer, and
// the calls after the refused one never run.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { tempRepo } from './kit.js';

describe('a refused call', () => {
  it('PARK-06: ends the run with endedBy refused; the refused call and the calls after it in the turn do not run', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    const model = new ScriptedLlmClient([
      {
        text: 'Let me clean up and read the notes.',
        tool_calls: [
          { id: 'b1', name: 'bash', args: { command: 'rm notes.txt' } },
          { id: 'r1', name: 'read', args: { file_path: 'notes.txt' } },
        ],
      },
      { text: 'final answer' },
    ]);
    const agent = await Agent.create({ model });
    const s = await agent.session(dir, { onConfirm: async () => ({ approved: false, reason: 'no deleting' }) });
    try {
      const run = s.stream('tidy up');
      const ends: unknown[] = [];
      const started: string[] = [];
      for await (const e of run) {
        if (e.type === 'agent_end') ends.push(e.payload);
        if (e.type === 'tool_start') started.push(e.toolName ?? '');
      }
      const r = await run.result;
      expect(r).toMatchObject({ status: 'completed', endedBy: 'refused', toolCalls: 0, deniedCalls: 1 });
      expect(ends).toEqual([expect.objectContaining({ ended_by: 'refused' })]);
      expect(started).toEqual([]);
      expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('hello');
      // The next message is a plain answer again.
      const next = await s.send('never mind');
      expect(next.endedBy).toBe('answer');
    } finally {
      await agent.close();
    }
  });
});
