// Capability generations with real MCP server processes: a server added while a run is in the
// middle of a tool call joins the next run only, and a preparation that fails at any step of its
// graph leaves the previous generation published with no server process and no resource behind.
import { spawn } from 'node:child_process';
import { defineTool, defineToolPack, type OpenedResource } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { gone, holdPack, mcpServer as server, tempRepo, until } from './kit.js';

/** A pack with a `session` resource that is a real child process (its pid recorded). */
function processPack(failOpen = false) {
  const seen = { pids: [] as number[], closed: 0 };
  const pack = defineToolPack({
    name: 'proc-pack',
    version: '1.0.0',
    tools: [
      defineTool({
        name: 'proc_ping',
        description: 'Pings the resource process.',
        tier: 'read',
        requires: ['resource.proc'],
        input: z.object({}).strict(),
        execute: async () => ({ output: 'pong', exitCode: 0 }),
      }),
    ],
    resources: [
      {
        capability: 'resource.proc',
        opens: 'session',
        open: async (): Promise<OpenedResource> => {
          const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
          seen.pids.push(child.pid!);
          if (failOpen) {
            child.kill('SIGKILL');
            throw new Error('the resource refused to start');
          }
          return {
            close: async () => {
              seen.closed += 1;
              child.kill('SIGKILL');
              await new Promise((r) => child.once('exit', r));
            },
          };
        },
      },
    ],
  });
  return { pack, seen };
}

const call = (name: string, args: Record<string, unknown>, id: string) => ({ id, name, args });

describe('capability generations with MCP servers', () => {
  it('CAP-06: an MCP server added while a run is mid-tool is not offered to or callable by that run; the next run has it', async () => {
    const dir = tempRepo();
    const hold = holdPack();
    const model = new ScriptedLlmClient([
      { tool_calls: [call('hold', {}, 'h1')] },
      { tool_calls: [call('mcp__extra__echo', { text: 'too early' }, 'e1')] },
      { text: 'first run done' },
      { tool_calls: [call('mcp__extra__echo', { text: 'now' }, 'e2')] },
      { text: 'second run done' },
    ]);
    const agent = await Agent.create({
      model,
      tools: [hold.pack],
      permissions: { allow: ['hold', 'mcp__extra'] },
      workspaceTools: false,
    });
    const s = await agent.session(dir, { web: false });
    try {
      const first = s.send('hold, then echo');
      await hold.inside;
      const before = s.catalog.current;
      const status = await s.addMcpServer('extra', server('extra'));
      expect(status).toMatchObject({ name: 'extra', state: 'connected' });
      expect(s.catalog.current.generation).toBe(before.generation + 1);
      expect(s.toolNames()).toContain('mcp__extra__echo');
      expect(s.catalog.leases()).toEqual([{ generation: before.generation, owner: s.activeRunId }]);
      hold.release();
      expect(await first).toMatchObject({ status: 'completed', text: 'first run done' });
      // The pinned run's next model request lists the old tools only, and its call is refused.
      expect(model.requests[1]!.tools.map((t) => t.name)).not.toContain('mcp__extra__echo');
      const refused = s.core.store.log.facts.find(
        (f) => f.type === 'tool.result' && (f.payload as { tool_call_id: string }).tool_call_id === 'e1',
      )!.payload as { ok: boolean; output: string };
      expect(refused.ok).toBe(false);
      expect(refused.output).toContain(`tool 'mcp__extra__echo' is not in capability generation ${before.generation}`);
      // The next run is admitted under the new generation.
      expect(await s.send('echo now')).toMatchObject({ text: 'second run done' });
      expect(model.requests[3]!.tools.map((t) => t.name)).toContain('mcp__extra__echo');
      const echoed = s.core.store.log.facts.find(
        (f) => f.type === 'tool.result' && (f.payload as { tool_call_id: string }).tool_call_id === 'e2',
      )!.payload;
      expect(echoed).toMatchObject({ ok: true, output: 'extra: now' });
    } finally {
      hold.release();
      await s.close();
      await agent.close();
    }
  });

  it('CAP-05/CAP-02: a preparation failing at any step of its graph leaves the previous generation and no process or resource behind', async () => {
    const dir = tempRepo();
    const agent = await Agent.create({ model: new ScriptedLlmClient([]), workspaceTools: false });
    const s = await agent.session(dir, { web: false });
    const faults = ['mcp.start', 'mcp.discover', 'pack.attach', 'pack.open', 'validate', 'publish'] as const;
    try {
      for (const mode of [...faults, 'cancel-while-starting', 'resource-open-fails'] as const) {
        const before = s.catalog.current;
        const tools = s.toolNames();
        const proc = processPack(mode === 'resource-open-fails');
        const controller = new AbortController();
        let serverPid: number | undefined;
        const steps = [
          ...s.mcpServerSteps('extra', server('extra')),
          ...s.catalog.toolPackSteps(proc.pack, { after: ['mcp.discover'] }),
        ];
        const reached: string[] = [];
        const error = await s.catalog
          .prepare(steps, {
            signal: controller.signal,
            onStep: async (step) => {
              reached.push(step);
              serverPid ??= s.mcpStatus().find((x) => x.name === 'extra')?.pid;
              if (mode === 'cancel-while-starting' && step === 'mcp.start') {
                const waitForPid = setInterval(() => {
                  const pid = s.mcpStatus().find((x) => x.name === 'extra')?.pid;
                  if (pid === undefined) return;
                  serverPid = pid;
                  clearInterval(waitForPid);
                  controller.abort('host cancelled');
                }, 1);
              }
              if (step === mode) throw new Error(`fault injected before ${step}`);
            },
          })
          .catch((e: unknown) => e);
        const expectedStep =
          mode === 'cancel-while-starting' ? 'mcp.start' : mode === 'resource-open-fails' ? 'pack.open' : mode;
        expect(error, mode).toMatchObject({
          code: mode === 'cancel-while-starting' ? 'CATALOG_PREPARATION_CANCELLED' : 'CATALOG_PREPARATION_FAILED',
          step: expectedStep,
        });
        expect(reached.at(-1), mode).toBe(expectedStep);
        expect(s.catalog.current, mode).toBe(before);
        expect(s.toolNames(), mode).toEqual(tools);
        expect(
          s.mcpStatus().map((x) => x.name),
          mode,
        ).toEqual([]);
        expect(
          s.resources().map((r) => r.capability),
          mode,
        ).toEqual(expect.not.arrayContaining(['resource.proc', 'mcp.extra']));
        if (serverPid !== undefined) expect(await until(() => gone(serverPid!)), `${mode}: server process`).toBe(true);
        else expect(['mcp.start'], mode).toContain(expectedStep);
        for (const pid of proc.seen.pids) expect(await until(() => gone(pid)), `${mode}: resource process`).toBe(true);
      }
      // The same graph without a fault publishes one new generation with both.
      const proc = processPack();
      const next = await s.catalog.prepare([
        ...s.mcpServerSteps('extra', server('extra')),
        ...s.catalog.toolPackSteps(proc.pack, { after: ['mcp.discover'] }),
      ]);
      expect(next.toolNames()).toEqual(expect.arrayContaining(['mcp__extra__echo', 'proc_ping']));
      expect(await s.tool('proc_ping')).toMatchObject({ exitCode: 0, output: 'pong' });
    } finally {
      await s.close();
      await agent.close();
    }
  });
});
