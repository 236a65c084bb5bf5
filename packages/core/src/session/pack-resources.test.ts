import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import { ScriptedLlmClient } from '../testing/index.js';
import { defineTool } from '../tools/define-tool.js';
import { defineToolPack } from '../tools/tool-pack.js';
import type { OpenedResource, ToolResourceContext } from '../tools/tool-resource.js';
import { Agent } from './agent.js';
import { describeSessionTools } from './describe-tools.js';

interface Probe extends OpenedResource {
  readonly stamp: string;
}

/** A pack whose tool `probe` requires `resource.probe`; records what its resource saw. */
function probePack(opens: 'lazy' | 'session' = 'lazy') {
  const seen = { opened: 0, closed: 0, contexts: [] as ToolResourceContext[] };
  const pack = defineToolPack({
    name: 'probe-pack',
    version: '1.0.0',
    tools: [
      defineTool({
        name: 'probe',
        description: 'reads the session resource',
        input: z.object({}),
        tier: 'read',
        requires: ['resource.probe'],
        execute: async (_a, ctx) => ({ output: (await ctx.resource<Probe>('resource.probe')).stamp, exitCode: 0 }),
      }),
    ],
    resources: [
      {
        capability: 'resource.probe',
        opens,
        enabled: (ctx) => ctx.settings.web !== false,
        open: async (ctx) => {
          seen.opened += 1;
          seen.contexts.push(ctx);
          return {
            stamp: `opened for ${ctx.sessionId} at ${ctx.clock()}`,
            close: async () => {
              seen.closed += 1;
            },
          };
        },
      },
    ],
  });
  return { pack, seen };
}

const { sessions } = closeAfterEach();

describe('packs plugged into sessions', () => {
  it('a lazy resource opens on the first call with the session context and closes with the session', async () => {
    const ws = workspace();
    const { pack, seen } = probePack();
    const agent = await Agent.create({
      model: new ScriptedLlmClient([]),
      tools: [pack],
      workspace: ws.services,
      clock: () => 42,
    });
    const session = await agent.session(ws.dir, { sessionId: 's-1' });
    sessions.push(session);
    expect(session.toolNames()).toContain('probe');
    expect(seen.opened).toBe(0);
    expect((await session.tool('probe', {})).output).toBe('opened for s-1 at 42');
    expect((await session.tool('probe', {})).ok).toBe(true);
    expect(seen.opened).toBe(1);
    await session.close();
    expect(seen.closed).toBe(1);
    expect(seen.contexts[0]!.signal.aborted).toBe(true);
    expect(session.resources().find((r) => r.capability === 'resource.probe')?.state).toBe('closed');
  });

  it('middleware that requires a resource reaches it while wrapping another tool; without `requires` it may not', async () => {
    const ws = workspace();
    const { pack, seen } = probePack();
    const wrapping = (requires: boolean) =>
      defineToolPack({
        name: 'wrapper-pack',
        version: '1.0.0',
        tools: [
          defineTool({
            name: 'plain',
            description: 'returns ok',
            input: z.object({}),
            tier: 'read',
            execute: async () => ({ output: 'ok', exitCode: 0 }),
          }),
        ],
        middleware: [
          {
            name: 'stamp',
            tools: ['plain'],
            ...(requires ? { requires: ['resource.probe' as const] } : {}),
            wrap: async (call, next) => {
              const r = await next(call.args);
              const probe = await call.ctx.resource<Probe>('resource.probe').then(
                (p) => p.stamp,
                (e: Error) => e.message,
              );
              return { ...r, output: `${r.output} | ${probe}` };
            },
          },
        ],
      });
    for (const requires of [true, false]) {
      const agent = await Agent.create({
        model: new ScriptedLlmClient([]),
        tools: [pack, wrapping(requires)],
        workspace: ws.services,
        clock: () => 7,
      });
      const session = await agent.session(ws.dir, { sessionId: `s-${requires}` });
      sessions.push(session);
      const out = (await session.tool('plain', {})).output;
      if (requires) expect(out).toBe('ok | opened for s-true at 7');
      else expect(out).toMatch(/^ok \| .*does not require it/);
    }
    expect(seen.opened).toBe(1);
  });

  it("the session's settings decide whether a resource is attached; a listed surface never opens a lazy one", async () => {
    const ws = workspace();
    const { pack, seen } = probePack();
    const off = await describeSessionTools(ws.dir, { tools: [pack], workspace: ws.services }, { web: false });
    expect(off.map((d) => d.name)).not.toContain('probe');
    const on = await describeSessionTools(ws.dir, { tools: [pack], workspace: ws.services });
    expect(on.map((d) => d.name)).toContain('probe');
    expect(seen.opened).toBe(0);
  });

  it('TIER-05: a resource that opens at build is open before the session is handed out; a synchronous build is refused naming it', async () => {
    const ws = workspace();
    const { pack, seen } = probePack('session');
    const agent = await Agent.create({
      model: new ScriptedLlmClient([]),
      tools: [pack],
      workspace: ws.services,
      persistence: 'memory',
    });
    const session = await agent.session(ws.dir);
    sessions.push(session);
    expect(seen.opened).toBe(1);
    expect(session.toolNames()).toContain('probe');
    expect(() => agent.sessionSync(ws.dir)).toThrow(
      expect.objectContaining({ code: 'ASYNC_SESSION_BUILD_REQUIRED', resource: 'tools.probe-pack.resource.probe' }),
    );
  });

  it('SURF-06/TIER-05: ask_user and the delegation tools are on the surface exactly when the session attaches their resource', async () => {
    const ws = workspace();
    const agent = await Agent.create({
      model: new ScriptedLlmClient([]),
      workspace: ws.services,
      persistence: 'memory',
    });
    const plain = agent.sessionSync(ws.dir, { manualDelegation: false });
    sessions.push(plain);
    expect(plain.toolNames()).not.toContain('ask_user');
    expect(plain.toolNames()).not.toContain('task');
    const asking = agent.sessionSync(ws.dir, { onQuestion: async () => ({ kind: 'answer', text: 'yes' }) as never });
    sessions.push(asking);
    expect(asking.toolNames()).toEqual(expect.arrayContaining(['ask_user', 'task', 'parallel_task', 'task_result']));
  });
  it("a host pack using a name of core's own tools, or of another pack's, is refused naming that pack", async () => {
    const pack = (packName: string, toolName: string) =>
      defineToolPack({
        name: packName,
        version: '1.0.0',
        tools: [
          defineTool({
            name: toolName,
            description: 'shadows',
            input: z.object({}),
            tier: 'read',
            execute: async () => ({ output: 'shadow', exitCode: 0 }),
          }),
        ],
      });
    const ws = workspace();
    const refused = async (tools: ReturnType<typeof pack>[], manualDelegation = true) => {
      const agent = await Agent.create({ model: new ScriptedLlmClient([]), tools, workspace: ws.services });
      return agent.session(ws.dir, { persistence: 'memory', manualDelegation }).then(
        () => expect.unreachable('the session opened'),
        (e: { code: string; message: string }) => e,
      );
    };
    // Core's delegation, skills and memory packs are plugged in after the host's: the host pack is still named.
    for (const name of ['task', 'task_result', 'Skill', 'remember']) {
      const e = await refused([pack('shadow-pack', name)], false);
      expect(e.code).toBe('INVALID_TOOL_DEFINITION');
      expect(e.message).toMatch(
        new RegExp(`^tool pack 'shadow-pack': tools: tool '${name}' is already registered by pack '@a3s-code/core/`),
      );
    }
    const batch = await refused([pack('shadow-pack', 'batch')]);
    expect(batch.message).toContain(
      "tool pack 'shadow-pack': tools: tool 'batch' is already registered by pack '@a3s-code/core/runtime'",
    );
    const two = await refused([pack('first', 'probe'), pack('second', 'probe')]);
    expect(two.message).toContain("tool pack 'second': tools: tool 'probe' is already registered by pack 'first'");
  });
});
