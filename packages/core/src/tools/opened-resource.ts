/** The names of resource capabilities and the handle an opened resource gives its tools. */

/**
 * A resource capability name: `resource.<name>` (lowercase letters, digits, `_`, `.`, `-`) for a
 * pack's resource, or `mcp.<server>` for an MCP server (provided only by an MCP tool source).
 */
export type ResourceCapability = `resource.${string}` | `mcp.${string}`;

/** An opened resource: the handle its tools receive from `ctx.resource`. */
export interface OpenedResource {
  /** Releases the resource. Called once, when the session closes (or the resource is closed). */
  close(): Promise<void>;
}
