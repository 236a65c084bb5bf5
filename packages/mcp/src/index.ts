/**
 * `@a3s-code/mcp`: MCP servers on the A3S Code tool surface. Agent-global, inherited and
 * session-private managers assembled in that order ({@link McpSources}); an owning stdio
 * transport ({@link ProcessGroupStdioTransport}); Streamable HTTP with SSE fallback; MCP tools
 * bridged onto core's `Tool` contract as `mcp__<server>__<tool>`, each requiring its server's
 * capability `mcp.<server>` ({@link mcpToolSource} makes each server a session resource).
 */
export { parseMcpServers } from './config.js';
export type { McpHttpServerConfig, McpServerConfig, McpServersConfig, McpStdioServerConfig } from './config.js';
export {
  McpClosedError,
  McpConfigError,
  McpConnectionError,
  McpOwnershipError,
  McpRequestError,
  McpServerClosedError,
  McpServerUnavailableError,
} from './errors.js';
export type { McpServerClosedDetails } from './errors.js';
export { mcpReadOnlyChecker } from './read-only-checker.js';
export { McpManager } from './mcp-manager.js';
export type { McpManagerOptions } from './mcp-manager.js';
export type { McpSource } from './mcp-source.js';
export { McpSources } from './mcp-sources.js';
export type { McpSourcesOptions } from './mcp-sources.js';
export type {
  McpPromptInfo,
  McpResourceInfo,
  McpServerState,
  McpServerStatus,
  McpSessionServerStatus,
  McpSourceTier,
} from './server-status.js';
export { ProcessGroupStdioTransport } from './stdio-transport.js';
export type { ProcessGroupStdioOptions, StdioCloseInfo } from './stdio-transport.js';
export { BoundedTail } from './bounded-tail.js';
export type { McpTransportKind } from './client-options.js';
export type { McpRejectedTool } from './tool-spec-check.js';
export type { McpArtifactRef, McpArtifactStore } from './tool-result.js';
export { mcpCapabilityState, mcpToolSource, syncMcpTools } from './surface-sync.js';
export type { McpCapability, McpToolProvider, McpToolTarget } from './surface-sync.js';
export { MCP_SERVER_NAME_RULE, mcpCapability } from './server-name.js';
export { mcpServerSteps } from './catalog-steps.js';
export type { McpServerStepOptions } from './catalog-steps.js';
