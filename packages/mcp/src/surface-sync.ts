/**
 * Keeps a tool registry in step with a session's MCP surface: tools appear as
 * `mcp__<server>__<tool>` when discovered, change on `tools/list_changed`, and disappear when
 * their server is removed, fails or is shadowed. The target is structural, so core's
 * `ToolRegistry` fits without this package importing anything but core's public entry.
 */
import type { Tool } from '@a3s-code/core';
import { MCP_TOOL_PREFIX } from './tool-names.js';

/** What {@link syncMcpTools} writes to (core's `ToolRegistry` has this shape). */
export interface McpToolTarget {
  add(tool: Tool, options?: { readonly replace?: boolean }): unknown;
  remove(name: string): boolean;
}

/** What {@link syncMcpTools} reads from (an `McpSources` or any `McpSource`). */
export interface McpToolProvider {
  tools(): readonly Tool[];
  onChange(listener: () => void): () => void;
}

/**
 * Mirrors `provider`'s tools into `target` now and after every change; only names starting with
 * `mcp__` that this sync added are ever removed. Returns a function that stops syncing and
 * removes the tools it added.
 */
export function syncMcpTools(provider: McpToolProvider, target: McpToolTarget): () => void {
  const mine = new Map<string, Tool>();
  const apply = (): void => {
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
      target.add(tool, { replace: true });
      mine.set(name, tool);
    }
  };
  apply();
  const stop = provider.onChange(apply);
  return () => {
    stop();
    for (const name of mine.keys()) target.remove(name);
    mine.clear();
  };
}
