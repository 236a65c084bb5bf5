import { describe, expect, it } from 'vitest';
import { open, types, closeAfterEach } from '../../test/session-kit.js';

const { track } = closeAfterEach();

describe('AgentSession.send', () => {
  it('LOG-03: a text answer is a run of facts: run.started, user.message, model.turn, run.ended', async () => {
    const { session } = await track(open([{ text: 'Hello there.' }]));
    const r = await session.send('Say hello');
    expect(r).toMatchObject({
      status: 'completed',
      text: 'Hello there.',
      steps: 1,
      toolCalls: 0,
      completion: 'narrative',
    });
    expect(types(session)).toEqual(['run.started', 'user.message', 'model.turn', 'run.ended']);
  });

  it('runs tool calls through the kernel, then answers', async () => {
    const { session, state, model } = await track(
      open([
        {
          text: 'Computing.',
          tool_calls: [
            { id: 'c1', name: 'add', args: { a: 2, b: 3 } },
            { id: 'c2', name: 'echo', args: { text: 'hi' } },
          ],
        },
        { text: 'The sum is 5.' },
      ]),
    );
    const r = await session.send('Add 2 and 3');
    expect(r).toMatchObject({ status: 'completed', text: 'The sum is 5.', toolCalls: 2, steps: 4 });
    expect(state.executions.map((e) => [e.tool, e.source])).toEqual([
      ['add', 'agent'],
      ['echo', 'agent'],
    ]);
    const second = model.requests[1]!;
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(second.messages[2]).toMatchObject({ role: 'tool', toolCallId: 'c1', content: '5' });
    expect(model.requests[0]!.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['add', 'echo', 'batch']));
  });
});

describe('transition limit and budgets', () => {
  const toolTurn = (i: number) => ({ tool_calls: [{ id: `c${i}`, name: 'echo', args: { text: 'x' } }] });

  it('FOLD-06/FOLD-07: a run stops with STEP_LIMIT at 32 transitions; the 33rd never runs and run.ended records the failure', async () => {
    const { session, state } = await track(
      open(
        Array.from({ length: 40 }, (_, i) => toolTurn(i)),
        { toolBudget: 1000 },
      ),
    );
    const e = await session.send('loop forever').catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'STEP_LIMIT' });
    expect(state.executions).toHaveLength(16);
    const caused = session.store.log.facts.filter((f) => f.cause !== null).map((f) => f.cause);
    expect(new Set(caused).size).toBe(32);
    expect(session.store.log.facts.at(-1)).toMatchObject({
      type: 'run.ended',
      payload: { status: 'failed', error: { code: 'STEP_LIMIT' } },
    });
  });

  it("FOLD-07: a run the completion gate continued names the run's limit of 32 when it reaches it, not what was left", async () => {
    const write = { tool_calls: [{ id: 'w', name: 'write_note', args: { path: 'n.txt', content: 'x' } }] };
    const { session } = await track(
      open([write, { text: 'done' }, ...Array.from({ length: 40 }, (_, i) => toolTurn(i))], { toolBudget: 1000 }),
    );
    const e = await session.send('write, then loop').catch((x: unknown) => x);
    expect(session.store.log.facts.filter((f) => f.type === 'user.message')).toHaveLength(2);
    expect(e).toMatchObject({
      code: 'STEP_LIMIT',
      limit: 32,
      message: expect.stringMatching(/^step limit of 32 transitions/),
    });
  });

  it('BUD-04/BUD-06: the default budget allows 8 successful results; the 9th call gets budget.denied and does not run', async () => {
    const calls = Array.from({ length: 10 }, (_, i) => ({ id: `c${i}`, name: 'echo', args: { text: 'x' } }));
    const { session, state } = await track(open([{ tool_calls: calls }, { text: 'never asked' }]));
    const r = await session.send('do ten things');
    expect(state.executions).toHaveLength(8);
    expect(r.status).toBe('completed');
    expect(r.endedBy).toBe('budget');
    expect(
      session.store.log.facts
        .filter((f) => f.type === 'budget.denied')
        .map((f) => (f.payload as { tool_call_id: string }).tool_call_id),
    ).toEqual(['c8']);
  });

  it('BUD-07/BUD-09/BUD-10: with maxToolRounds 2 the third request carries no tools and no extra message', async () => {
    const { session, model } = await track(
      open([toolTurn(1), toolTurn(2), { text: 'done in text' }], { maxToolRounds: 2 }),
    );
    await session.send('work');
    expect(model.requests[0]!.tools.length).toBeGreaterThan(0);
    expect(model.requests[1]!.tools.length).toBeGreaterThan(0);
    expect(model.requests[2]!.tools).toEqual([]);
    expect(model.requests[2]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
  });

  it('BUD-09: a model that keeps asking for tools once none are offered is asked once more, then the run ends cleanly (endedBy tool_rounds), never STEP_LIMIT', async () => {
    const again = (i: number) => ({ text: 'again', tool_calls: [{ id: `c${i}`, name: 'echo', args: { text: 'x' } }] });
    const { session, model, state } = await track(
      open([...Array.from({ length: 40 }, (_, i) => again(i))], { maxToolRounds: 2 }),
    );
    const ends: unknown[] = [];
    const r = await (async () => {
      const stream = session.stream('loop');
      for await (const ev of stream) if (ev.type === 'agent_end') ends.push(ev.payload);
      return stream.result;
    })();
    expect(r).toMatchObject({ status: 'completed', endedBy: 'tool_rounds', text: 'again', toolCalls: 2 });
    expect(ends).toEqual([expect.objectContaining({ status: 'completed', ended_by: 'tool_rounds' })]);
    expect(model.requests.map((q) => q.tools.length > 0)).toEqual([true, true, false, false]);
    expect(state.executions).toHaveLength(2);
    const last = session.store.log.facts.filter((f) => f.type === 'tool.result').at(-1)!;
    expect(last.payload).toMatchObject({
      tool_call_id: 'c3',
      ok: false,
      output: expect.stringMatching(/tool-round cap/),
    });
    expect(session.store.log.facts.at(-1)).toMatchObject({ type: 'run.ended', payload: { status: 'completed' } });
    // The next prompt starts the count again: tools are offered.
    await session.send('go on');
    expect(model.requests[4]!.tools.length).toBeGreaterThan(0);
  });

  it('rejects conflicting or out-of-range options naming the option', async () => {
    await expect(open([], { maxToolRounds: -1 })).rejects.toThrow(/maxToolRounds: must be an integer from 0 to 10000/);
    await expect(open([], { maxToolRounds: 2, recipe: { max_tool_rounds: 3 } } as never)).rejects.toThrow(
      /recipe.max_tool_rounds: was renamed: use `maxToolRounds`/,
    );
    await expect(open([], { questionCap: 1000 })).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION' });
  });
});

describe('permission projection in runs', () => {
  it('PERM-01/PERM-02: a denied call is recorded as a failed result in the infer transition, never runs, and emits permission_denied', async () => {
    const { session, state } = await track(
      open(
        [
          {
            tool_calls: [
              { id: 'w', name: 'write_note', args: { path: 'a', content: 'x' } },
              { id: 'e', name: 'echo', args: { text: 'ok' } },
            ],
          },
          { text: 'done' },
        ],
        { permissions: { deny: ['write_note'], defaultDecision: 'allow' } },
      ),
    );
    const events: string[] = [];
    const stream = session.stream('write');
    for await (const ev of stream) events.push(ev.type);
    expect(state.executions.map((e) => e.tool)).toEqual(['echo']);
    const denied = session.store.log.facts.find(
      (f) => f.type === 'tool.result' && (f.payload as { tool_call_id: string }).tool_call_id === 'w',
    )!;
    expect(denied.cause).toBe('infer:1:0');
    expect(denied.payload).toMatchObject({ ok: false, output: 'Permission denied: write_note' });
    expect(events).toContain('permission_denied');
  });
});
