// The lead's change ledger and its vibe workers: a worker is a child run with its own change
// record. Once the lead learns how a worker's run ended (vibe_wait, or the worker ending while the
// lead's run is going), the worker's own changes take the place of the "changed, paths unknown"
// its start recorded; a worker still running when the lead's run ends stays unknown, and a
// worker stopped in the middle of a command is unknown too. The gate's continuation is off, so
// an unverified change ends COMPLETION_INCOMPLETE.
import type { LlmClient } from '@a3s-code/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session, type SessionOptions } from '../src/index.js';
// @ts-expect-error: plain JavaScript fixture shared with the vibe tests.
import { RoutingModel } from './fixtures/vibe-world.mjs';
import { tempRepo } from './kit.js';

const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function open(scripts: Record<string, unknown[]>, options: SessionOptions = {}) {
  const model = new RoutingModel('lead', scripts) as LlmClient;
  const session = await (await Agent.create({ model })).session(tempRepo(), {
    governance: { yolo: true },
    gate: { continuation: { enabled: false } },
    vibe: true,
    ...options,
  });
  opened.push(session);
  return session;
}
const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, args });
const UNKNOWN = { tool: 'vibe_spawn', path: '(unknown)', digest: expect.stringMatching(/^unknown:/) };

describe('the lead’s ledger and its workers', () => {
  it('GATE-04: a worker that only reported adds nothing once the lead waited for it: the lead ends narrative', async () => {
    const session = await open({
      lead: [
        { tool_calls: [call('s1', 'vibe_spawn', { brief: 'report', label: 'reporter' })] },
        { tool_calls: [call('w1', 'vibe_wait', { worker_id: 'worker-1' })] },
        { text: 'It reported.' },
      ],
      report: [{ text: 'all is well' }],
    });
    expect(await session.send('lead')).toMatchObject({ status: 'completed', completion: 'narrative' });
    expect(session.changeLedger().entries).toEqual([]);
  });

  it('GATE-01: a worker that wrote and ended while the lead was busy (no vibe_wait) brings its change', async () => {
    const session = await open({
      lead: [
        { tool_calls: [call('s1', 'vibe_spawn', { brief: 'write-it', label: 'writer' })] },
        // The lead's next model call takes long enough for the worker to end meanwhile.
        { delay_ms: 1500, text: 'Started a writer.' },
      ],
      'write-it': [
        { tool_calls: [call('x1', 'write', { file_path: 'OUT.md', content: 'x\n' })] },
        {
          tool_calls: [call('v1', 'verify', { subject: 'OUT.md', commands: [{ id: 'f', command: 'test -f OUT.md' }] })],
        },
      ],
    });
    await expect(session.send('lead')).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect(session.changeLedger().entries).toEqual([
      { tool: 'vibe_spawn', path: 'OUT.md', digest: expect.stringMatching(/^sha256:/) },
    ]);
  });

  it('GATE-01: a worker still running when the lead’s run ends stays "changed, unknown", also after it ends', async () => {
    const session = await open({
      lead: [{ tool_calls: [call('s1', 'vibe_spawn', { brief: 'slow', label: 'slow one' })] }, { text: 'Bye.' }],
      slow: [{ delay_ms: 300, text: 'nothing to do' }],
    });
    await expect(session.send('lead')).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect(session.changeLedger().entries).toEqual([UNKNOWN]);
    const digest = session.changeLedger().digest;
    // The worker ends after the lead's run did: what the gate decided on stays the run's ledger.
    await new Promise((r) => setTimeout(r, 600));
    expect(JSON.parse((await session.tool('vibe_list', {})).output).workers[0]).toMatchObject({ status: 'completed' });
    expect(session.changeLedger()).toEqual({ entries: [UNKNOWN], digest });
  });

  it('GATE-01: a worker killed while its command runs is "changed, unknown"', async () => {
    const session = await open({
      lead: [
        { tool_calls: [call('s1', 'vibe_spawn', { brief: 'run-it', label: 'runner' })] },
        { delay_ms: 500, tool_calls: [call('k1', 'vibe_kill', { worker_id: 'worker-1' })] },
        { text: 'Stopped it.' },
      ],
      'run-it': [{ tool_calls: [call('b1', 'bash', { command: 'echo partial > PART.txt; sleep 20' })] }],
    });
    const started = Date.now();
    await expect(session.send('lead')).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect(Date.now() - started).toBeLessThan(15_000);
    const entries = session.changeLedger().entries;
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.tool === 'vibe_spawn' && e.path === '(unknown)')).toBe(true);
  });
});
