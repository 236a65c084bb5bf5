import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import { Agent } from '../session/agent.js';
import { describeSessionTools } from '../session/describe-tools.js';
import { ScriptedLlmClient } from '../testing/index.js';
import { defineTool } from './define-tool.js';
import { defineToolPack, type ToolPackSessionContext } from './tool-pack.js';
import type { WebSetting } from './pack-settings.js';

/** A pack whose one tool is built per session from the `web` setting; records what it saw. */
function sessionPack() {
  const seen: { settings: WebSetting | undefined; closed: number; opened: number } = { settings: undefined, closed: 0, opened: 0 };
  const pack = defineToolPack({
    name: 'per-session',
    version: '1.0.0',
    tools: [],
    openSession: (ctx: ToolPackSessionContext) => {
      seen.opened += 1;
      seen.settings = ctx.settings.web;
      if (ctx.settings.web === false) return { tools: [] };
      const tool = defineTool({ name: 'session_tool', description: 'a per-session tool', input: z.object({}), tier: 'read', execute: async () => ({ output: `clock ${ctx.clock()}`, exitCode: 0 }) });
      return { tools: [tool], close: async () => void (seen.closed += 1) };
    },
  });
  return { pack, seen };
}

const { sessions } = closeAfterEach();

describe('tool packs opened per session', () => {
  it('openSession builds tools from the merged settings and is closed with the session', async () => {
    const ws = workspace();
    const { pack, seen } = sessionPack();
    const agent = await Agent.create({ model: new ScriptedLlmClient([]), tools: [pack], workspace: ws.services, web: { allowPrivateNetwork: true }, clock: () => 42 });
    const session = await agent.session(ws.dir, { web: { fetch: false } });
    sessions.push(session);
    expect(seen.settings).toEqual({ fetch: false });
    expect(session.toolNames()).toContain('session_tool');
    expect((await session.tool('session_tool', {})).output).toBe('clock 42');
    await session.close();
    expect(seen.closed).toBe(1);
  });

  it('web: false reaches the pack; a listed surface opens and closes the pack too', async () => {
    const ws = workspace();
    const { pack, seen } = sessionPack();
    const off = await describeSessionTools(ws.dir, { tools: [pack], workspace: ws.services }, { web: false });
    expect(seen.settings).toBe(false);
    expect(off.map((d) => d.name)).not.toContain('session_tool');
    const on = await describeSessionTools(ws.dir, { tools: [pack], workspace: ws.services });
    expect(seen.settings).toBeUndefined();
    expect(on.map((d) => d.name)).toContain('session_tool');
    expect(seen).toMatchObject({ opened: 2, closed: 1 });
  });

  it('openSession must be a function', () => {
    expect(() => defineToolPack({ name: 'p', version: '1.0.0', tools: [], openSession: 3 as never })).toThrow(/openSession/);
  });
});
