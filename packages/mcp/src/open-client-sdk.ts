/**
 * The part of `openClient` that needs the MCP client SDK, loaded with it on the first
 * server a process opens.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { isStdioConfig, type McpHttpServerConfig, type McpServerConfig } from './config.js';
import { McpConnectionError } from './errors.js';
import { exitText, type OpenClientOptions, type OpenedClient } from './client-options.js';
import { boundedFetch, type FetchFn } from './bounded-fetch.js';
import { DEFAULT_MAX_MESSAGE_BYTES, OVERSIZED_RPC_CODE } from './message-limit.js';
import { ProcessGroupStdioTransport } from './stdio-transport.js';

/** Lines of stderr a start failure carries. */
const START_STDERR_LINES = 10;

function newClient(options: OpenClientOptions): Client {
  const client = new Client({ ...options.clientInfo }, { capabilities: {} });
  options.prepare(client);
  return client;
}

/** What went wrong in a start, in words a user acts on. */
function startProblem(what: string, error: unknown, timeoutMs: number, stdio?: ProcessGroupStdioTransport): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return `${what}: command not found (ENOENT)`;
  if (code === 'EACCES') return `${what}: permission denied (EACCES)`;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
    return `${what}: no answer to \`initialize\` within ${timeoutMs} ms`;
  const closed = stdio?.closeInfo;
  if (closed !== undefined && closed.reason !== 'closed by host') return `${what}: ${exitText(closed)} during start-up`;
  return `${what}: ${error instanceof Error ? error.message : String(error)}`;
}

async function connect(
  name: string,
  client: Client,
  transport: Transport,
  timeoutMs: number,
  what: string,
  stdio?: ProcessGroupStdioTransport,
): Promise<void> {
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (error) {
    // A process that went away: wait for it to end (a slow exit comes after its pipes closed),
    // then briefly for its exit status and the rest of its stderr.
    if (stdio?.closeInfo !== undefined) {
      await stdio.ended();
      await stdio.settled(200);
    }
    const problem = startProblem(what, error, timeoutMs, stdio);
    await client.close().catch(() => undefined);
    const tail = stdio?.stderr.lastLines(START_STDERR_LINES);
    throw new McpConnectionError(name, problem, error, tail === '' ? undefined : tail);
  }
}

/**
 * A bounded `fetch` for one HTTP transport: an answer over the limit fails its request through
 * the transport as if the server had answered with an error naming the limit.
 */
function limitedFetch(maxBytes: number, transport: () => Transport | undefined): FetchFn {
  return boundedFetch({
    maxBytes,
    failRequest: (id, problem) => {
      const t = transport();
      t?.onerror?.(new Error(problem));
      t?.onmessage?.({ jsonrpc: '2.0', id, error: { code: OVERSIZED_RPC_CODE, message: problem } });
    },
    report: (problem) => transport()?.onerror?.(new Error(problem)),
  });
}

async function openHttp(
  name: string,
  config: McpHttpServerConfig,
  options: OpenClientOptions,
  timeoutMs: number,
): Promise<OpenedClient> {
  const url = new URL(config.url);
  const requestInit: RequestInit = config.headers === undefined ? {} : { headers: { ...config.headers } };
  const mode = config.transport ?? 'auto';
  const maxBytes = config.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  if (mode !== 'sse') {
    const client = newClient(options);
    let streamable: Transport | undefined;
    const fetch = limitedFetch(maxBytes, () => streamable);
    const transport = new StreamableHTTPClientTransport(url, { requestInit, fetch });
    streamable = transport;
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
  let sse: Transport | undefined;
  const transport = new SSEClientTransport(url, { requestInit, fetch: limitedFetch(maxBytes, () => sse) });
  sse = transport;
  const what =
    mode === 'auto'
      ? `Streamable HTTP and SSE connections to ${url.origin}${url.pathname}`
      : `SSE connection to ${url.origin}${url.pathname}`;
  await connect(name, client, transport, timeoutMs, what);
  return { client, transport, kind: 'sse' };
}

/** Starts (stdio) or reaches (HTTP) the server and completes `initialize` within `timeoutMs`. */
export async function openSdkClient(
  name: string,
  config: McpServerConfig,
  options: OpenClientOptions,
  timeoutMs: number,
): Promise<OpenedClient> {
  if (!isStdioConfig(config)) return openHttp(name, config, options, timeoutMs);
  const transport = new ProcessGroupStdioTransport({
    command: config.command,
    ...(config.args === undefined ? {} : { args: config.args }),
    ...(config.env === undefined ? {} : { env: config.env }),
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    ...(config.stderrBytes === undefined ? {} : { stderrBytes: config.stderrBytes }),
    ...(config.maxMessageBytes === undefined ? {} : { maxMessageBytes: config.maxMessageBytes }),
  });
  options.onStdio?.(transport);
  const client = newClient(options);
  await connect(name, client, transport, timeoutMs, `starting \`${config.command}\``, transport);
  return { client, transport, kind: 'stdio' };
}
