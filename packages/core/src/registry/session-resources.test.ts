import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ResourceOpenError } from '../errors/resource-errors.js';
import { ToolDefinitionError } from '../errors/tool-errors.js';
import { ToolInvoker } from '../invoker/tool-invoker.js';
import { createTestInvocation } from '../testing/index.js';
import { defineTool } from '../tools/define-tool.js';
import { defineToolPack } from '../tools/tool-pack.js';
import type { OpenedResource, ResourceCapability, ToolResource } from '../tools/tool-resource.js';
import { SessionResources } from './session-resources.js';
import type { ToolSourceTarget } from './source-target.js';
import { ToolRegistry } from './tool-registry.js';

interface Counter extends OpenedResource {
  next(): number;
}

/** A resource `resource.counter` that records how often it opened and closed; `fail` makes `open` reject. */
function counterResource(options: { fail?: string; opens?: 'lazy' | 'session'; delayMs?: number } = {}) {
  const seen = { opened: 0, closed: 0 };
  const resource: ToolResource<Counter> = {
    capability: 'resource.counter',
    ...(options.opens ? { opens: options.opens } : {}),
    open: async () => {
      seen.opened += 1;
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      if (options.fail !== undefined) throw new Error(options.fail);
      let n = 0;
      return {
        next: () => ++n,
        close: async () => {
          seen.closed += 1;
        },
      };
    },
  };
  return { resource, seen };
}

const countTool = defineTool({
  name: 'count',
  description: 'counts',
  input: z.object({}),
  tier: 'read',
  requires: ['resource.counter'],
  execute: async (_args, ctx) => ({
    output: String((await ctx.resource<Counter>('resource.counter')).next()),
    exitCode: 0,
  }),
});

let calls = 0;
/** A host call of `name` with no arguments. */
function call(invoker: ToolInvoker, name: string) {
  calls += 1;
  return invoker.invoke({ id: `c${calls}`, name, args: {} }, createTestInvocation().context, 'host');
}

function setup(resource: ToolResource) {
  const registry = new ToolRegistry();
  const resources = new SessionResources(registry, {
    sessionId: 's',
    clock: () => 0,
    settings: {},
    signal: new AbortController().signal,
  });
  const pack = defineToolPack({ name: 'counter-pack', version: '1.0.0', tools: [countTool], resources: [resource] });
  const invoker = new ToolInvoker({ registry, resources, policy: { defaultDecision: 'allow' } });
  return { registry, resources, pack, invoker };
}

describe('pack resources (one plug-in path)', () => {
  it('TIER-05: a tool requiring a lazy resource appears when its pack attaches it, before it is opened', () => {
    const { resource, seen } = counterResource();
    const { registry, resources, pack } = setup(resource);
    expect(registry.toolNames()).toEqual([]);
    resources.addPack(pack);
    expect(registry.toolNames()).toEqual(['count']);
    expect(seen.opened).toBe(0);
    expect(resources.status()).toMatchObject([
      { capability: 'resource.counter', pack: 'counter-pack', state: 'attached', opens: 'lazy' },
    ]);
  });

  it('a tool whose resource no pack provides never registers', () => {
    const registry = new ToolRegistry();
    const resources = new SessionResources(registry, {
      sessionId: 's',
      clock: () => 0,
      settings: {},
      signal: new AbortController().signal,
    });
    resources.addPack(
      defineToolPack({
        name: 'needs-lsp',
        version: '1.0.0',
        tools: [{ ...countTool, name: 'lsp', requires: ['resource.lsp'] }],
      }),
    );
    expect(registry.toolNames()).toEqual([]);
    expect(registry.pending()).toEqual([{ name: 'lsp', missing: ['resource.lsp'] }]);
  });

  it('lazy open runs once under concurrent first calls, and the resource keeps its state between calls', async () => {
    const { resource, seen } = counterResource({ delayMs: 10 });
    const { resources, pack, invoker } = setup(resource);
    resources.addPack(pack);
    const results = await Promise.all([call(invoker, 'count'), call(invoker, 'count'), call(invoker, 'count')]);
    expect(seen.opened).toBe(1);
    expect(results.map((r) => r.output).sort()).toEqual(['1', '2', '3']);
    expect(resources.status()[0]!.state).toBe('open');
  });

  it('TIER-05: closing a resource takes its tools off the surface; closing all closes each opened resource once', async () => {
    const { resource, seen } = counterResource();
    const { registry, resources, pack, invoker } = setup(resource);
    resources.addPack(pack);
    await call(invoker, 'count');
    await resources.close('resource.counter');
    expect(registry.toolNames()).toEqual([]);
    expect(registry.pending()).toEqual([{ name: 'count', missing: ['resource.counter'] }]);
    await resources.closeAll();
    expect(seen).toEqual({ opened: 1, closed: 1 });
    await expect(resources.acquire('resource.counter')).rejects.toMatchObject({ code: 'RESOURCE_UNAVAILABLE' });
  });

  it('TIER-05: a lazy resource that fails to open fails the call with a typed error naming the capability, is reported, and its tools leave the surface', async () => {
    const { resource } = counterResource({ fail: 'binary not found' });
    const { registry, resources, pack, invoker } = setup(resource);
    resources.addPack(pack);
    const reported: ResourceOpenError[] = [];
    resources.onFailure((e) => reported.push(e));
    const r = await call(invoker, 'count');
    expect(r.ok).toBe(false);
    expect(r.error).toBeInstanceOf(ResourceOpenError);
    expect(r.error).toMatchObject({
      code: 'RESOURCE_OPEN_FAILED',
      capability: 'resource.counter',
      pack: 'counter-pack',
      reason: 'binary not found',
    });
    expect(r.error?.message).toBe(
      "resource 'resource.counter' of pack 'counter-pack' failed to open: binary not found",
    );
    expect(reported).toHaveLength(1);
    expect(registry.toolNames()).toEqual([]);
    expect(resources.status()[0]).toMatchObject({ state: 'failed', error: { code: 'RESOURCE_OPEN_FAILED' } });
  });

  it('TIER-05: a resource that opens at build provides its capability only once open; when it fails, its tool never appears', async () => {
    const ok = counterResource({ opens: 'session' });
    const a = setup(ok.resource);
    a.resources.addPack(a.pack);
    expect(a.registry.toolNames()).toEqual([]);
    await a.resources.openAtBuild();
    expect(a.registry.toolNames()).toEqual(['count']);
    expect(ok.seen.opened).toBe(1);

    const bad = counterResource({ opens: 'session', fail: 'no kernel' });
    const b = setup(bad.resource);
    b.resources.addPack(b.pack);
    await b.resources.openAtBuild();
    expect(b.registry.toolNames()).toEqual([]);
    expect(b.resources.failures().map((e) => e.message)).toEqual([
      "resource 'resource.counter' of pack 'counter-pack' failed to open: no kernel",
    ]);
  });

  it('a resource closed while it is opening is closed as soon as it opens, never handed out', async () => {
    const { resource, seen } = counterResource({ delayMs: 10 });
    const { resources, pack } = setup(resource);
    resources.addPack(pack);
    const pending = resources.acquire('resource.counter');
    await resources.closeAll();
    await expect(pending).rejects.toMatchObject({ code: 'RESOURCE_UNAVAILABLE' });
    expect(seen).toEqual({ opened: 1, closed: 1 });
  });

  it('a tool reaches only the resources it requires', async () => {
    const { resource } = counterResource();
    const { resources, registry, invoker } = setup(resource);
    const sneaky = defineTool({
      name: 'sneaky',
      description: 'x',
      input: z.object({}),
      tier: 'read',
      execute: async (_a, ctx) => ({ output: String(await ctx.resource('resource.counter')), exitCode: 0 }),
    });
    resources.addPack(
      defineToolPack({ name: 'counter-pack', version: '1.0.0', tools: [sneaky], resources: [resource] }),
    );
    expect(registry.toolNames()).toEqual(['sneaky']);
    const r = await call(invoker, 'sneaky');
    expect(r.error).toMatchObject({ code: 'RESOURCE_UNAVAILABLE', capability: 'resource.counter' });
  });

  it('a second pack providing the same capability is refused before any of its parts is plugged in', () => {
    const { registry, resources, pack } = setup(counterResource().resource);
    resources.addPack(pack);
    const other = defineToolPack({
      name: 'other',
      version: '1.0.0',
      tools: [{ ...countTool, name: 'count2' }],
      resources: [counterResource().resource],
    });
    expect(() => resources.addPack(other)).toThrow(/'resource.counter' is already provided by pack 'counter-pack'/);
    expect(registry.toolNames()).toEqual(['count']);
  });

  it('SURF-09: a tool source (MCP) attaches through the same set and is detached when the session closes', async () => {
    const { registry, resources } = setup(counterResource().resource);
    let detached = 0;
    resources.addSource({
      attach: (target) => {
        target.add({ ...countTool, name: 'mcp__srv__echo', requires: [] });
        return () => {
          detached += 1;
          target.remove('mcp__srv__echo');
        };
      },
    });
    expect(registry.toolNames()).toEqual(['mcp__srv__echo']);
    await resources.closeAll();
    expect(detached).toBe(1);
    expect(registry.toolNames()).toEqual([]);
  });

  it('TIER-05: a capability a tool source drives (mcp.<server>) provides its tools only while the source reports it open', async () => {
    const { registry, resources } = setup(counterResource().resource);
    const reported: ResourceOpenError[] = [];
    resources.onFailure((e) => reported.push(e));
    let report: ToolSourceTarget['resource'] = () => undefined;
    resources.addSource({
      name: 'mcp-like',
      attach: (target) => {
        report = target.resource;
        target.resource('mcp.srv', 'opening');
        target.add({ ...countTool, name: 'mcp__srv__echo', requires: ['mcp.srv'] });
        return () => target.remove('mcp__srv__echo');
      },
    });
    expect(registry.toolNames()).toEqual([]);
    expect(resources.status()).toEqual([
      { capability: 'mcp.srv', pack: 'mcp-like', opens: 'session', state: 'opening' },
    ]);
    report('mcp.srv', 'open');
    expect(registry.toolNames()).toEqual(['mcp__srv__echo']);
    await expect(resources.acquire('mcp.srv')).resolves.toHaveProperty('close');

    report('mcp.srv', 'failed', new Error('crashed'));
    // Still failed, with more detail: the status shows it, listeners heard the failure once.
    report('mcp.srv', 'failed', new Error('crashed (exit code 3)'));
    expect(registry.toolNames()).toEqual([]);
    expect(reported.map((e) => [e.code, e.message])).toEqual([
      ['RESOURCE_OPEN_FAILED', "resource 'mcp.srv' of pack 'mcp-like' failed to open: crashed"],
    ]);
    expect(resources.status()[0]).toMatchObject({ state: 'failed', error: { reason: 'crashed (exit code 3)' } });
    await expect(resources.acquire('mcp.srv')).rejects.toBeInstanceOf(ResourceOpenError);

    report('mcp.srv', 'open'); // restarted by its owner: the tools come back
    expect(registry.toolNames()).toEqual(['mcp__srv__echo']);
    expect(resources.status()[0]).toEqual({ capability: 'mcp.srv', pack: 'mcp-like', opens: 'session', state: 'open' });
    report('mcp.srv', 'closed');
    expect(registry.pending()).toEqual([{ name: 'mcp__srv__echo', missing: ['mcp.srv'] }]);
    report('mcp.srv', 'open');
    await resources.closeAll();
    expect(registry.toolNames()).toEqual([]);
    expect(resources.status()[0]!.state).toBe('closed');
    report('mcp.srv', 'open'); // a detached source changes nothing
    expect(resources.status()[0]!.state).toBe('closed');
  });

  it('a tool source reporting a malformed capability, or one a pack provides, gets a typed error', () => {
    const { resources, pack } = setup(counterResource().resource);
    resources.addPack(pack);
    const attempt = (capability: string) => () =>
      resources.addSource({
        attach: (target) => {
          target.resource(capability as ResourceCapability, 'open');
          return () => undefined;
        },
      });
    expect(attempt('mcp.bad name')).toThrow(
      /tool source 'tool source'.*"mcp.bad name" must be 'mcp.<server>' \(letters, digits, _ \. -\)/,
    );
    expect(attempt('fs.read')).toThrow(ToolDefinitionError);
    expect(attempt('resource.counter')).toThrow(/'resource.counter' is already provided by 'counter-pack'/);
  });

  it('defineToolPack checks resources and refuses the removed openSession', () => {
    const open = async () => ({ close: async () => undefined });
    expect(() =>
      defineToolPack({ name: 'p', version: '1.0.0', tools: [], resources: [{ capability: 'lsp' as never, open }] }),
    ).toThrow(/resources\[0\]\.capability/);
    expect(() =>
      defineToolPack({
        name: 'p',
        version: '1.0.0',
        tools: [],
        resources: [
          { capability: 'resource.a', open },
          { capability: 'resource.a', open },
        ],
      }),
    ).toThrow(/duplicate capability/);
    expect(() =>
      defineToolPack({
        name: 'p',
        version: '1.0.0',
        tools: [],
        resources: [{ capability: 'resource.a', open: 3 as never }],
      }),
    ).toThrow(/resources\[0\]\.open/);
    expect(() =>
      defineToolPack({ name: 'p', version: '1.0.0', tools: [], openSession: () => ({ tools: [] }) } as never),
    ).toThrow(/openSession/);
  });
});
