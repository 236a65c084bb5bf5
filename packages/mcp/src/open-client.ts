/**
 * Opens an MCP client on a configured server: stdio through {@link ProcessGroupStdioTransport},
 * remote servers through the SDK's Streamable HTTP client transport, falling back to its SSE
 * transport when the server does not speak Streamable HTTP (`transport: 'auto'`, the default).
 */
import type { McpServerConfig } from './config.js';
import { connectTimeoutOf, type OpenClientOptions, type OpenedClient } from './client-options.js';

/**
 * Starts (stdio) or reaches (HTTP) the server and completes `initialize`. The MCP client SDK is
 * loaded here, on the first server a process opens, not when the package is imported.
 */
export async function openClient(
  name: string,
  config: McpServerConfig,
  options: OpenClientOptions,
): Promise<OpenedClient> {
  const { openSdkClient } = await import('./open-client-sdk.js');
  return openSdkClient(name, config, options, connectTimeoutOf(config, options));
}
