/**
 * The session event stream as a client sees it: v1 envelopes, and tool activity as structured
 * states (start, output, error, end) a UI can render without parsing terminal text.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import { createTestToolPack, ScriptedLlmClient, type ScriptedTurn } from '../testing/index.js';
import { defineTool } from '../tools/define-tool.js';
import { defineToolPack } from '../tools/tool-pack.js';
import { Agent } from './agent.js';

const { sessions } = closeAfterEach();

const talk = defineTool({
  name: 'talk',
  description: 'Print two lines, one on each stream.',
  tier: 'read',
  input: z.object({}).strict(),
  execute: async (_args, ctx) => {
    ctx.emitOutput('compiling\n', 'stdout');
    ctx.emitOutput('warning: unused\n', 'stderr');
    return { output: 'compiling\nwarning: unused\n', exitCode: 0 };
  },
});
const crash = defineTool({
  name: 'crash',
  description: 'Throw.',
  tier: 'read',
  input: z.object({}).strict(),
  execute: async () => {
    throw new Error('disk on fire');
  },
});

async function openStream(turns: ScriptedTurn[]) {
  const ws = workspace();
  const test = createTestToolPack();
  const agent = await Agent.create({
    model: new ScriptedLlmClient(turns),
    tools: [test.pack, defineToolPack({ name: 'talkers', version: '1.0.0', tools: [talk, crash] })],
    workspace: ws.services,
    permissions: { defaultDecision: 'allow', deny: ['write_note'] },
  });
  const session = await agent.session(ws.dir, { persistence: 'memory' });
  sessions.push(session);
  return session;
}

describe('the session event stream', () => {
  it('EVT-02: every envelope of a run, streamed or kept in the trace, is {"version": 1, type, payload, metadata}', async () => {
    const session = await openStream([
      { text: 'Working.', tool_calls: [{ id: 't', name: 'talk', args: {} }] },
      { text: 'Done.' },
    ]);
    const wire: string[] = [];
    for await (const ev of session.stream('go')) {
      expect(ev.version).toBe(1);
      wire.push(JSON.stringify({ version: ev.version, type: ev.type, payload: ev.payload, metadata: ev.metadata }));
    }
    expect(wire.length).toBeGreaterThan(5);
    for (const line of wire) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      expect(line.startsWith('{"version":1,"type":"')).toBe(true);
      expect(Object.keys(parsed).slice(0, 4)).toEqual(['version', 'type', 'payload', 'metadata']);
      expect(parsed.version).toBe(1);
    }
    // The session's trace keeps the same envelopes.
    const trace = session.snapshot().trace_events as unknown as Record<string, unknown>[];
    expect(trace.map((e) => JSON.stringify(e))).toEqual(wire);
  });

  it('SURF-12: tool activity arrives as structured start, output, error and end events', async () => {
    const session = await openStream([
      {
        tool_calls: [
          { id: 'ok', name: 'talk', args: {} },
          { id: 'bad', name: 'fail', args: { message: 'tests failed' } },
          { id: 'boom', name: 'crash', args: {} },
          { id: 'no', name: 'write_note', args: { path: 'x', content: 'y' } },
        ],
      },
      { text: 'Reported.' },
    ]);
    const tool: { type: string; payload: Record<string, unknown> }[] = [];
    for await (const ev of session.stream('go'))
      if (ev.type.startsWith('tool_') || ev.type === 'permission_denied')
        tool.push({ type: ev.type, payload: ev.payload as Record<string, unknown> });
    const of = (id: string) => tool.filter((e) => (e.payload.id ?? e.payload.tool_id) === id);

    // Start and output: the name, args and source, then each chunk with its stream.
    expect(of('ok').map((e) => e.type)).toEqual(['tool_start', 'tool_output_delta', 'tool_output_delta', 'tool_end']);
    expect(of('ok')[0]!.payload).toMatchObject({ id: 'ok', name: 'talk', args: {}, source: 'agent' });
    expect(of('ok')[1]!.payload).toMatchObject({ id: 'ok', name: 'talk', delta: 'compiling\n', stream: 'stdout' });
    expect(of('ok')[2]!.payload).toMatchObject({ delta: 'warning: unused\n', stream: 'stderr' });
    expect(of('ok')[3]!.payload).toMatchObject({ id: 'ok', name: 'talk', exit_code: 0, error_kind: null });
    // A non-zero exit, a thrown error and a denial are each an end state a UI can tell apart.
    expect(of('bad').at(-1)).toMatchObject({ type: 'tool_end', payload: { exit_code: 2, output: 'tests failed' } });
    const boom = of('boom').at(-1)!;
    expect(boom).toMatchObject({ type: 'tool_end', payload: { exit_code: 1 } });
    expect(boom.payload.error_kind).toEqual(expect.any(String));
    expect(String(boom.payload.output)).toContain('disk on fire');
    expect(of('no').map((e) => e.type)).toContain('permission_denied');
    expect(of('no').at(-1)).toMatchObject({ type: 'tool_end', payload: { error_kind: 'permission_denied' } });
  });

  it('SURF-12: a host-direct call reports the same structured activity to host listeners', async () => {
    const session = await openStream([]);
    const seen: { type: string; payload: Record<string, unknown>; runId: string }[] = [];
    // Nobody listens yet: the call still works, and nothing is kept for later.
    expect((await session.tool('talk', {})).ok).toBe(true);
    const off = session.onHostEvent((ev) =>
      seen.push({ type: ev.type, payload: ev.payload as Record<string, unknown>, runId: ev.metadata.run_id }),
    );
    await session.tool('talk', {});
    await session.tool('crash', {});
    off();
    await session.tool('talk', {});
    expect(seen.map((e) => e.type)).toEqual([
      'tool_start',
      'tool_output_delta',
      'tool_output_delta',
      'tool_end',
      'tool_start',
      'tool_end',
    ]);
    expect(seen.every((e) => e.runId === `host:${session.sessionId}`)).toBe(true);
    expect(seen[0]!.payload).toMatchObject({ name: 'talk', source: 'host' });
    expect(seen[1]!.payload).toMatchObject({ name: 'talk', delta: 'compiling\n', stream: 'stdout' });
    expect(seen[3]!.payload).toMatchObject({ name: 'talk', exit_code: 0, error_kind: null });
    expect(seen[5]!.payload).toMatchObject({ name: 'crash', exit_code: 1 });
    expect(seen[5]!.payload.error_kind).toEqual(expect.any(String));
  });
});
