/**
 * Surface names of MCP tools: `mcp__<server>__<tool>`. MCP allows tool names that a
 * surface name cannot hold (`/`, spaces, 200 characters); those are mapped to `_` and shortened
 * with a hash suffix, and the bridge keeps the original name for the call.
 */
import { createHash } from 'node:crypto';

/** Prefix of every MCP tool on a surface. */
export const MCP_TOOL_PREFIX = 'mcp__';

const MAX_NAME = 128;

/** The surface name of `tool` on `server` (the server name is already validated). */
export function mcpToolName(server: string, tool: string): string {
  const safe = tool.replace(/[^A-Za-z0-9_.-]/g, '_') || '_';
  const name = `${MCP_TOOL_PREFIX}${server}__${safe}`;
  if (name.length <= MAX_NAME) return name;
  const hash = createHash('sha256').update(tool, 'utf8').digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_NAME - 9)}_${hash}`;
}

/** Splits a surface name into server and (mapped) tool, or `undefined` when it is not an MCP name. */
export function parseMcpToolName(name: string): { readonly server: string; readonly tool: string } | undefined {
  if (!name.startsWith(MCP_TOOL_PREFIX)) return undefined;
  const rest = name.slice(MCP_TOOL_PREFIX.length);
  const sep = rest.indexOf('__');
  if (sep <= 0 || sep + 2 >= rest.length) return undefined;
  return { server: rest.slice(0, sep), tool: rest.slice(sep + 2) };
}
