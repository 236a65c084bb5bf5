// Each MCP server is a session resource, `mcp.<server>`, that its tools require (issue 16): the
// tools are on the session's surface while the server serves, leave when it fails or closes, and
// come back when it is started again. Real server processes (the SDK-written fixture server)
// attached to a real core session through `mcpToolSource`.
import { A3sError, Agent, type AgentSession, type EventEnvelopeV1 } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { McpConfigError, McpSources, mcpCapability, mcpToolSource, syncMcpTools } from '../src/index.js';
import { parsePids, testServer, waitFor } from './kit.js';

const open: { session: AgentSession; sources: McpSources }[] = [];
afterEach(async () => {
  for (const { session, sources } of open.splice(0)) {
    await session.close();
    await sources.close();
  }
});

/** A core session whose MCP sources are `sources` (private servers restart after 20 ms). */
async function sessionWith(servers: Record<string, unknown>) {
  const sources = new McpSources({ private: { restartBackoffMs: 20 } });
  await Promise.all(
    Object.entries(servers).map(([name, config]) => sources.addMcpServer(name, config).catch(() => undefined)),
  );
  const agent = await Agent.create({
    model: new ScriptedLlmClient([]),
    permissions: { allow: ['mcp__*'], defaultDecision: 'allow' },
  });
  const session = await agent.session(process.cwd(), {
    persistence: 'memory',
    toolSources: [mcpToolSource(sources)],
  });
  open.push({ session, sources });
  const events: EventEnvelopeV1[] = [];
  session.onHostEvent((e) => events.push(e));
  return { session, sources, events };
}

const mcpTools = (s: AgentSession, server: string) => s.toolNames().filter((n) => n.startsWith(`mcp__${server}__`));
const stateOf = (s: AgentSession, capability: string) => s.resources().find((r) => r.capability === capability);

describe('MCP servers as session resources', () => {
  it("TIER-05: a server's tools require mcp.<server> and are on the surface exactly while it serves", async () => {
    const { session, sources } = await sessionWith({ a: testServer('a'), b: testServer('b') });
    expect(session.resources().filter((r) => r.capability.startsWith('mcp.'))).toEqual([
      { capability: 'mcp.a', pack: '@a3s-code/mcp', opens: 'session', state: 'open' },
      { capability: 'mcp.b', pack: '@a3s-code/mcp', opens: 'session', state: 'open' },
    ]);
    const echo = session.toolDescriptors().find((d) => d.name === 'mcp__a__echo');
    expect(echo?.requires).toEqual(['mcp.a']);
    expect(mcpTools(session, 'a')).toContain('mcp__a__echo');

    // Removed: the capability closes and its tools leave; b is untouched.
    await sources.removeMcpServer('a');
    expect(stateOf(session, 'mcp.a')?.state).toBe('closed');
    expect(mcpTools(session, 'a')).toEqual([]);
    expect((await session.tool('mcp__b__echo', { text: 'still' })).output).toBe('b: still');

    // Added again: the capability opens and the tools come back.
    await sources.addMcpServer('a', testServer('a2'));
    expect(stateOf(session, 'mcp.a')?.state).toBe('open');
    expect((await session.tool('mcp__a__echo', { text: 'back' })).output).toBe('a2: back');
  });

  it('TIER-05: a crashing server fails its capability (named, with reason and stderr tail) and its tools leave; the other server keeps working; a restart brings them back', async () => {
    const { session, sources, events } = await sessionWith({
      flaky: testServer('flaky'),
      steady: testServer('steady'),
    });
    const flakyTools = mcpTools(session, 'flaky');
    // The first two crashes are restarted on the next call: the capability stays open meanwhile.
    for (const why of ['one', 'two']) {
      const r = await session.tool('mcp__flaky__crash', { why });
      expect(r.error).toMatchObject({ code: 'MCP_SERVER_CLOSED' });
      expect(stateOf(session, 'mcp.flaky')?.state).toBe('open');
      expect(mcpTools(session, 'flaky')).toEqual(flakyTools);
    }
    const third = await session.tool('mcp__flaky__crash', { why: 'three' });
    expect(third.ok).toBe(false);
    expect(stateOf(session, 'mcp.flaky')).toMatchObject({
      state: 'failed',
      error: { code: 'RESOURCE_OPEN_FAILED', capability: 'mcp.flaky' },
    });
    // The exit status and the last of stderr join the report once the process is gone.
    const failedWith =
      /^resource 'mcp\.flaky' of pack '@a3s-code\/mcp' failed to open: MCP server 'flaky': crashed 3 times in a row, not restarted again: process exited \(code 3\); stderr: .*dying: three$/;
    expect(await waitFor(() => failedWith.test(stateOf(session, 'mcp.flaky')?.error?.message ?? ''))).toBe(true);
    expect(mcpTools(session, 'flaky')).toEqual([]);
    const gone = await session.tool('mcp__flaky__echo', { text: 'x' });
    expect(gone.error).toMatchObject({ code: 'TOOL_NOT_FOUND' });
    // Reported to host listeners once.
    expect(events.filter((e) => e.type === 'error').map((e) => e.payload.code)).toEqual(['RESOURCE_OPEN_FAILED']);

    // The session and the other server are unaffected.
    expect(stateOf(session, 'mcp.steady')?.state).toBe('open');
    expect((await session.tool('mcp__steady__echo', { text: 'ok' })).output).toBe('steady: ok');

    // Started again by its owner: the capability opens and the tools come back.
    await sources.privateManager.reconnect('flaky');
    expect(stateOf(session, 'mcp.flaky')).toMatchObject({ state: 'open' });
    expect(stateOf(session, 'mcp.flaky')?.error).toBeUndefined();
    expect(mcpTools(session, 'flaky')).toEqual(flakyTools);
    expect((await session.tool('mcp__flaky__echo', { text: 'again' })).output).toBe('flaky: again');
  });

  it('a server killed between calls keeps its capability open; the next call reports the crash and the one after runs on the restarted server', async () => {
    const { session, sources } = await sessionWith({ x: testServer('x') });
    const { pid } = parsePids((await session.tool('mcp__x__pid', {})).output);
    process.kill(pid, 'SIGKILL');
    expect(await waitFor(() => sources.status()[0]?.state === 'crashed')).toBe(true);
    expect(stateOf(session, 'mcp.x')?.state).toBe('open');
    expect(mcpTools(session, 'x')).toContain('mcp__x__echo');
    expect((await session.tool('mcp__x__echo', { text: '1' })).error?.message).toMatch(/crashed: .*restarts it/s);
    expect((await session.tool('mcp__x__echo', { text: '2' })).output).toBe('x: 2');
  });

  it('a server that does not start is a failed capability from the start, its reason and stderr named; the session builds and the others serve', async () => {
    const { session } = await sessionWith({
      ghost: { command: 'a3s-no-such-mcp-server' },
      boom: { command: process.execPath, args: ['-e', "process.stderr.write('bad config\\n'); process.exit(1)"] },
      ok: testServer('ok'),
    });
    expect(stateOf(session, 'mcp.ghost')?.error?.message).toBe(
      "resource 'mcp.ghost' of pack '@a3s-code/mcp' failed to open: MCP server 'ghost': starting `a3s-no-such-mcp-server`: command not found (ENOENT)",
    );
    expect(stateOf(session, 'mcp.boom')?.error?.message).toMatch(
      /MCP server 'boom': .*process exited \(code 1\) during start-up; stderr: bad config$/,
    );
    expect(stateOf(session, 'mcp.ok')?.state).toBe('open');
    expect((await session.tool('mcp__ok__echo', { text: 'hi' })).output).toBe('ok: hi');
  });

  it('a capability or tool the target refuses stays out; the other server is mirrored and syncing never throws', async () => {
    const sources = new McpSources();
    try {
      await Promise.all([sources.addMcpServer('a', testServer('a')), sources.addMcpServer('b', testServer('b'))]);
      const provided = new Map<string, string>();
      const tools = new Set<string>();
      const stop = syncMcpTools(sources, {
        add: (t) => {
          if (t.name === 'mcp__b__add') throw new Error('refused');
          tools.add(t.name);
        },
        remove: (n) => tools.delete(n),
        resource: (capability, state) => {
          if (capability === 'mcp.a') throw new Error('already provided by another source');
          provided.set(capability, state);
        },
      });
      expect([...provided]).toEqual([['mcp.b', 'open']]);
      expect(tools.has('mcp__a__echo') && tools.has('mcp__b__echo')).toBe(true);
      expect(tools.has('mcp__b__add')).toBe(false);
      await sources.removeMcpServer('b');
      expect(provided.get('mcp.b')).toBe('closed');
      expect([...tools].some((n) => n.startsWith('mcp__b__'))).toBe(false);
      stop();
      expect(tools.size).toBe(0);
    } finally {
      await sources.close();
    }
  });

  it('a bad server name is a typed MCP_CONFIG error that says what is allowed, before anything starts', async () => {
    const sources = new McpSources();
    try {
      for (const name of ['bad.name', 'a__b', 'trailing_', '', 'x'.repeat(65), 'has space']) {
        const error = await sources.addMcpServer(name, testServer('never')).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(McpConfigError);
        expect(A3sError.hasCode(error, 'MCP_CONFIG')).toBe(true);
        expect((error as Error).message).toBe(
          `name: server name ${JSON.stringify(name)} must be 1..64 of [A-Za-z0-9_-], start with a letter or digit, not end with '_', and contain no '__'`,
        );
      }
      expect(sources.status()).toEqual([]);
      expect(mcpCapability('git-hub_2')).toBe('mcp.git-hub_2');
      expect(() => mcpCapability('a.b')).toThrow(McpConfigError);
    } finally {
      await sources.close();
    }
  });
});
