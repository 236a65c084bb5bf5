/** Tools that change while a session lives (MCP servers): attached to its registry. */
import type { Tool } from '../tools/tool.js';

/** A source of tools kept in step with a session's registry. */
export interface ToolSource {
  /** Starts keeping `registry` in step with the source; returns the detacher (called on close). */
  attach(registry: {
    add(tool: Tool, options?: { readonly replace?: boolean }): unknown;
    remove(name: string): boolean;
  }): () => void;
}
