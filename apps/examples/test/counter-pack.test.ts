// The example tool pack (packs/counter-pack.ts) in real SDK sessions: its resource opens lazily
// once, its tool runs, the session closes the resource; a resource that fails is reported and
// its tool is not on the surface.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type EventEnvelopeV1, type Session, type ToolPack } from '@a3s-code/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { counterPack } from '../packs/counter-pack.js';

const sessions: Session[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

/** A session of an agent with `pack`, on a scripted model that plays `turns`. */
async function open(pack: ToolPack, turns: readonly object[]): Promise<Session> {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-counter-pack-'));
  const script = join(dir, 'model.json');
  writeFileSync(script, JSON.stringify({ model: 'scripted-counter', turns }));
  const agent = await Agent.create({ model: `scripted:${script}`, tools: [pack], workspaceTools: false, web: false });
  const session = await agent.session(dir, { governance: { yolo: true }, persistence: 'memory' });
  sessions.push(session);
  return session;
}

/** The counter resource's status among the session's resources (core attaches its own too). */
const counterStatus = (session: Session) => session.resources().find((r) => r.capability === 'resource.counter');

const call = (id: string, by?: number) => ({ id, name: 'count', args: by === undefined ? {} : { by } });

async function run(session: Session, prompt: string): Promise<EventEnvelopeV1[]> {
  const events: EventEnvelopeV1[] = [];
  const stream = session.stream(prompt);
  for await (const ev of stream) events.push(ev);
  await stream.result;
  return events;
}

describe('apps/examples/packs/counter-pack.ts', () => {
  it('TIER-05: count is on the surface once the pack attaches its resource, which opens once on first use and closes with the session', async () => {
    const { pack, events } = counterPack();
    const session = await open(pack, [
      { text: 'counting', tool_calls: [call('c1', 2), call('c2')] },
      { tool_calls: [call('c3', 5)] },
      { text: 'done' },
    ]);
    expect(session.toolNames()).toContain('count');
    expect(events).toEqual({ opened: 0, closed: 0 });

    const ends = (await run(session, 'count for me')).filter((e) => e.type === 'tool_end');
    expect(ends.map((e) => e.payload.output)).toEqual(['count: 2', 'count: 3', 'count: 8']);
    expect(events).toEqual({ opened: 1, closed: 0 });
    expect(counterStatus(session)).toMatchObject({
      capability: 'resource.counter',
      provider: 'counter-pack',
      state: 'open',
    });

    await session.close();
    expect(events).toEqual({ opened: 1, closed: 1 });
    expect(counterStatus(session)?.state).toBe('closed');
  });

  it('TIER-05: a resource that opens at build and fails keeps count off the surface, and the failure is reported', async () => {
    const { pack, events } = counterPack({ opens: 'session', failWith: 'counter daemon not installed' });
    const session = await open(pack, [{ text: 'nothing to count' }]);
    expect(events.opened).toBe(1);
    expect(session.toolNames()).not.toContain('count');
    const status = counterStatus(session);
    expect(status).toMatchObject({ capability: 'resource.counter', state: 'failed' });
    expect(status!.error).toBe(
      "resource 'resource.counter' of pack 'counter-pack' failed to open: counter daemon not installed",
    );
  });

  it('a lazy resource that fails on first use fails that call with RESOURCE_OPEN_FAILED, is reported as an error event, and count leaves the surface', async () => {
    const { pack } = counterPack({ failWith: 'counter daemon not installed' });
    const session = await open(pack, [{ tool_calls: [call('c1')] }, { text: 'gave up' }]);
    const reported: EventEnvelopeV1[] = [];
    session.core.onHostEvent((e) => void reported.push(e));
    expect(session.toolNames()).toContain('count');

    const end = (await run(session, 'count')).find((e) => e.type === 'tool_end');
    expect(end?.payload).toMatchObject({ exit_code: 1, error_kind: expect.any(String) });
    expect(String(end?.payload.output)).toContain(
      "resource 'resource.counter' of pack 'counter-pack' failed to open: counter daemon not installed",
    );
    expect(reported.map((e) => e.payload)).toEqual([
      {
        code: 'RESOURCE_OPEN_FAILED',
        message: "resource 'resource.counter' of pack 'counter-pack' failed to open: counter daemon not installed",
      },
    ]);
    expect(session.toolNames()).not.toContain('count');
  });
});
