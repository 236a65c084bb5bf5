// The vibe pack on core alone (no SDK): a session of core's Agent with the pack and the scripted
// model, its logs in memory; and the roster resource's own checks.
import { Agent, type AgentSession } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createVibeToolPack, VIBE_RESOURCE, vibeResource, vibeToolPack } from '../src/vibe.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let session: AgentSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

const json = (output: string) => JSON.parse(output) as Record<string, unknown>;

describe('the vibe pack on core', () => {
  it('TIER-05/VIBE-01: every tool requires the roster resource and is read tier; without a worker port the roster cannot open', async () => {
    for (const tool of vibeToolPack.tools) {
      expect(tool.tier).toBe('read');
      expect(tool.requires).toContain(VIBE_RESOURCE);
    }
    const context = { sessionId: 's', clock: Date.now, settings: {}, signal: new AbortController().signal };
    await expect(vibeResource().open(context)).rejects.toMatchObject({ code: 'VIBE_UNAVAILABLE' });
    expect(() => vibeResource({ maxWorkers: 33 })).toThrow(expect.objectContaining({ code: 'VIBE_CONFIG' }));
  });

  it('VIBE-04: with logs in memory, vibe_send re-runs the worker on its in-memory thread, with its earlier conversation', async () => {
    const fast = new ScriptedLlmClient([{ text: 'first' }, { text: 'second' }]);
    const dir = mkdtempSync(join(tmpdir(), 'a3s-vibe-'));
    const agent = await Agent.create({
      model: new ScriptedLlmClient([]),
      tools: [createVibeToolPack({ tiers: { fast } })],
      workspace: diskWorkspace(dir),
      persistence: 'memory',
    });
    session = await agent.session(dir);
    expect(json((await session.tool('vibe_spawn', { brief: 'do it', label: 'mem' })).output).worker_id).toBe(
      'worker-1',
    );
    expect(json((await session.tool('vibe_wait', { worker_id: 'worker-1' })).output).last_result).toBe('first');
    await session.tool('vibe_send', { worker_id: 'worker-1', message: 'and more' });
    expect(json((await session.tool('vibe_wait', { worker_id: 'worker-1' })).output)).toMatchObject({
      status: 'completed',
      last_result: 'second',
      runs: 2,
    });
    expect(fast.requests[1]!.messages.map((m) => m.content)).toEqual([
      'do it',
      'first',
      expect.stringContaining('and more'),
    ]);
  });
});
