import { describe, expect, it } from 'vitest';
import { ToolNotFoundError } from '../errors/tool-errors.js';
import { InMemoryArtifactStore } from '../invoker/artifact-store.js';
import { emptyWorkspace } from '../workspace/workspace-services.js';
import { createTestToolPack, createToolContext } from './index.js';

describe('createToolContext', () => {
  it('builds a real ToolContext with defaults for a direct execute call', async () => {
    const ctx = createToolContext({ toolName: 'echo' });
    expect(ctx).toMatchObject({ toolName: 'echo', source: 'host', runId: 'run-1', sessionId: 'session-1', depth: 0 });
    expect(ctx.callId).toMatch(/^test-call-\d+$/);
    expect(createToolContext().callId).not.toBe(ctx.callId);
    expect(ctx.signal.aborted).toBe(false);
    expect(ctx.workspace).toMatchObject({ root: '(none)' });
    expect(ctx.workspace.capabilities.size).toBe(0);
    expect(ctx.artifacts).toBeInstanceOf(InMemoryArtifactStore);
    expect(Object.isFrozen(ctx)).toBe(true);
    const echo = createTestToolPack().pack.tools.find((t) => t.name === 'echo')!;
    expect(await echo.execute({ text: 'ab', times: 2 }, ctx)).toEqual({ output: 'abab', exitCode: 0 });
  });

  it('records emitOutput deltas and keeps artifacts in its store', async () => {
    const ctx = createToolContext();
    ctx.emitOutput('one');
    ctx.emitOutput('');
    ctx.emitOutput('two');
    expect(ctx.deltas).toEqual(['one', 'two']);
    const ref = await ctx.artifacts.put('payload', { toolName: ctx.toolName, callId: ctx.callId });
    expect(await ctx.artifacts.get(ref.id)).toBe('payload');
  });

  it('the nested invoker refuses every call with a typed error and runs nothing', async () => {
    const ctx = createToolContext({ callId: 'p' });
    expect(ctx.invoker.toolNames()).toEqual([]);
    expect(ctx.invoker.capabilitiesOf('echo', {})).toBeUndefined();
    const r = await ctx.invoker.invoke('echo', { text: 'x' });
    expect(r).toMatchObject({
      id: 'p.1',
      name: 'echo',
      source: 'nested',
      ok: false,
      exitCode: 1,
      errorKind: 'not_found',
    });
    expect(r.error).toBeInstanceOf(ToolNotFoundError);
    expect(r.error?.code).toBe('TOOL_NOT_FOUND');
    expect((await ctx.invoker.invoke('echo', {}, { id: 'mine' })).id).toBe('mine');
  });

  it('takes overrides for every field', () => {
    const controller = new AbortController();
    const artifacts = new InMemoryArtifactStore();
    const workspace = emptyWorkspace('/repo');
    const ctx = createToolContext({
      callId: 'c9',
      toolName: 'x',
      source: 'agent',
      runId: 'r',
      sessionId: 's',
      signal: controller.signal,
      depth: 2,
      workspace,
      artifacts,
    });
    expect(ctx).toMatchObject({ callId: 'c9', toolName: 'x', source: 'agent', runId: 'r', sessionId: 's', depth: 2 });
    expect(ctx.signal).toBe(controller.signal);
    expect(ctx.workspace).toBe(workspace);
    expect(ctx.artifacts).toBe(artifacts);
  });
});
