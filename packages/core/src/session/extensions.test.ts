/**
 * Extensions (a host tool pack, a programmatic hook, an agent definition, a security provider)
 * add no execution path of their own: their work runs through the kernel, the LLM invoker and
 * the tool invoker, and leaves facts an effect-only replay can read.
 */
import { summarizeLog } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { childFacts } from '../../test/delegation-kit.js';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import type { HookCall } from '../invoker/hooks.js';
import { ScriptedLlmClient } from '../testing/index.js';
import { defineTool } from '../tools/define-tool.js';
import { defineToolPack } from '../tools/tool-pack.js';
import { Agent } from './agent.js';

const { sessions } = closeAfterEach();
const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, args });

describe('extensions', () => {
  it('EXT-02: a host pack, hook, agent definition and security provider run through the kernel and the invokers, with replayable evidence', async () => {
    let executions = 0;
    const lookup = defineTool({
      name: 'ticket_lookup',
      description: 'Look a ticket up.',
      tier: 'read',
      input: z.object({ id: z.string() }).strict(),
      execute: async ({ id }) => {
        executions++;
        return { output: `ticket ${id}: open (owner token tok-EXT02-123456)`, exitCode: 0 };
      },
    });
    const hooked: Pick<HookCall, 'name' | 'source' | 'runId'>[] = [];
    const ws = workspace();
    const model = new ScriptedLlmClient([
      // The parent delegates to the host's agent; the child uses the host's tool twice (once denied).
      { tool_calls: [call('t', 'task', { agent: 'triage', description: 'triage', prompt: 'Triage 7.' })] },
      { tool_calls: [call('a', 'ticket_lookup', { id: '7' }), call('b', 'ticket_lookup', { id: 'secret-1' })] },
      { text: 'ticket 7 is open' },
      { text: 'triaged' },
    ]);
    const agent = await Agent.create({
      model,
      tools: [defineToolPack({ name: 'tickets', version: '1.0.0', tools: [lookup] })],
      workspace: ws.services,
      agents: [{ name: 'triage', description: 'Triage tickets.', tools: ['ticket_lookup'], tier: 'read' }],
      permissions: { deny: ['ticket_lookup(*secret-*)'], defaultDecision: 'allow' },
      hooks: {
        pre: [{ name: 'audit', before: (c) => void hooked.push({ name: c.name, source: c.source, runId: c.runId }) }],
      },
      security: { sanitizeOutput: (o) => o.replaceAll('tok-EXT02-123456', '[REDACTED]') },
      budgets: { llm: { maxCalls: 10, softCalls: 3 } },
    });
    const session = await agent.session(ws.dir, { sessionId: 'ext-02' });
    sessions.push(session);
    const events: { type: string; payload: Record<string, unknown> }[] = [];
    for await (const ev of session.stream('triage ticket 7'))
      events.push({ type: ev.type, payload: ev.payload as Record<string, unknown> });

    // Kernel: the session's policy governed the agent's call; the host's tool ran only when allowed.
    expect(executions).toBe(1);
    const child = childFacts(ws.dir, 'ext-02', 1);
    const childResults = child
      .filter((f) => f.type === 'tool.result')
      .map((f) => f.payload as { tool_call_id: string; ok: boolean; output: string });
    expect(childResults).toEqual([
      // The denial is recorded by the projection, in the infer transition, before the allowed call runs.
      expect.objectContaining({ tool_call_id: 'b', ok: false, output: expect.stringContaining('Permission denied') }),
      expect.objectContaining({ tool_call_id: 'a', ok: true, output: 'ticket 7: open (owner token [REDACTED])' }),
    ]);
    // Tool invoker: the host's hook saw the parent's task call and the child's allowed call, as agent calls.
    expect(hooked.map((h) => [h.name, h.source])).toEqual([
      ['task', 'agent'],
      ['ticket_lookup', 'agent'],
    ]);
    expect(new Set(hooked.map((h) => h.runId)).size).toBe(2);
    // LLM invoker: the child's provider calls drew on the session's one budget (the soft cap at the 3rd call).
    expect(model.requests).toHaveLength(4);
    // (The child's second call is the session's third: a budget of its own would have been at 2.)
    expect(events.filter((e) => e.payload.type === 'budget_threshold_hit').map((e) => e.payload)).toEqual([
      expect.objectContaining({ agent: 'triage', reason: expect.stringMatching(/^llm_calls: 3 /) }),
    ]);
    // Evidence: the parent's log and the child's thread replay with the effect package alone.
    const parent = summarizeLog(session.store.log.facts);
    expect(parent.tools.by_name.task).toMatchObject({ calls: 1, ok: 1 });
    const replayed = summarizeLog(child);
    expect(replayed.tools).toMatchObject({ total: 2, ok: 1, failed: 1 });
    expect(replayed.runs).toEqual([expect.objectContaining({ status: 'completed' })]);
  });
});
