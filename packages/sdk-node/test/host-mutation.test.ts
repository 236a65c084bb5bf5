// Host code that changes the objects it is handed: a pre- or post-hook changing `call.args` in
// place, an approver changing `request.args`, a stream consumer changing an event's `args`, a host
// changing a parked result's `args`, a tool changing its own input. None of them changes what
// the call runs with (only a hook's `modify` decision does, validated again), nor the fact that
// recorded the model's call: the log in memory stays the log on disk. Before, each of them reached
// the call (a consumer of `confirmation_required` could redirect an approved write) and the log.
import { readFileSync } from 'node:fs';
import { defineTool, defineToolPack } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { parseLog } from '@a3s-code/effect';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { Agent, type Session } from '../src/index.js';
import { tempRepo } from './kit.js';

const MODEL_ARGS = { text: 'from the model' };

/** A pack whose `note` tool records the args it got, then changes them. */
function notePack() {
  const got: unknown[] = [];
  const pack = defineToolPack({
    name: 'note-pack',
    version: '1.0.0',
    tools: [
      defineTool({
        name: 'note',
        description: 'Notes a text.',
        tier: 'read',
        input: z.object({ text: z.string() }).strict(),
        execute: async (args: { text: string }) => {
          got.push(structuredClone(args));
          (args as { text: string }).text = 'changed by the tool';
          return { output: 'noted', exitCode: 0 };
        },
      }),
    ],
  });
  return { pack, got };
}

const script = () =>
  new ScriptedLlmClient([{ tool_calls: [{ id: 'n1', name: 'note', args: { ...MODEL_ARGS } }] }, { text: 'done' }]);

/** The model turn's call args in memory and on disk. */
function recorded(s: Session) {
  const inMemory = s.core.store.log.facts.find((f) => f.type === 'model.turn')!.payload;
  const onDisk = parseLog(readFileSync(s.logPath!, 'utf8')).facts.find((f) => f.type === 'model.turn')!.payload;
  const args = (p: unknown) => (p as { decision: { calls: { args: unknown }[] } }).decision.calls[0]!.args;
  return { memory: args(inMemory), disk: args(onDisk) };
}

const scribble = (args: unknown) => {
  const a = args as Record<string, unknown>;
  a.text = 'changed by the host';
  a.extra = true;
};

describe('host code changing the objects it is handed', () => {
  it('a pre-hook and a post-hook that change call.args in place change neither the call nor the log', async () => {
    const { pack, got } = notePack();
    const agent = await Agent.create({ model: script(), tools: [pack] });
    const s = await agent.session(tempRepo(), {
      permissions: { allow: ['note'] },
      hooks: {
        pre: [{ name: 'scribbler', before: (call) => void scribble(call.args) }],
        post: [{ name: 'scribbler', after: (call) => void scribble(call.args) }],
      },
    });
    try {
      expect(await s.send('go')).toMatchObject({ status: 'completed', text: 'done' });
      expect(got).toEqual([MODEL_ARGS]);
      expect(recorded(s)).toEqual({ memory: MODEL_ARGS, disk: MODEL_ARGS });
    } finally {
      await s.close();
    }
  });

  it('an approver and a stream consumer that change args change neither the approved call nor the log', async () => {
    const { pack, got } = notePack();
    const agent = await Agent.create({ model: script(), tools: [pack] });
    const s = await agent.session(tempRepo(), {
      permissions: { ask: ['note'] },
      onConfirm: (request) => {
        scribble(request.args);
        return { approved: true };
      },
    });
    try {
      const stream = s.stream('go');
      const seen: string[] = [];
      for await (const ev of stream) {
        const args = (ev.payload as { args?: unknown }).args;
        if (args !== undefined && typeof args === 'object') {
          seen.push(ev.type);
          scribble(args);
        }
      }
      expect(await stream.result).toMatchObject({ status: 'completed', text: 'done' });
      expect(seen).toEqual(expect.arrayContaining(['confirmation_required', 'tool_start']));
      expect(got).toEqual([MODEL_ARGS]);
      expect(recorded(s)).toEqual({ memory: MODEL_ARGS, disk: MODEL_ARGS });
    } finally {
      await s.close();
    }
  });

  it("a host that changes a parked result's args, then approves, runs the call the model made", async () => {
    const { pack, got } = notePack();
    const agent = await Agent.create({ model: script(), tools: [pack] });
    const s = await agent.session(tempRepo(), { permissions: { ask: ['note'] }, parkMode: 'return' } as never);
    try {
      const parked = await s.send('go');
      expect(parked).toMatchObject({ status: 'parked', parked: { kind: 'confirm', args: MODEL_ARGS } });
      scribble((parked.parked as { args: unknown }).args);
      await s.confirmToolUse('n1', true);
      expect(await s.resumeRun()).toMatchObject({ status: 'completed', text: 'done' });
      expect(got).toEqual([MODEL_ARGS]);
      expect(recorded(s)).toEqual({ memory: MODEL_ARGS, disk: MODEL_ARGS });
    } finally {
      await s.close();
    }
  });
});
