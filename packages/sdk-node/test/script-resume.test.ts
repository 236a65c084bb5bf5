// A `scripted:<file>` model answers the calls of its own process from its first turn, also on a
// resumed session (another agent, as `a3s sessions --resume` is): the script given to a resumed
// session holds the turns after those its log records. When such a script runs out, the error
// says so. A client the host made itself is left as the host made it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent, type ConfirmationManager } from '../src/index.js';
import { tempRepo } from './kit.js';

const TURNS = [
  { text: 'Listing.', tool_calls: [{ id: 'l1', name: 'ls', args: {} }] },
  { text: 'Reading it.', tool_calls: [{ id: 'r1', name: 'read', args: { file_path: 'src/range.js' } }] },
  { text: 'Read it.' },
];

/** A confirmation manager nobody answers: the run parks and the host answers with confirmToolUse. */
const hostAnswers: ConfirmationManager = {
  confirm: (_r, signal) =>
    new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
};
const allowed = { permissions: { allow: ['ls', 'read'] } } as const;
const asked = { confirmation: hostAnswers, parkMode: 'return', permissions: { allow: ['ls'], ask: ['read'] } } as const;

function scriptOf(dir: string, turns: readonly object[]): string {
  const file = join(dir, '..', `script-${Date.now()}-${Math.random()}.json`);
  writeFileSync(file, JSON.stringify({ turns }));
  return file;
}

describe('a scripted model file, resumed', () => {
  it('a parked run resumed by a new agent with a script of the remaining turns completes', async () => {
    const dir = tempRepo();
    const first = await (await Agent.create({ model: `scripted:${scriptOf(dir, TURNS)}` })).session(dir, {
      sessionId: 'go-on',
      ...asked,
    });
    const parked = await first.send('read it');
    expect(parked).toMatchObject({ status: 'parked', parked: { kind: 'confirm', toolId: 'r1' } });
    await first.close();

    const agent = await Agent.create({ model: `scripted:${scriptOf(dir, TURNS.slice(2))}` });
    const again = await agent.session(dir, { sessionId: 'go-on', ...asked });
    try {
      await again.confirmToolUse('r1', true);
      expect(await again.resumeRun()).toMatchObject({ status: 'completed', text: 'Read it.' });
    } finally {
      await again.close();
    }
  });

  it('the whole script given again to a resumed session runs out with an error that says how to continue', async () => {
    const dir = tempRepo();
    const model = `scripted:${scriptOf(dir, TURNS)}`;
    const first = await (await Agent.create({ model })).session(dir, { sessionId: 'again', ...allowed });
    expect(await first.send('read it')).toMatchObject({ status: 'completed', text: 'Read it.' });
    await first.close();
    const again = await (await Agent.create({ model })).session(dir, { sessionId: 'again', ...allowed });
    try {
      expect(await again.send('once more')).toMatchObject({ status: 'completed', text: 'Read it.' });
      const exhausted = await again.send('and again').catch((e: unknown) => e);
      expect(exhausted).toMatchObject({
        code: 'SCRIPT_EXHAUSTED',
        message: expect.stringContaining(
          "the model was called for turn 4, but the script has only 3 turn(s); it plays from its first turn in each process, and the session's log had 3 model turn(s) when it was opened: to continue a session, give a script of the turns after those",
        ),
      });
    } finally {
      await again.close();
    }
  });

  it('a client the host made says nothing of the log', async () => {
    const dir = tempRepo();
    const one = await (await Agent.create({ model: `scripted:${scriptOf(dir, TURNS)}` })).session(dir, {
      sessionId: 'host',
      ...allowed,
    });
    expect((await one.send('read')).status).toBe('completed');
    await one.close();
    const client = new ScriptedLlmClient([{ text: 'host turn' }]);
    const again = await (await Agent.create({ model: client })).session(dir, { sessionId: 'host' });
    try {
      expect(await again.send('next')).toMatchObject({ status: 'completed', text: 'host turn' });
      const e = await again.send('more').catch((x: unknown) => x);
      expect((e as Error).message).toMatch(/the script has only 1 turn\(s\)$/);
    } finally {
      await again.close();
    }
  });
});
