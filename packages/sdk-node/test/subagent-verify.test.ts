// A sub-agent that changes files answers to its own completion gate: its `verify` call must bind
// the report to the sub-agent's changes, so it completes verified instead of being asked to
// verify again and again.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session } from '../src/index.js';
import { tempRepo } from './kit.js';

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('sub-agent verification', () => {
  it('a writing sub-agent that verifies its change completes verified, in one verify call', async () => {
    const dir = tempRepo();
    const model = new ScriptedLlmClient([
      { tool_calls: [{ id: 'w1', name: 'write', args: { file_path: 'NOTE.md', content: 'noted\n' } }] },
      {
        text: 'Wrote the note.',
        tool_calls: [
          {
            id: 'v1',
            name: 'verify',
            args: { subject: 'note', commands: [{ id: 'cat', command: 'test -s NOTE.md' }] },
          },
        ],
      },
    ]);
    const agent = await Agent.create({ model });
    session = await agent.session(dir, { governance: { yolo: true } });
    const r = await session.task({ agent: 'general', description: 'write a note', prompt: 'Write NOTE.md.' });
    expect(r).toMatchObject({ status: 'completed' });
    expect(readFileSync(join(dir, 'NOTE.md'), 'utf8')).toBe('noted\n');
    // Two model calls: the write, then the verify that ended the run; no continuation was needed.
    expect(model.requests).toHaveLength(2);
  });
});
