import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { createToolContext } from '@a3s-code/core/testing';
import { McpConnectionError, McpManager } from '../src/index.js';
import { waitFor } from './kit.js';

const TOKEN = 'Bearer t0k3n';

function buildServer(label: string): McpServer {
  const server = new McpServer({ name: `http-${label}`, version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo.', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    async ({ text }) => ({
      content: [{ type: 'text', text: `${label}: ${text}` }],
    }),
  );
  server.registerTool('grow', { description: 'Adds a tool.' }, async () => {
    server.registerTool('grown', { description: 'Added at run time.' }, async () => ({
      content: [{ type: 'text', text: 'grown' }],
    }));
    return { content: [{ type: 'text', text: 'ok' }] };
  });
  return server;
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let streamable: { server: Server; url: string };
let sseOnly: { server: Server; url: string };
const seenAuth: (string | undefined)[] = [];
const m = new McpManager({ label: 'http' });

beforeAll(async () => {
  // Streamable HTTP, stateful: one transport per MCP session, requests routed by session id.
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  streamable = await listen((req, res) => {
    seenAuth.push(req.headers.authorization);
    if (req.headers.authorization !== TOKEN) {
      res.writeHead(401).end('unauthorized');
      return;
    }
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (transport === undefined) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, created),
      });
      void buildServer('streamable').connect(created);
      transport = created;
    }
    void transport.handleRequest(req, res);
  });
  // An older server that speaks only HTTP+SSE: GET /sse opens the stream, POST /messages carries requests.
  const sse = new Map<string, SSEServerTransport>();
  sseOnly = await listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      sse.set(transport.sessionId, transport);
      void buildServer('sse').connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      void sse.get(url.searchParams.get('sessionId') ?? '')?.handlePostMessage(req, res);
      return;
    }
    res.writeHead(405).end('method not allowed');
  });
});
afterAll(async () => {
  await m.close();
  streamable.server.closeAllConnections();
  sseOnly.server.closeAllConnections();
  await Promise.all([streamable.server, sseOnly.server].map((s) => new Promise((r) => s.close(r))));
});

describe('HTTP transports', () => {
  it('Streamable HTTP with configured headers: tools bridged, called and refreshed on list_changed', async () => {
    const status = await m.addServer('remote', { url: `${streamable.url}/mcp`, headers: { Authorization: TOKEN } });
    expect(status).toMatchObject({
      transport: 'streamable-http',
      state: 'connected',
      toolCount: 2,
      serverInfo: { name: 'http-streamable' },
    });
    expect(seenAuth.every((a) => a === TOKEN)).toBe(true);
    const echo = m.toolsOf('remote').find((t) => t.name === 'mcp__remote__echo')!;
    expect(echo.tier).toBe('read');
    expect(await echo.execute({ text: 'over http' }, createToolContext({ toolName: echo.name }))).toMatchObject({
      output: 'streamable: over http',
      exitCode: 0,
    });
    const grow = m.toolsOf('remote').find((t) => t.name === 'mcp__remote__grow')!;
    await grow.execute({}, createToolContext({ toolName: grow.name }));
    expect(await waitFor(() => m.toolsOf('remote').some((t) => t.name === 'mcp__remote__grown'))).toBe(true);
  });

  it('auto falls back to SSE for a server without Streamable HTTP', async () => {
    const status = await m.addServer('legacy', { url: `${sseOnly.url}/sse` });
    expect(status).toMatchObject({ transport: 'sse', state: 'connected', toolCount: 2 });
    const echo = m.toolsOf('legacy').find((t) => t.name === 'mcp__legacy__echo')!;
    expect((await echo.execute({ text: 'old' }, createToolContext({ toolName: echo.name }))).output).toBe('sse: old');
  });

  it('a refused connection is a typed error naming the server, and the status says why', async () => {
    const noAuth = await m
      .addServer('denied', { url: `${streamable.url}/mcp`, transport: 'streamable-http' })
      .catch((e: unknown) => e);
    expect(noAuth).toBeInstanceOf(McpConnectionError);
    expect((noAuth as McpConnectionError).server).toBe('denied');
    expect(m.status().find((s) => s.name === 'denied')).toMatchObject({ state: 'failed', toolCount: 0 });
    expect(m.status().find((s) => s.name === 'denied')?.lastError).toMatch(/Streamable HTTP connection/);
    const strict = await m
      .addServer('strict', { url: `${sseOnly.url}/sse`, transport: 'streamable-http' })
      .catch((e: unknown) => e);
    expect(strict).toBeInstanceOf(McpConnectionError);
  });
});
