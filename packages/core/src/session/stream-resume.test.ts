// streamResume: a parked run continues as a stream of events (like stream), with its result;
// describeSessionTools / toolDescriptors: the surface with capabilities, with and without a model.
import { describe, expect, it } from 'vitest';
import { createTestToolPack, ScriptedConfirmationManager } from '../testing/index.js';
import { closeAfterEach, open, workspace } from '../../test/session-kit.js';
import { describeSessionTools } from './describe-tools.js';

const { sessions } = closeAfterEach();

describe('AgentSession.streamResume', () => {
  it('streams the resumed run: the parked tool runs once, events end with agent_end, .result settles', async () => {
    const { session, state } = await open(
      [{ tool_calls: [{ id: 'w1', name: 'echo', args: { text: 'hi' } }] }, { text: 'written' }],
      {
        permissions: { ask: ['echo'], defaultDecision: 'allow' },
        confirmation: new ScriptedConfirmationManager(),
        parkMode: 'return',
      },
    );
    sessions.push(session);
    const parked = await session.send('write');
    expect(parked.status).toBe('parked');
    await session.confirmToolUse('w1', true);
    const stream = session.streamResume();
    await expect(session.send('overlap')).rejects.toThrow(/busy/i);
    const events = [];
    for await (const ev of stream) events.push(ev);
    expect(events.find((e) => e.type === 'tool_end')).toMatchObject({ toolName: 'echo' });
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', text: 'written' });
    expect(await stream.result).toMatchObject({ status: 'completed', runId: parked.runId });
    expect(state.executions.map((e) => e.tool)).toEqual(['echo']);
    // A quiescent log: the stream ends at once and the lease is released.
    const again = session.streamResume();
    for await (const _ of again) void _;
    expect((await again.result).steps).toBe(0);
  });
});

describe('tool descriptors', () => {
  it('toolDescriptors carries static capabilities and requires; describeSessionTools lists the same surface without a model', async () => {
    const { session } = await open([], { governance: { mode: 'plan' } });
    sessions.push(session);
    const live = session.toolDescriptors();
    expect(live.map((d) => d.name)).toEqual(session.toolNames());
    expect(live.find((d) => d.name === 'verify')).toBeUndefined();
    expect(live.find((d) => d.name === 'program')).toMatchObject({
      tier: 'read',
      capabilities: { maxParallelism: 8, readOnly: false },
      requires: [],
    });
    expect('execute' in live[0]!).toBe(false);

    const ws = workspace();
    const test = createTestToolPack();
    const described = await describeSessionTools(
      ws.dir,
      { tools: [test.pack], workspace: ws.services, permissions: { deny: ['echo'] } },
      {},
    );
    const names = described.map((d) => d.name);
    // No question handler and no parkMode 'return': nobody could answer, so no ask_user.
    expect(names.slice(0, 4)).toEqual(['batch', 'program', 'verify', 'generate_object']);
    expect(names).not.toContain('echo');
    expect(described.find((d) => d.name === 'verify')?.capabilities).toMatchObject({
      maxParallelism: expect.any(Number),
    });
    await expect(describeSessionTools(ws.dir, {}, { parkMode: 'nope' } as never)).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
    });
  });
});
