/**
 * What a tool source (MCP) writes to when a session attaches it: its tools, and the state of the
 * capabilities it drives itself. An MCP server is such a capability (`mcp.<server>`): its owner
 * starts, restarts and stops it, and reports each change; the session mirrors the state, so the
 * tools that require the capability are on the surface exactly while it is `open`.
 */
import type { Tool } from '../tools/tool.js';
import type { ResourceCapability } from '../tools/tool-resource.js';

/** The state a source reports for a capability it drives. */
export type SourceResourceState = 'opening' | 'open' | 'failed' | 'closed';

/** What {@link ToolSource.attach} receives: the session's registry, narrowed to what a source may do. */
export interface ToolSourceTarget {
  /** Adds a tool (gated by its `requires`, like every tool); `replace` swaps a tool of the same name. */
  add(tool: Tool, options?: { readonly replace?: boolean }): unknown;
  /** Removes a tool the source added. Returns whether it existed. */
  remove(name: string): boolean;
  /**
   * Reports the state of a capability the source drives (`mcp.<server>`, or `resource.<name>`):
   * `open` provides it, any other state withdraws it; `failed` carries the error the session
   * reports (as `RESOURCE_OPEN_FAILED`). A state may follow any other (a failed server restarted
   * by its owner opens again). Throws `INVALID_TOOL_DEFINITION` for a malformed capability or one
   * a pack or another source provides.
   */
  resource(capability: ResourceCapability, state: SourceResourceState, error?: unknown): void;
}
