// MCP as users meet it: servers that cannot start (missing command, crash at start, no answer to
// `initialize`) are `failed` with a reason and their stderr; a server that dies while connected
// is reported once as `crashed: <stderr tail>`, keeps its tools on the surface, and is restarted
// by the next call. Real server processes throughout.
import { afterEach, describe, expect, it } from 'vitest';
import { A3sError } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { McpConnectionError, McpManager, McpServerClosedError } from '../src/index.js';
import { parsePids, processGone, testServer, waitFor } from './kit.js';

const managers: McpManager[] = [];
function manager(options: ConstructorParameters<typeof McpManager>[0] = {}): McpManager {
  const m = new McpManager({ label: 'test', restartBackoffMs: 20, ...options });
  managers.push(m);
  return m;
}
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

async function call(m: McpManager, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const tool = m.tools().find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return (await tool.execute(args, createToolContext({ toolName: name }))).output;
}

const nodeScript = (code: string) => ({ command: process.execPath, args: ['-e', code] });

describe('MCP servers that do not start', () => {
  it('a command that does not exist is failed with "command not found"; the other servers start', async () => {
    const m = manager();
    const [ghost] = await Promise.allSettled([
      m.addServer('ghost', { command: 'a3s-no-such-mcp-server' }),
      m.addServer('ok', testServer('ok')),
    ]);
    expect(ghost.status).toBe('rejected');
    const error = (ghost as PromiseRejectedResult).reason as McpConnectionError;
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error.problem).toBe('starting `a3s-no-such-mcp-server`: command not found (ENOENT)');
    expect(m.status().find((s) => s.name === 'ghost')).toMatchObject({
      state: 'failed',
      toolCount: 0,
      lastError: error.problem,
    });
    expect(m.status().find((s) => s.name === 'ok')).toMatchObject({ state: 'connected' });
  });

  it('MCP-08: a server that exits at start is failed with its exit code and its stderr tail', async () => {
    const m = manager();
    const error = (await m
      .addServer('boom', nodeScript("process.stderr.write('loading config\\nboom\\n'); process.exit(1)"))
      .catch((e: unknown) => e)) as McpConnectionError;
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error.problem).toMatch(/process exited \(code 1\) during start-up$/);
    expect(error.stderrTail).toBe('loading config\nboom');
    expect(error.message).toMatch(/stderr: loading config \| boom$/);
    expect(m.status()[0]).toMatchObject({
      name: 'boom',
      state: 'failed',
      lastError: error.problem,
      stderrTail: 'loading config\nboom',
    });
  });

  it('MCP-08: a server that closes its pipes and exits slowly is still reported by its exit code, not "stdin closed"', async () => {
    const m = manager();
    // Its stdin and stdout close at once; its exit comes 600 ms later (a slow exit under load).
    const slow = { command: 'sh', args: ['-c', 'echo bad config >&2; exec 0<&- 1>&-; sleep 0.6; exit 3'] };
    const t0 = Date.now();
    const error = (await m.addServer('slow', slow).catch((e: unknown) => e)) as McpConnectionError;
    // Reported once it exits, not after the whole wait for its exit status (3 s).
    expect(Date.now() - t0).toBeLessThan(2_800);
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error.problem).toMatch(/process exited \(code 3\) during start-up$/);
    expect(error.stderrTail).toBe('bad config');
  });

  it('a server that never answers `initialize` fails within its connectTimeoutMs, with its stderr tail', async () => {
    const m = manager();
    const t0 = Date.now();
    // A shell writes its line at once even on a loaded machine (node took up to seconds to start
    // there); `exec` leaves one process, which never answers.
    const error = (await m
      .addServer('mute', {
        command: 'sh',
        args: ['-c', "echo 'waiting forever' >&2; exec sleep 60"],
        connectTimeoutMs: 1_000,
      })
      .catch((e: unknown) => e)) as McpConnectionError;
    expect(Date.now() - t0).toBeLessThan(6_000);
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error.problem).toMatch(/no answer to `initialize` within 1000 ms$/);
    expect(m.status()[0]).toMatchObject({ state: 'failed', stderrTail: 'waiting forever' });
    expect(m.status()[0]!.pid).toBeUndefined();
  });

  it("the manager's connectTimeoutMs is the default of entries without one", async () => {
    const m = manager({ connectTimeoutMs: 200 });
    const t0 = Date.now();
    await expect(m.addServer('mute', nodeScript('setInterval(() => {}, 1000)'))).rejects.toThrow(/within 200 ms/);
    expect(Date.now() - t0).toBeLessThan(2_000);
  });
});

describe('MCP servers that crash while connected', () => {
  it('killed between calls — the next call says it crashed (with its stderr tail), the call after that runs on a restarted server', async () => {
    const m = manager();
    await m.addServer('x', testServer('x'));
    await call(m, 'mcp__x__stderr', { text: 'last words' });
    const { pid } = parsePids(await call(m, 'mcp__x__pid'));
    const names = m.tools().map((t) => t.name);
    process.kill(pid, 'SIGKILL');
    expect(await waitFor(() => m.status()[0]!.state === 'crashed')).toBe(true);
    // The tools stay on the surface: the model keeps calling them by name.
    expect(m.tools().map((t) => t.name)).toEqual(names);

    const error = (await call(m, 'mcp__x__echo', { text: 'one' }).catch((e: unknown) => e)) as McpServerClosedError;
    expect(error).toBeInstanceOf(McpServerClosedError);
    expect(A3sError.hasCode(error, 'MCP_SERVER_CLOSED')).toBe(true);
    expect(error.crashed).toBe(true);
    expect(error.message).toMatch(
      /^MCP server 'x' crashed: server x ready\nlast words \(process exited \(signal SIGKILL\)\); the next call restarts it$/,
    );
    expect(m.tools().map((t) => t.name)).toEqual(names);

    expect(await call(m, 'mcp__x__echo', { text: 'two' })).toBe('x: two');
    const status = m.status()[0]!;
    expect(status).toMatchObject({
      state: 'connected',
      restarts: 1,
      lastError: 'crashed: process exited (signal SIGKILL)',
    });
    expect(status.pid).not.toBe(pid);
    expect(processGone(pid)).toBe(true);
  });

  it('MCP-10: a server that dies during a call fails that call with its stderr tail; the next call restarts it', async () => {
    const m = manager();
    await m.addServer('x', testServer('x'));
    const error = (await call(m, 'mcp__x__crash', { why: 'out of cheese' }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(McpServerClosedError);
    expect(error.message).toMatch(
      /^MCP server 'x' crashed: server x ready\ndying: out of cheese \(process exited \(code 3\)\)/,
    );
    expect(await call(m, 'mcp__x__echo', { text: 'again' })).toBe('x: again');
    expect(m.status()[0]).toMatchObject({ state: 'connected', restarts: 1 });
  });

  it('a server that crashes three times in a row is left failed and its tools leave the surface', async () => {
    const m = manager();
    await m.addServer('x', testServer('x'));
    await expect(call(m, 'mcp__x__crash', { why: '1' })).rejects.toThrow(/crashed: .*dying: 1/s);
    await expect(call(m, 'mcp__x__crash', { why: '2' })).rejects.toThrow(
      /crashed: .*dying: 2.*the next call restarts it/s,
    );
    const third = (await call(m, 'mcp__x__crash', { why: '3' }).catch((e: unknown) => e)) as Error;
    expect(third.message).toMatch(/crashed: .*dying: 3/s);
    expect(third.message).not.toMatch(/restarts it/);
    expect(m.status()[0]).toMatchObject({
      state: 'failed',
      toolCount: 0,
      restarts: 2,
      lastError: expect.stringMatching(/^crashed 3 times in a row, not restarted again/),
    });
    expect(m.tools()).toEqual([]);
  });
});
