/**
 * The pieces of the MCP SDK the stdio transport uses (message framing and the safe default
 * environment), loaded on the first server start: they pull in the SDK's protocol schemas, which
 * a process that never starts an MCP server should not load.
 */
import type { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';

/** What {@link loadStdioSdk} resolves to. */
export interface StdioSdk {
  readonly deserializeMessage: typeof deserializeMessage;
  readonly serializeMessage: typeof serializeMessage;
  readonly getDefaultEnvironment: typeof getDefaultEnvironment;
}

let loading: Promise<StdioSdk> | undefined;

/** Loads (once) the SDK's stdio framing and default environment. */
export function loadStdioSdk(): Promise<StdioSdk> {
  loading ??= Promise.all([
    import('@modelcontextprotocol/sdk/shared/stdio.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
  ]).then(([framing, client]) => ({
    deserializeMessage: framing.deserializeMessage,
    serializeMessage: framing.serializeMessage,
    getDefaultEnvironment: client.getDefaultEnvironment,
  }));
  return loading;
}
