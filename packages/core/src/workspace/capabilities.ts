/**
 * Capability names. A workspace declares the ones it serves; an attached resource (language
 * server, debug supervisor, kernel factory, ask port, vibe roster, MCP server) adds its own.
 * A tool registers only when every capability it `requires` is provided.
 */

/** The capabilities a `WorkspaceServices` backend can declare. */
export type WorkspaceServiceCapability = 'fs.read' | 'fs.write' | 'fs.list' | 'search' | 'exec' | 'git';

/** Every workspace capability name. */
export const WORKSPACE_CAPABILITIES: readonly WorkspaceServiceCapability[] = [
  'fs.read',
  'fs.write',
  'fs.list',
  'search',
  'exec',
  'git',
];

/**
 * A capability a tool may require: one of the workspace's, or a resource capability named
 * `resource.<name>` (e.g. `resource.lsp`, `resource.ask`) or `mcp.<server>`.
 */
export type WorkspaceCapability = WorkspaceServiceCapability | `resource.${string}` | `mcp.${string}`;

const CAPABILITY_RE = /^(fs\.read|fs\.write|fs\.list|search|exec|git|resource\.[a-z0-9_.-]+|mcp\.[A-Za-z0-9_.-]+)$/;

/** True when `value` is a well-formed capability name. */
export function isWorkspaceCapability(value: unknown): value is WorkspaceCapability {
  return typeof value === 'string' && CAPABILITY_RE.test(value);
}
