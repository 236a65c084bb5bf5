/**
 * Keeps a tool registry in step with a session's MCP surface. Each server is a capability,
 * `mcp.<server>`, that every one of its tools requires: it is provided while the server serves
 * (connected, or crashed and waiting for the next call to restart it), withdrawn while it starts,
 * once it failed (reported with the server's name, reason and stderr tail) and once it is closed
 * or removed; a server restarted later provides it again. The tools themselves appear as
 * `mcp__<server>__<tool>` when discovered, change on `tools/list_changed`, and disappear when
 * their server is removed, fails or is shadowed. The target is structural, so core's
 * `ToolRegistry` and a session's tool-source target fit without this package importing anything
 * but core's public entry.
 */
import type { SourceResourceState, Tool, ToolSource } from '@a3s-code/core';
import { McpConnectionError } from './errors.js';
import type { McpServerStatus } from './server-status.js';
import { mcpCapability } from './server-name.js';
import { MCP_TOOL_PREFIX } from './tool-names.js';

/** The capability a server's tools require: `mcp.<server>`. */
export type McpCapability = `mcp.${string}`;

/**
 * What {@link syncMcpTools} writes to. A session's tool-source target has `resource` (each
 * server's capability state is reported there); core's `ToolRegistry` has `provide` and
 * `withdraw` (the capability is provided while the server serves). A target with neither gets the
 * tools only.
 */
export interface McpToolTarget {
  add(tool: Tool, options?: { readonly replace?: boolean }): unknown;
  remove(name: string): boolean;
  /** Reports the state of `mcp.<server>`; a `failed` state carries an `McpConnectionError`. */
  resource?(capability: McpCapability, state: SourceResourceState, error?: unknown): void;
  /** Provides capabilities (used when there is no `resource`). */
  provide?(capabilities: Iterable<McpCapability>): unknown;
  /** Withdraws capabilities (used when there is no `resource`). */
  withdraw?(capabilities: Iterable<McpCapability>): unknown;
}

/** What {@link syncMcpTools} reads from (an `McpSources` or any `McpSource`). */
export interface McpToolProvider {
  tools(): readonly Tool[];
  /** Every server, with `shadowedBy` set on those a later source hides (they drive nothing). */
  status(): readonly (McpServerStatus & { readonly shadowedBy?: string })[];
  onChange(listener: () => void): () => void;
}

/** The capability state a server's status gives. */
export function mcpCapabilityState(status: McpServerStatus): SourceResourceState {
  switch (status.state) {
    case 'connecting':
      return 'opening';
    case 'connected':
    case 'crashed':
    case 'restarting':
      return 'open';
    case 'failed':
      return 'failed';
    case 'closed':
      return 'closed';
  }
}

/** The error a failed server's capability is reported with: its name, reason and stderr tail. */
function failureOf(status: McpServerStatus): McpConnectionError {
  return new McpConnectionError(status.name, status.lastError ?? 'failed', undefined, status.stderrTail);
}

/**
 * Mirrors `provider`'s servers and tools into `target` now and after every change: each
 * effective server's capability state (see {@link McpToolTarget}), then its tools; only names
 * starting with `mcp__` that this sync added are ever removed. Nothing one server does can make
 * it throw: a capability or a tool the target refuses is left out (so it never reaches the
 * server's connection, nor stops the other servers' mirroring). Returns a function that stops
 * syncing, removes the tools it added and closes (or withdraws) the capabilities it reported.
 */
export function syncMcpTools(provider: McpToolProvider, target: McpToolTarget): () => void {
  const mine = new Map<string, Tool>();
  /** Capability → the last state reported (with the failure's text, so a new failure is told). */
  const told = new Map<McpCapability, string>();
  const report = (capability: McpCapability, state: SourceResourceState, error?: McpConnectionError): void => {
    const key = error === undefined ? state : `${state}:${error.message}`;
    if (told.get(capability) === key) return;
    told.set(capability, key);
    try {
      if (target.resource !== undefined) target.resource(capability, state, error);
      else if (state === 'open') target.provide?.([capability]);
      else target.withdraw?.([capability]);
    } catch {
      // Refused (another source drives the same capability): its tools stay gated by the target.
    }
  };
  const capabilities = (): void => {
    const seen = new Set<McpCapability>();
    for (const s of provider.status()) {
      if (s.shadowedBy !== undefined) continue;
      const capability = mcpCapability(s.name);
      seen.add(capability);
      const state = mcpCapabilityState(s);
      report(capability, state, state === 'failed' ? failureOf(s) : undefined);
    }
    for (const capability of told.keys()) if (!seen.has(capability)) report(capability, 'closed');
  };
  const tools = (): void => {
    const next = new Map(
      provider
        .tools()
        .filter((t) => t.name.startsWith(MCP_TOOL_PREFIX))
        .map((t) => [t.name, t] as const),
    );
    for (const name of [...mine.keys()]) {
      if (!next.has(name)) {
        target.remove(name);
        mine.delete(name);
      }
    }
    for (const [name, tool] of next) {
      if (mine.get(name) === tool) continue;
      try {
        target.add(tool, { replace: true });
        mine.set(name, tool);
      } catch {
        // A tool the target refuses stays off the surface; the other tools and servers carry on.
      }
    }
  };
  const apply = (): void => {
    capabilities();
    tools();
  };
  apply();
  const stop = provider.onChange(apply);
  return () => {
    stop();
    for (const name of mine.keys()) target.remove(name);
    mine.clear();
    for (const capability of told.keys()) report(capability, 'closed');
    told.clear();
  };
}

/**
 * The core `ToolSource` of a session's MCP sources: attached to a session, it mirrors them with
 * {@link syncMcpTools}, so each server is the session resource `mcp.<server>` (named
 * `@a3s-code/mcp` in the session's `resources()`) and its tools require it.
 */
export function mcpToolSource(provider: McpToolProvider): ToolSource {
  return { name: '@a3s-code/mcp', attach: (target) => syncMcpTools(provider, target) };
}
