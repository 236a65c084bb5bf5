// `agent.close()` closes what the agent opened: every session still open is closed (its run
// cancelled, its commands killed, its log released) before the agent's MCP servers stop; a
// session whose opening finishes after close began is closed too, and the call says so.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { gone, tempRepo, until } from './kit.js';

/** The host pids of the processes running `sleep 60.777` (a command's own `$$` may be another pid namespace's). */
const sleepers = (): number[] =>
  readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, 'utf8') === 'sleep\u000060.777\u0000';
      } catch {
        return false;
      }
    })
    .map(Number);

describe('agent.close()', () => {
  it('closes its open sessions: a running command is killed, the run ends cancelled, later calls are SESSION_CLOSED', async () => {
    const dir = tempRepo();
    const model = new ScriptedLlmClient([
      {
        text: 'Waiting.',
        tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'exec sleep 60.777' } }],
      },
      { text: 'never' },
    ]);
    const agent = await Agent.create({ model });
    const busy = await agent.session(dir, { sessionId: 'busy', permissions: { allow: ['bash'] } });
    const idle = await agent.session(dir, { sessionId: 'idle' });
    const closedByHand = await agent.session(dir, { sessionId: 'by-hand' });
    await closedByHand.close();
    const run = busy.send('wait');
    expect(await until(() => busy.activeTools().some((t) => t.name === 'bash'))).toBe(true);
    expect(await until(() => sleepers().length > 0)).toBe(true);
    const pids = sleepers();
    await agent.close();
    expect(await run).toMatchObject({ status: 'cancelled' });
    expect([busy.closed, idle.closed]).toEqual([true, true]);
    await expect(idle.send('x')).rejects.toMatchObject({ code: 'SESSION_CLOSED' });
    const log = readFileSync(join(dir, '.a3s', 'effect-log', 'busy.jsonl'), 'utf8');
    expect(await until(() => pids.every(gone))).toBe(true);
    expect(log).toContain('"run.ended"');
    // The logs are released: another agent opens them.
    const next = await Agent.create({ model: new ScriptedLlmClient([{ text: 'again' }]) });
    const reopened = await next.session(dir, { sessionId: 'busy' });
    expect(await reopened.send('hi')).toMatchObject({ status: 'completed', text: 'again' });
    await next.close();
    expect(reopened.closed).toBe(true);
  });

  it('a session whose opening was under way when close began is closed and refused with AGENT_CLOSED', async () => {
    const agent = await Agent.create({ model: new ScriptedLlmClient([]) });
    const opening = agent.session(tempRepo(), { sessionId: 'late' }).catch((e: unknown) => e);
    await agent.close();
    const r = await opening;
    if (r instanceof Error) expect(r).toMatchObject({ code: 'AGENT_CLOSED' });
    else expect((r as { closed: boolean }).closed).toBe(true);
  });
});
