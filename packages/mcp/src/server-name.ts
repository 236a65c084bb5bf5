/**
 * MCP server names. A name becomes part of every tool's surface name (`mcp__<server>__<tool>`)
 * and the capability its tools require (`mcp.<server>`), so it is checked before anything starts.
 */
import { McpConfigError } from './errors.js';

/**
 * Server names: 1..64 of `[A-Za-z0-9_-]`, starting with a letter or digit, never containing
 * `__` (the separator of `mcp__<server>__<tool>`) and never ending with `_`.
 */
export const MCP_SERVER_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9-]*(?:_[A-Za-z0-9-]+)*$/;

/** What a server name may be, as error messages say it. */
export const MCP_SERVER_NAME_RULE =
  "1..64 of [A-Za-z0-9_-], start with a letter or digit, not end with '_', and contain no '__'";

/** Checks a server name; throws `MCP_CONFIG` naming `field` and the allowed form. */
export function assertServerName(name: unknown, field = 'name'): asserts name is string {
  if (typeof name !== 'string' || name.length > 64 || !MCP_SERVER_NAME_RE.test(name)) {
    throw new McpConfigError(field, `server name ${JSON.stringify(name)} must be ${MCP_SERVER_NAME_RULE}`);
  }
}

/**
 * The capability a server's tools require, `mcp.<server>`: provided while the server serves
 * (connected, or crashed and waiting for the next call to restart it), withdrawn while it
 * starts, after it failed and once it is closed.
 * @throws McpConfigError (`MCP_CONFIG`) when `server` is not a valid server name.
 */
export function mcpCapability(server: string): `mcp.${string}` {
  assertServerName(server, 'server');
  return `mcp.${server}`;
}
