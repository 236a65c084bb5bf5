// Read-only MCP tools (`readOnlyHint: true`, tier `read`) run without asking under
// `mcpReadOnlyChecker`; the hint never overrides a rule, and other MCP tools still ask.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolInvoker, ToolRegistry, type ConfirmationManager, type PermissionPolicyConfig } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { McpSources, mcpReadOnlyChecker, syncMcpTools } from '../src/index.js';
import { testServer } from './kit.js';

const sources = new McpSources();
const registry = new ToolRegistry();
let stop: () => void = () => {};
beforeAll(async () => {
  await sources.addMcpServer('t', testServer('t'));
  stop = syncMcpTools(sources, registry);
});
afterAll(async () => {
  stop();
  await sources.close();
});

function invoker(policy: PermissionPolicyConfig, governance: { mode?: 'plan' } = {}) {
  const asked: string[] = [];
  const confirmation: ConfirmationManager = {
    confirm: async (request) => {
      asked.push(request.toolName);
      return { approved: true };
    },
  };
  const inv = new ToolInvoker({ registry, policy, checker: mcpReadOnlyChecker(), confirmation });
  const run = createTestInvocation(governance);
  let n = 0;
  return {
    asked,
    invoke: (name: string, args: unknown) => inv.invoke({ id: `c${++n}`, name, args }, run.context, 'agent'),
  };
}

describe('mcpReadOnlyChecker', () => {
  it('PERM-05: a readOnlyHint tool is tier read and runs without asking; a tool without the hint still asks', async () => {
    expect(registry.get('mcp__t__echo')?.tier).toBe('read');
    const { asked, invoke } = invoker({});
    expect(await invoke('mcp__t__echo', { text: 'hi' })).toMatchObject({
      ok: true,
      permission: 'allow',
      output: 't: hi',
    });
    expect(await invoke('mcp__t__stderr', { text: 'x' })).toMatchObject({ ok: true, permission: 'ask_approved' });
    expect(asked).toEqual(['mcp__t__stderr']);
  });

  it('PERM-05: rules win over the hint — a deny rule denies, an ask rule asks', async () => {
    const denied = invoker({ deny: ['mcp__t__echo'] });
    expect(await denied.invoke('mcp__t__echo', { text: 'hi' })).toMatchObject({
      ok: false,
      errorKind: 'permission_denied',
    });
    const asking = invoker({ ask: ['mcp__t'] });
    expect(await asking.invoke('mcp__t__echo', { text: 'hi' })).toMatchObject({ ok: true, permission: 'ask_approved' });
    expect(asking.asked).toEqual(['mcp__t__echo']);
  });

  it('PERM-05: plan mode still denies write and exec tools (core default checker first)', async () => {
    const { invoke } = invoker({}, { mode: 'plan' });
    expect(await invoke('mcp__t__echo', { text: 'plan' })).toMatchObject({ ok: true, output: 't: plan' });
    expect((await invoke('mcp__t__destroy', {})).ok).toBe(false);
  });
});
