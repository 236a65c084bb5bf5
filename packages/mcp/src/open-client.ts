/**
 * Opens an MCP client on a configured server: stdio through {@link ProcessGroupStdioTransport},
 * remote servers through the SDK's Streamable HTTP client transport, falling back to its SSE
 * transport when the server does not speak Streamable HTTP (`transport: 'auto'`, the default).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { isStdioConfig, type McpHttpServerConfig, type McpServerConfig } from './config.js';
import { McpConnectionError } from './errors.js';
import { ProcessGroupStdioTransport, type StdioCloseInfo } from './stdio-transport.js';

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

/** Lines of stderr a start failure carries. */
const START_STDERR_LINES = 10;

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

function newClient(options: OpenClientOptions): Client {
  const client = new Client({ ...options.clientInfo }, { capabilities: {} });
  options.prepare(client);
  return client;
}

/** The exit status of a process that ended on its own (`process exited (code 1)`), else why the connection ended. */
export function exitText(info: StdioCloseInfo): string {
  if (!info.exitedOnItsOwn) return info.reason;
  if (info.signal !== null) return `process exited (signal ${info.signal})`;
  return `process exited (code ${String(info.exitCode)})`;
}

/** What went wrong in a start, in words a user acts on. */
function startProblem(what: string, error: unknown, timeoutMs: number, stdio?: ProcessGroupStdioTransport): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return `${what}: command not found (ENOENT)`;
  if (code === 'EACCES') return `${what}: permission denied (EACCES)`;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return `${what}: no answer to \`initialize\` within ${timeoutMs} ms`;
  const closed = stdio?.closeInfo;
  if (closed !== undefined && closed.reason !== 'closed by host') return `${what}: ${exitText(closed)} during start-up`;
  return `${what}: ${error instanceof Error ? error.message : String(error)}`;
}

async function connect(name: string, client: Client, transport: Transport, timeoutMs: number, what: string, stdio?: ProcessGroupStdioTransport): Promise<void> {
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (error) {
    // A process that went away: wait briefly for its exit status and the rest of its stderr.
    if (stdio?.closeInfo !== undefined) await stdio.settled(200);
    const problem = startProblem(what, error, timeoutMs, stdio);
    await client.close().catch(() => undefined);
    const tail = stdio?.stderr.lastLines(START_STDERR_LINES);
    throw new McpConnectionError(name, problem, error, tail === '' ? undefined : tail);
  }
}

async function openHttp(name: string, config: McpHttpServerConfig, options: OpenClientOptions, timeoutMs: number): Promise<OpenedClient> {
  const url = new URL(config.url);
  const requestInit: RequestInit = config.headers === undefined ? {} : { headers: { ...config.headers } };
  const mode = config.transport ?? 'auto';
  if (mode !== 'sse') {
    const client = newClient(options);
    const transport = new StreamableHTTPClientTransport(url, { requestInit });
    try {
      await connect(name, client, transport, timeoutMs, `Streamable HTTP connection to ${url.origin}${url.pathname}`);
      return { client, transport, kind: 'streamable-http' };
    } catch (error) {
      if (mode === 'streamable-http') throw error;
      // `auto`: a server that predates Streamable HTTP answers the POST with 4xx; try SSE.
    }
  }
  const client = newClient(options);
  // The SDK sends `requestInit.headers` on the event stream's GET and on every POST.
  const transport = new SSEClientTransport(url, { requestInit });
  const what = mode === 'auto' ? `Streamable HTTP and SSE connections to ${url.origin}${url.pathname}` : `SSE connection to ${url.origin}${url.pathname}`;
  await connect(name, client, transport, timeoutMs, what);
  return { client, transport, kind: 'sse' };
}

/** Starts (stdio) or reaches (HTTP) the server and completes `initialize`. */
export async function openClient(name: string, config: McpServerConfig, options: OpenClientOptions): Promise<OpenedClient> {
  const timeoutMs = connectTimeoutOf(config, options);
  if (!isStdioConfig(config)) return openHttp(name, config, options, timeoutMs);
  const transport = new ProcessGroupStdioTransport({
    command: config.command,
    ...(config.args === undefined ? {} : { args: config.args }),
    ...(config.env === undefined ? {} : { env: config.env }),
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    ...(config.stderrBytes === undefined ? {} : { stderrBytes: config.stderrBytes }),
  });
  options.onStdio?.(transport);
  const client = newClient(options);
  await connect(name, client, transport, timeoutMs, `starting \`${config.command}\``, transport);
  return { client, transport, kind: 'stdio' };
}

/** The start-up deadline of `config`: its own, else the manager's, else the default. */
export function connectTimeoutOf(config: McpServerConfig, options: { readonly connectTimeoutMs?: number }): number {
  return config.connectTimeoutMs ?? options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
}
