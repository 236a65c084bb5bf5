/**
 * Tests only: a kernel with `web_fetch` alone (the private network allowed, for loopback servers)
 * under a policy, and a call of it from the model (`agent`) or the host.
 */
import { ToolInvoker, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { createWebFetchTool } from '../web-fetch-tool.js';

/** An invoker whose only tool is `web_fetch`, under `policy`. */
export function fetchInvoker(policy: ConstructorParameters<typeof ToolInvoker>[0]['policy']): ToolInvoker {
  const registry = new ToolRegistry({ capabilities: [] });
  registry.add(createWebFetchTool({ allowPrivateNetwork: true }));
  return new ToolInvoker({ registry, policy });
}

/** One `web_fetch` of `url` through `inv`, as the model (default) or the host makes it. */
export const fetchAs = (inv: ToolInvoker, url: string, source: 'agent' | 'host' = 'agent') =>
  inv.invoke({ id: 'f', name: 'web_fetch', args: { url } }, createTestInvocation().context, source);
