// MCP as users meet it in the CLI, in-process through `main(argv, io)` with real MCP server
// processes: a server that does not start is a warning on stderr (name, reason, stderr tail) and
// never fails the command; a server that dies mid-session is named in the next call's error and
// restarted by the call after; read-only MCP tools run without asking; `/mcp` lists the servers.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Io } from '../src/io.js';
import { main } from '../src/main.js';
import { Capture } from './io-harness.js';
import { scriptFile, TEST_A3S_HOME, tempRepo } from './kit.js';

/** The MCP package's fixture server (tools echo, stderr, exit_after, destroy, ...). */
const SERVER = join(import.meta.dirname, '..', '..', 'mcp', 'test', 'fixtures', 'test-server.mjs');
const t = { command: process.execPath, args: [SERVER, '--name', 't'] };
const node = (code: string, extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: ['-e', code],
  ...extra,
});

function harness(cwd: string) {
  const stdin = new PassThrough();
  const screen = new Capture();
  const stdout = new Capture(screen);
  const stderr = new Capture(screen);
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', A3S_HOME: TEST_A3S_HOME };
  delete env.A3S_MODEL;
  const io: Io = { stdin, stdout, stderr, env, cwd };
  return { io, stdin, stdout, stderr, screen };
}

function repoWith(mcpServers: Record<string, unknown>): string {
  const dir = tempRepo();
  writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify({ mcpServers }));
  return dir;
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a3s and MCP servers that do not start', () => {
  it('MCP-08: a3s tools warns on stderr per server (missing command, exit at start with its stderr, no answer within connectTimeoutMs), still lists the others and exits 0', async () => {
    const dir = repoWith({
      t,
      ghost: { command: 'a3s-no-such-mcp-server' },
      boom: node("process.stderr.write('boom\\n'); process.exit(1)"),
      mute: node('setInterval(() => {}, 1000)', { connectTimeoutMs: 400 }),
    });
    const h = harness(dir);
    const t0 = Date.now();
    expect(await main(['tools', '--trust-workspace', '--cwd', dir], h.io)).toBe(0);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(h.stdout.text).toMatch(/^mcp__t__echo +read +ro /m);
    expect(h.stdout.text).toMatch(/^mcp__t__destroy +write /m);
    const err = h.stderr.text;
    expect(err).toContain(
      "warning: MCP server 'ghost' failed: starting `a3s-no-such-mcp-server`: command not found (ENOENT)\n",
    );
    expect(err).toMatch(
      /warning: MCP server 'boom' failed: starting `.+`: process exited \(code 1\) during start-up\n {2}stderr: boom\n/,
    );
    expect(err).toMatch(/warning: MCP server 'mute' failed: starting `.+`: no answer to `initialize` within 400 ms\n/);
    expect(err).not.toMatch(/'t'/);
  }, 30_000);

  it('a3s run prints the warning on stderr and the run goes on (exit 0)', async () => {
    const dir = repoWith({ ghost: { command: 'a3s-no-such-mcp-server' } });
    const h = harness(dir);
    expect(
      await main(
        ['run', '--trust-workspace', '--model', `scripted:${scriptFile([{ text: 'Hello.' }])}`, '--cwd', dir, 'hi'],
        h.io,
      ),
    ).toBe(0);
    expect(h.stderr.text).toContain(
      "warning: MCP server 'ghost' failed: starting `a3s-no-such-mcp-server`: command not found (ENOENT)",
    );
    expect(h.stdout.text).toMatch(/Hello\.\n+completed/);
  }, 30_000);
});

describe('a3s and an MCP server that dies mid-session', () => {
  it('the next call says the server crashed, with its stderr tail; the call after that runs on the restarted server', async () => {
    const dir = repoWith({ t });
    const script = scriptFile([
      { tool_calls: [{ id: 'c1', name: 'mcp__t__exit_after', args: { why: 'out of cheese', ms: 50 } }] },
      { delay_ms: 400, tool_calls: [{ id: 'c2', name: 'mcp__t__echo', args: { text: 'one' } }] },
      { tool_calls: [{ id: 'c3', name: 'mcp__t__echo', args: { text: 'two' } }] },
      // The exec-tier MCP tools changed no file, so the completion gate wants no verification.
      { text: 'All calls answered.' },
    ]);
    const h = harness(dir);
    const code = await main(
      ['run', '--yolo', '--trust-workspace', '--model', `scripted:${script}`, '--cwd', dir, 'go'],
      h.io,
    );
    const out = h.stdout.text;
    expect(code).toBe(0);
    expect(out).toMatch(
      /● mcp__t__echo[^\n]*\n {2}✗ [^\n]*\n[\s\S]*MCP server 't' crashed: [\s\S]*dying: out of cheese \(process exited \(code 3\)\); the next call restarts it/,
    );
    expect(out).toMatch(/● mcp__t__echo[^\n]*\n {2}✓ ok[^\n]*\n {2}│ t: two/);
    expect(out).not.toContain('unknown tool');
    expect(out).toMatch(/\ncompleted[^\n]* · 3 tool call\(s\)/);
    expect(out).not.toContain('verified');
  }, 30_000);
});

describe('a3s code and MCP', () => {
  it('PERM-05: a readOnlyHint tool runs without asking, a destructive one asks; /mcp lists servers, states, tool counts and last errors', async () => {
    const dir = repoWith({ t, ghost: { command: 'a3s-no-such-mcp-server' } });
    const script = scriptFile([
      { tool_calls: [{ id: 'r1', name: 'mcp__t__echo', args: { text: 'no prompt' } }] },
      { tool_calls: [{ id: 'w1', name: 'mcp__t__destroy', args: {} }] },
    ]);
    const h = harness(dir);
    const exited = main(['code', '--trust-workspace', '--model', `scripted:${script}`, '--cwd', dir], h.io);
    await until(() => h.screen.text.includes('type a prompt'));
    expect(h.stderr.text).toContain(
      "warning: MCP server 'ghost' failed: starting `a3s-no-such-mcp-server`: command not found (ENOENT)",
    );
    h.stdin.write('use the tools\n');
    await until(() => h.screen.text.includes('allow? [y/n/a]'));
    // Only the destructive tool asked: the read-only one had already run.
    expect(h.screen.text).toMatch(/● mcp__t__echo[^\n]*\n {2}✓ ok[^\n]*\n {2}│ t: no prompt/);
    expect(h.screen.text.match(/\? allow /g)).toEqual(['? allow ']);
    expect(h.screen.text).toMatch(/\? allow mcp__t__destroy/);
    h.stdin.write('n\n');
    await until(() =>
      /allow\? \[y\/n\/a\] [\s\S]*completed[^\n]*\nstopped: a call was refused[^\n]*\n› $/.test(h.screen.text),
    );
    const before = h.screen.text.length;
    h.stdin.write('/mcp\n');
    await until(() => h.screen.text.slice(before).includes('ghost'));
    const table = h.screen.text.slice(before);
    expect(table).toMatch(/server +source +state +tools +restarts +last error/);
    expect(table).toMatch(/^t +global +connected +\d+ +0 +-$/m);
    expect(table).toMatch(
      /^ghost +global +failed +0 +0 +starting `a3s-no-such-mcp-server`: command not found \(ENOENT\)$/m,
    );
    h.stdin.write('/exit\n');
    expect(await exited).toBe(0);
  }, 30_000);
});
