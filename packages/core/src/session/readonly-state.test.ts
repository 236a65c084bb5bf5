// `session.state` is a read-only view: a host changing what it returned (a message's text, the
// conversation, the usage, a tool call's arguments) used to change the next model request and the
// log's own facts, with no fact saying so. Now every part of it is frozen and none is the fold's.
import { describe, expect, it } from 'vitest';
import { closeAfterEach, open } from '../../test/session-kit.js';

const { track } = closeAfterEach();
const echo = { tool_calls: [{ id: 'e1', name: 'echo', args: { text: 'hi', nested: { list: [1, 2] } } }] };

/** The state as a host that ignores `readonly` sees it. */
interface Writable {
  phase: string;
  counters: Record<string, number>;
  view: {
    messages: (Record<string, unknown> & { tool_calls: { args: { text: string; nested: { list: number[] } } }[] })[];
    system: string[];
    usage: Record<string, number>;
    run: Record<string, unknown>;
  };
}

/** Tries every change a host could make to `state`; each must throw (strict mode) or do nothing. */
function tamper(state: unknown): void {
  const attempts: ((s: Writable) => void)[] = [
    (s) => s.view.messages.push({ role: 'user', text: 'INJECTED', source: 'user', seq: 99, tool_calls: [] }),
    (s) => {
      s.view.messages[0]!.text = 'CHANGED';
    },
    (s) => s.view.messages[1]!.tool_calls[0]!.args.nested.list.push(3),
    (s) => {
      s.view.messages[1]!.tool_calls[0]!.args.text = 'evil';
    },
    (s) => s.view.system.push('SYS'),
    (s) => {
      s.view.usage.input_tokens = 1e9;
    },
    (s) => {
      s.view.run.status = 'failed';
    },
    (s) => {
      s.phase = 'done';
    },
    (s) => {
      s.counters.turn = 42;
    },
  ];
  for (const attempt of attempts) expect(() => attempt(state as Writable)).toThrow(TypeError);
}

describe('session.state', () => {
  it('LOG-01: changing what state returned never changes the next request, the log or the state', async () => {
    const { session, model } = await track(open([echo, { text: 'one' }, { text: 'two' }]));
    await session.send('hi');
    const facts = JSON.stringify(session.store.log.facts);
    const before = JSON.parse(JSON.stringify(session.state)) as unknown;
    const live = session.state;
    expect(Object.isFrozen(live) && Object.isFrozen(live.view.messages)).toBe(true);
    tamper(live);
    expect(JSON.parse(JSON.stringify(session.state))).toEqual(before);
    expect(JSON.stringify(session.store.log.facts)).toBe(facts);
    await session.send('again');
    const sent = JSON.stringify(model.requests.at(-1)!.messages);
    expect(sent).not.toMatch(/CHANGED|INJECTED|evil/);
    expect(model.requests.at(-1)!.messages[0]).toMatchObject({ role: 'user', content: 'hi' });
  });

  it('FOLD-04: a resumed session folds the same state, however the first one was tampered with', async () => {
    const { session, agent, dir } = await track(open([echo, { text: 'one' }], { sessionId: 'ro' }));
    await session.send('hi');
    tamper(session.state);
    const folded = JSON.parse(JSON.stringify(session.state)) as unknown;
    await session.close();
    const again = await agent.session(dir, { sessionId: 'ro' });
    try {
      expect(JSON.parse(JSON.stringify(again.state))).toEqual(folded);
    } finally {
      await again.close();
    }
  });

  it('is one object until the log grows (reading it often costs nothing), then a new one', async () => {
    const { session } = await track(open([{ text: 'one' }, { text: 'two' }]));
    await session.send('hi');
    const first = session.state;
    expect(session.state).toBe(first);
    expect(session.state.view.messages).toBe(first.view.messages);
    const before = first.view.messages.length;
    await session.send('again');
    expect(session.state).not.toBe(first);
    expect(session.state.view.messages.length).toBeGreaterThan(before);
    // Messages already copied are shared between views, not copied again.
    expect(session.state.view.messages[0]).toBe(first.view.messages[0]);
  });
});
