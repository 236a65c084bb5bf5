// The MCP client against hostile HTTP servers (node:http on loopback, raw JSON-RPC without the
// SDK): an answer that is an endless JSON body, an endless SSE event, an endless run of small
// SSE events, or never comes; on the older SSE transport, an oversized event on the event
// stream. Each call fails typed (the limit named, or the timeout), the request is aborted so the
// server sees the connection close, and the server, and a good server beside it, keep serving.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolTimeoutError } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { McpManager, McpRequestError } from '../src/index.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../src/message-limit.js';
import { testServer, waitFor } from './kit.js';

const LIMIT = 64 * 1024;
const TOOLS = ['ok', 'bigjson', 'bigevent', 'manyevents', 'stall', 'stallevents'];

interface Rpc {
  readonly id?: string | number;
  readonly method: string;
  readonly params?: { readonly name?: string; readonly arguments?: { text?: string }; protocolVersion?: string };
}

/** The answer to everything but the hostile tools. */
function answer(rpc: Rpc): unknown {
  if (rpc.method === 'initialize')
    return {
      protocolVersion: rpc.params?.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'hostile-http', version: '1' },
    };
  if (rpc.method === 'tools/list') return { tools: TOOLS.map((name) => ({ name, inputSchema: { type: 'object' } })) };
  return { content: [{ type: 'text', text: `ok: ${rpc.params?.arguments?.text ?? ''}` }] };
}

const reply = (rpc: Rpc, result: unknown): string => JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result });

/** Writes `chunk` for as long as the client reads. */
function pump(res: ServerResponse, chunk: string): void {
  const go = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', go);
  };
  go();
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => resolve(body));
  });
}

/** Tools whose request was seen to close (the client aborted it). */
const closed: string[] = [];

/** A Streamable HTTP server, stateless, answering `tools/call` by tool name. */
async function streamableHandler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return void res.writeHead(405).end();
  const rpc = JSON.parse(await readBody(req)) as Rpc;
  if (rpc.id === undefined) return void res.writeHead(202).end();
  const tool = rpc.method === 'tools/call' ? (rpc.params?.name ?? '') : '';
  res.on('close', () => closed.push(tool));
  const json = { 'content-type': 'application/json' };
  const sse = { 'content-type': 'text/event-stream' };
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(rpc.id)},"result":{"content":[{"type":"text","text":"`;
  if (tool === 'bigjson') {
    res.writeHead(200, json).write(head);
    return pump(res, 'x'.repeat(8192));
  }
  if (tool === 'bigevent') {
    res.writeHead(200, sse).write(`event: message\ndata: ${head}`);
    return pump(res, 'x'.repeat(8192));
  }
  if (tool === 'manyevents') {
    const note = '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"tick"}}';
    return pump(res.writeHead(200, sse), `event: message\ndata: ${note}\n\n`.repeat(50));
  }
  if (tool === 'stall') return void res.writeHead(200, json).flushHeaders();
  if (tool === 'stallevents') return void res.writeHead(200, sse).write(': open\n\n');
  res.writeHead(200, json).end(reply(rpc, answer(rpc)));
}

/** An older server speaking HTTP+SSE: answers go out on the GET event stream. */
function sseOnlyServer(): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  let stream: ServerResponse | undefined;
  return async (req, res) => {
    if (req.method === 'GET') {
      stream = res.writeHead(200, { 'content-type': 'text/event-stream' });
      stream.write('event: endpoint\ndata: /messages\n\n');
      return;
    }
    const rpc = JSON.parse(await readBody(req)) as Rpc;
    res.writeHead(202).end('Accepted');
    if (rpc.id === undefined) return;
    const text = rpc.params?.name === 'bigevent' ? 'x'.repeat(LIMIT + 1000) : undefined;
    const body = reply(rpc, text === undefined ? answer(rpc) : { content: [{ type: 'text', text }] });
    stream?.write(`event: message\ndata: ${body}\n\n`);
  };
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) {
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let servers: Server[] = [];
const m = new McpManager({ label: 'http-hostile' });
beforeAll(async () => {
  const streamable = await listen(streamableHandler);
  const legacy = await listen(sseOnlyServer());
  servers = [streamable.server, legacy.server];
  const remote = { url: `${streamable.url}/mcp`, transport: 'streamable-http', timeoutMs: 400 } as const;
  await Promise.all([
    m.addServer('peer', testServer('peer')),
    m.addServer('h', { ...remote, maxMessageBytes: LIMIT }),
    // Many small events take longer than 400 ms to reach the limit on a loaded machine: this one's
    // timeout is far from the limit's, so the limit, not the clock, ends the call.
    m.addServer('many', { ...remote, maxMessageBytes: LIMIT, timeoutMs: 15_000 }),
    // Reading 10 MiB takes longer than 400 ms on a loaded machine: this one's timeout is far from the limit's.
    m.addServer('dflt', { ...remote, timeoutMs: 15_000 }),
    m.addServer('old', { url: `${legacy.url}/sse`, transport: 'sse', timeoutMs: 400, maxMessageBytes: LIMIT }),
  ]);
});
afterAll(async () => {
  await m.close();
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

async function run(name: string, args: Record<string, unknown> = {}) {
  const tool = m.tools().find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool.execute(args, createToolContext({ toolName: name }));
}

/**
 * A call of `tool` on `server` fails typed naming `limit`; its request was aborted. The type also
 * shows it ended at the limit, not by the call's timeout (a `ToolTimeoutError`).
 */
async function failsOverLimit(server: string, tool: string, limit: number, what: RegExp): Promise<void> {
  const error = await run(`mcp__${server}__${tool}`).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(McpRequestError);
  expect((error as McpRequestError).rpcCode).toBe(-32603);
  expect((error as Error).message).toMatch(what);
  expect((error as Error).message).toContain(`the most read is ${limit} bytes (maxMessageBytes)`);
}

/** The server's `ok`, and the good server's `echo`, still answer. */
async function stillServes(server: string): Promise<void> {
  expect(await run(`mcp__${server}__ok`, { text: 'x' })).toMatchObject({ output: 'ok: x', exitCode: 0 });
  expect((await run('mcp__peer__echo', { text: 'hi' })).output).toBe('peer: hi');
}

describe('MCP client against hostile HTTP servers', () => {
  it('an endless JSON answer stops at the limit (maxMessageBytes, or the 10 MiB default): typed error, request aborted', async () => {
    await failsOverLimit(
      'h',
      'bigjson',
      LIMIT,
      /tools\/call failed \(-32603\): .*the server's answer ran past 65536 bytes/,
    );
    expect(await waitFor(() => closed.includes('bigjson'), 1_000)).toBe(true);
    await stillServes('h');
    closed.length = 0;
    await failsOverLimit('dflt', 'bigjson', DEFAULT_MAX_MESSAGE_BYTES, /ran past 10485760 bytes/);
    expect(await waitFor(() => closed.includes('bigjson'), 1_000)).toBe(true);
    await stillServes('dflt');
  });

  it('an endless SSE event in an answer stream stops at the limit: typed error, request aborted', async () => {
    closed.length = 0;
    await failsOverLimit(
      'h',
      'bigevent',
      LIMIT,
      /ran past 65536 bytes; .*so reading stopped and the request was aborted/,
    );
    expect(await waitFor(() => closed.includes('bigevent'), 1_000)).toBe(true);
    await stillServes('h');
  });

  it('endless small SSE events in one answer stream stop at the limit in all: typed error, request aborted', async () => {
    closed.length = 0;
    await failsOverLimit('many', 'manyevents', LIMIT, /ran past 65536 bytes/);
    expect(await waitFor(() => closed.includes('manyevents'), 1_000)).toBe(true);
    await stillServes('many');
  });

  it('an answer that never comes (JSON or SSE) ends by the typed timeout, and its request is aborted', async () => {
    for (const tool of ['stall', 'stallevents']) {
      closed.length = 0;
      const error = await run(`mcp__h__${tool}`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ToolTimeoutError);
      expect((error as Error).message).toBe(`mcp__h__${tool}: timed out after 400 ms`);
      expect(await waitFor(() => closed.includes(tool), 1_000)).toBe(true);
      await stillServes('h');
    }
  });

  it('on the SSE transport an event over the limit is skipped, its call fails typed, and the stream goes on', async () => {
    await failsOverLimit('old', 'bigevent', LIMIT, /the server sent an event of \d+ bytes; .*so it was skipped/);
    await stillServes('old');
    expect(m.status().every((s) => s.state === 'connected')).toBe(true);
  });
});
