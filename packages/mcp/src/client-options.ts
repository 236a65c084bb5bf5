/**
 * The vocabulary of opening an MCP client: the options, what an opened client is, the start-up
 * deadline and how a process's exit is described. Kept apart from the code that loads the MCP
 * client SDK, so that reading these loads nothing.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from './config.js';
import type { ProcessGroupStdioTransport, StdioCloseInfo } from './stdio-transport.js';

/** The transport a server ended up on. */
export type McpTransportKind = 'stdio' | 'streamable-http' | 'sse';

/** A connected (initialised) client. */
export interface OpenedClient {
  readonly client: Client;
  readonly transport: Transport;
  readonly kind: McpTransportKind;
}

/**
 * Default deadline of start-up: spawning (or reaching) the server, `initialize`, and each first
 * listing of tools, resources and prompts, milliseconds. A server entry's `connectTimeoutMs`, or
 * the manager's, overrides it.
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;

/** Options of {@link openClient}. */
export interface OpenClientOptions {
  /** Installs notification handlers on a fresh client before it connects. */
  readonly prepare: (client: Client) => void;
  /** Called with the stdio transport as soon as it exists (before spawn), for status. */
  readonly onStdio?: (transport: ProcessGroupStdioTransport) => void;
  /** Client identity sent in `initialize`. */
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** Deadline of start-up when the entry sets none. Default {@link DEFAULT_CONNECT_TIMEOUT_MS}. */
  readonly connectTimeoutMs?: number;
}

/** The exit status of a process that ended on its own (`process exited (code 1)`), else why the connection ended. */
export function exitText(info: StdioCloseInfo): string {
  if (!info.exitedOnItsOwn) return info.reason;
  if (info.signal !== null) return `process exited (signal ${info.signal})`;
  return `process exited (code ${String(info.exitCode)})`;
}

/** The start-up deadline of `config`: its own, else the manager's, else the default. */
export function connectTimeoutOf(config: McpServerConfig, options: { readonly connectTimeoutMs?: number }): number {
  return config.connectTimeoutMs ?? options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
}
