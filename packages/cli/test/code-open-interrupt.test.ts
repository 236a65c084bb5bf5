// Ctrl-C while `a3s code` is still opening its session (an MCP server that does not answer
// `initialize`): the command leaves at once with 130, as a3s run does, and the server it started
// is stopped; it does not wait for the connect timeout and then start the session anyway.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { A3S, scriptFile, TEST_A3S_HOME, tempRepo } from './kit.js';
import { startPty } from './pty.js';

const alive = (pid: number): boolean => {
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return stat !== '' && !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
};

describe('Ctrl-C while a3s code opens its session', () => {
  it('leaves with 130 before the MCP connect timeout; the server is stopped', async () => {
    const dir = tempRepo();
    const mark = join(dir, 'mcp.pid');
    const server = `require('fs').writeFileSync(${JSON.stringify(mark)}, String(process.pid)); setInterval(() => {}, 1000)`;
    writeFileSync(
      join(dir, 'a3s.config.json'),
      JSON.stringify({
        mcpServers: { mute: { command: process.execPath, args: ['-e', server], connectTimeoutMs: 20_000 } },
      }),
    );
    const env: NodeJS.ProcessEnv = { ...process.env, A3S_HOME: TEST_A3S_HOME };
    delete env.A3S_MODEL;
    const model = `scripted:${scriptFile([{ text: 'never' }])}`;
    const pty = startPty([process.execPath, A3S, 'code', '--trust-workspace', '--model', model, '--cwd', dir], env);
    try {
      const deadline = Date.now() + 15_000;
      while (!existsSync(mark) || readFileSync(mark, 'utf8') === '') {
        if (Date.now() > deadline) throw new Error(`the MCP server never started:\n${pty.text()}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const started = Date.now();
      pty.type('\u0003');
      expect(await pty.exited, pty.text()).toBe(130);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(pty.text()).not.toContain('type a prompt');
      const pid = Number(readFileSync(mark, 'utf8'));
      const gone = Date.now() + 5_000;
      while (alive(pid) && Date.now() < gone) await new Promise((r) => setTimeout(r, 20));
      if (alive(pid)) process.kill(pid, 'SIGKILL');
      expect(alive(pid), `the MCP server ${pid} outlived a3s code`).toBe(false);
    } finally {
      pty.child.kill();
    }
  }, 30_000);
});
