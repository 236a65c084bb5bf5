// The product runs no MCP server: `a3s serve`, its only server, speaks its own JSON-RPC protocol.
// A real MCP client (the official SDK's, over stdio) pointed at it cannot initialize, and its
// tools/list is an unknown method, so the resource-bound tools of a session never reach it.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { A3S, TEST_A3S_HOME, tempRepo } from './kit.js';

/** Imports a module of the MCP SDK, the SDK package's own dependency. */
async function mcpSdk<T>(path: string): Promise<T> {
  const fromSdk = createRequire(createRequire(import.meta.url).resolve('@a3s-code/sdk/package.json'));
  return (await import(pathToFileURL(fromSdk.resolve(`@modelcontextprotocol/sdk/${path}`)).href)) as T;
}

type Message = { id?: number; result?: unknown; error?: { code: number; message: string } };
type Transport = {
  start(): Promise<void>;
  send(message: object): Promise<void>;
  close(): Promise<void>;
  onmessage?: (message: Message) => void;
};
type ClientModule = {
  Client: new (
    info: { name: string; version: string },
    options: object,
  ) => { connect(t: Transport): Promise<void>; close(): Promise<void> };
};
type StdioModule = {
  StdioClientTransport: new (o: {
    command: string;
    args: string[];
    cwd: string;
    env: Record<string, string>;
  }) => Transport;
};

const RESOURCE_BOUND = ['lsp', 'lsp_rename', 'ast_grep', 'ast_edit', 'debug', 'eval', 'ask_user', 'vibe_'];
let transport: Transport | undefined;
afterEach(async () => {
  await transport?.close();
  transport = undefined;
});

function served(dir: string, Stdio: StdioModule['StdioClientTransport']): Transport {
  const env = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && e[0] !== 'A3S_MODEL'),
  );
  return new Stdio({
    command: process.execPath,
    args: [A3S, 'serve'],
    cwd: dir,
    env: { ...env, A3S_HOME: TEST_A3S_HOME },
  });
}

describe('a3s serve and MCP clients', () => {
  it('TIER-04: a real MCP client cannot initialize against a3s serve and gets no tool list, so no resource-bound tool reaches it', async () => {
    const { Client } = await mcpSdk<ClientModule>('client/index.js');
    const { StdioClientTransport } = await mcpSdk<StdioModule>('client/stdio.js');
    const dir = tempRepo();
    const client = new Client({ name: 'external-mcp-client', version: '1.0.0' }, { capabilities: {} });
    transport = served(dir, StdioClientTransport);
    const refused = await client.connect(transport).then(
      () => undefined,
      (e: Error) => e,
    );
    // The MCP handshake is refused: a3s serve speaks its own protocol version, not MCP's.
    expect(refused?.message).toMatch(/-32602.*protocolVersion/);
    await client.close();

    // The MCP method itself, sent raw on a fresh server: no tool list comes back, only an error.
    transport = served(dir, StdioClientTransport);
    const answers: Message[] = [];
    transport.onmessage = (m) => answers.push(m);
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} });
    const end = Date.now() + 10_000;
    while (!answers.some((m) => m.id === 7) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    const answer = answers.find((m) => m.id === 7);
    expect(answer?.error?.code).toBe(-32601);
    expect(answer?.result).toBeUndefined();
    const said = JSON.stringify(answers);
    for (const name of RESOURCE_BOUND) expect(said).not.toContain(`"${name}`);
  });
});
