import { describe, expect, it } from 'vitest';
import { results } from '../../test/delegation-kit.js';
import { closeAfterEach, open } from '../../test/session-kit.js';
import type { AgentSession } from '../session/agent-session.js';
import type { PreToolHook } from '../invoker/hooks.js';
import type { PreCompactInput } from './session-hooks.js';

const { track } = closeAfterEach();
const call = (name: string, args: Record<string, unknown>, id = name) => ({ id, name, args });

describe('hooks', () => {
  it('pre_tool_use: a function hook blocks a model call; the tool never runs', async () => {
    const noAdd: PreToolHook = {
      name: 'no-add',
      before: (c) => (c.name === 'add' ? { action: 'block', reason: 'adding is off today' } : undefined),
    };
    const { session, state } = await track(
      open([{ tool_calls: [call('add', { a: 1, b: 2 }), call('echo', { text: 'hi' })] }, { text: 'ok' }], {
        hooks: { pre: [noAdd] },
      }),
    );
    await session.send('go');
    expect(state.executions.map((e) => e.tool)).toEqual(['echo']);
    expect(results(session.store.log.facts)[0]).toEqual(['add', false, expect.stringContaining('adding is off today')]);
  });

  it('pre_tool_use: a shell command blocks with exit 2 (stderr is the reason) and modifies args with a JSON decision on stdout', async () => {
    const block = { matcher: 'add', command: 'echo "no sums" >&2; exit 2' };
    const modify = {
      matcher: 'echo',
      command: 'cat >/dev/null; echo \'{"decision":"modify","args":{"text":"rewritten"}}\'',
    };
    const { session, state } = await track(
      open([{ tool_calls: [call('add', { a: 1, b: 2 }), call('echo', { text: 'original' })] }, { text: 'ok' }], {
        hooks: { pre: [block, modify] },
      }),
    );
    await session.send('go');
    expect(state.executions.map((e) => [e.tool, e.args])).toEqual([['echo', { text: 'rewritten', times: 1 }]]);
    const r = results(session.store.log.facts);
    expect(r[0]).toEqual(['add', false, expect.stringContaining('no sums')]);
    expect(r[1]).toEqual(['echo', true, 'rewritten']);
  });

  it('user_prompt_submit: a function replaces the prompt; a command exiting 2 blocks it before anything is written', async () => {
    const { session, model } = await track(
      open([{ text: 'answered' }], {
        hooks: { userPromptSubmit: [(i) => ({ action: 'modify', prompt: `${i.prompt} (checked)` })] },
      }),
    );
    await session.send('hello');
    expect(model.requests[0]!.messages[0]).toMatchObject({ role: 'user', content: 'hello (checked)' });
    const { session: blocked, model: m2 } = await track(
      open([{ text: 'never' }], {
        hooks: {
          userPromptSubmit: [{ command: 'grep -q secret && { echo "no secrets in prompts" >&2; exit 2; }; exit 0' }],
        },
      }),
    );
    await expect(blocked.send('my secret is 42')).rejects.toMatchObject({
      code: 'HOOK_BLOCKED',
      message: expect.stringContaining('no secrets in prompts'),
    });
    expect(blocked.store.log.facts.filter((f) => f.type === 'user.message')).toHaveLength(0);
    expect(m2.requests).toHaveLength(0);
    await blocked.send('harmless');
    expect(m2.requests).toHaveLength(1);
  });

  it('stop: a blocking stop hook keeps the run going with its reason as the next message', async () => {
    let stops = 0;
    const { session, model } = await track(
      open([{ text: 'first try' }, { text: 'second try' }], {
        hooks: {
          stop: [(i) => (stops++ === 0 ? { action: 'block', reason: `not yet: "${i.text}" lacks tests` } : undefined)],
        },
      }),
    );
    const r = await session.send('work');
    expect(r.text).toBe('second try');
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({
      role: 'user',
      content: 'not yet: "first try" lacks tests',
    });
  });

  it('pre_compact: a command exiting 2 blocks session.compact(); JSON config validates the hook keys', async () => {
    const { session, model } = await track(
      open([{ text: 'a' }, { text: 'summary' }], {
        hooks: { preCompact: [{ command: 'echo "keep everything" >&2; exit 2', timeoutMs: 5000 }] },
      }),
    );
    await session.send('x');
    await expect(session.compact()).rejects.toMatchObject({
      code: 'HOOK_BLOCKED',
      message: 'pre_compact hook blocked: keep everything',
    });
    expect(model.requests).toHaveLength(1);
    await expect(open([], { hooks: { on_everything: [] } as never })).rejects.toThrow(
      /hooks\.on_everything: is not a known key/,
    );
    await expect(open([], { hooks: { stop: [{ command: '' }] } })).rejects.toThrow(/hooks\.stop\[0\]\.command/);
  });
});

describe('pre_compact before the automatic compaction', () => {
  const long = (id: string) => ({ tool_calls: [call('echo', { text: 'y'.repeat(300) }, id)] });
  const compactions = (session: AgentSession) =>
    session.store.log.facts
      .filter((f) => f.type === 'compaction.done')
      .map((f) => [f.cause, (f.payload as { skipped?: boolean }).skipped === true]);

  it('the hook runs with trigger auto; continuing lets the run compact as before', async () => {
    const seen: PreCompactInput[] = [];
    const { session, model } = await track(
      open([long('e1'), { text: 'SUMMARY' }, { text: 'final' }], {
        compactThresholdChars: 200,
        hooks: { preCompact: [(i) => void seen.push(i)] },
      }),
    );
    const r = await session.send('go');
    expect(r.text).toBe('final');
    expect(seen).toEqual([{ session_id: session.sessionId, trigger: 'auto', messages: 3, run_id: r.runId }]);
    expect(compactions(session)).toEqual([['compact:1:1', false]]);
    expect(model.requests[2]!.messages[0]).toEqual({
      role: 'user',
      content: 'Summary of the conversation so far:\nSUMMARY',
    });
  });

  it('a blocking command skips it: no summary call, a skipped compaction.done under compact:<turn>:<cycle>, the run goes on with the whole conversation; the next turn asks again', async () => {
    let asked = 0;
    const { session, model } = await track(
      open([long('e1'), { text: 'first' }, long('e2'), { text: 'second' }, { text: 'SUMMARY' }, { text: 'third' }], {
        compactThresholdChars: 200,
        hooks: {
          preCompact: [
            { command: 'cat >/dev/null; echo "keep everything" >&2; exit 2', timeoutMs: 5000 },
            () => void asked++,
          ],
        },
      }),
    );
    expect((await session.send('go')).text).toBe('first');
    expect(model.requests).toHaveLength(2);
    const skipped = session.store.log.facts.find((f) => f.cause === 'compact:1:1')!;
    expect(skipped).toMatchObject({
      type: 'compaction.done',
      payload: { skipped: true, blocked_by: 'pre_compact', reason: 'keep everything', kept: 3 },
    });
    const note =
      'Summary of the conversation so far:\n(No summary: automatic compaction was skipped because a pre_compact hook blocked it: keep everything. The whole conversation follows.)';
    expect(model.requests[1]!.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'tool']);
    expect(model.requests[1]!.messages[0]).toEqual({ role: 'user', content: note });
    expect(model.requests[1]!.messages.slice(1)).toEqual(
      model.requests[0]!.messages.concat(model.requests[1]!.messages.slice(2)),
    );
    expect(asked).toBe(0); // the first block wins
    // Turn 2: blocked again; the note is carried over, not repeated.
    expect((await session.send('more')).text).toBe('second');
    expect(compactions(session)).toEqual([
      ['compact:1:1', true],
      ['compact:2:0', true],
    ]);
    expect(
      model.requests[3]!.messages.filter((m) => m.role === 'user' && m.content.startsWith('Summary of')),
    ).toHaveLength(1);
    expect(model.requests[3]!.messages[0]).toEqual({ role: 'user', content: note });
  });

  it('the same hooks decide each time: a function hook that stops blocking lets the next turn compact', async () => {
    let calls = 0;
    const { session, model } = await track(
      open([long('e1'), { text: 'first' }, { text: 'SUMMARY' }, { text: 'second' }], {
        compactThresholdChars: 200,
        hooks: { preCompact: [() => (calls++ === 0 ? { action: 'block', reason: 'not now' } : undefined)] },
      }),
    );
    await session.send('go');
    const r = await session.send('more');
    expect(r.text).toBe('second');
    expect(calls).toBe(2);
    expect(compactions(session)).toEqual([
      ['compact:1:1', true],
      ['compact:2:0', false],
    ]);
    expect(model.requests[2]!.tools).toEqual([]);
    expect(model.requests[3]!.messages[0]).toEqual({
      role: 'user',
      content: 'Summary of the conversation so far:\nSUMMARY',
    });
  });
});

describe('plan mode', () => {
  it('TIER-03/PERM-05: plan mode keeps only read-tier tools in the schemas; a write call is denied', async () => {
    const { session, state, model } = await track(
      open([{ tool_calls: [call('write_note', { path: 'a', content: 'x' })] }, { text: 'planned' }], {
        governance: { mode: 'plan' },
      }),
    );
    expect(session.toolNames()).not.toContain('write_note');
    expect(session.toolNames()).not.toContain('run');
    expect(session.toolNames()).not.toContain('verify');
    expect(session.toolNames()).toEqual(expect.arrayContaining(['echo', 'task', 'Skill']));
    await session.send('plan it');
    const tiers = new Map(session.toolDefinitions().map((d) => [d.name, d.tier]));
    expect(model.requests[0]!.tools.every((t) => tiers.get(t.name) === 'read')).toBe(true);
    expect(model.requests[0]!.tools.map((t) => t.name)).not.toContain('write_note');
    expect(state.executions).toHaveLength(0);
    expect(results(session.store.log.facts)[0]).toEqual([
      'write_note',
      false,
      "Permission denied: plan mode hides 'write' tools",
    ]);
  });
});
