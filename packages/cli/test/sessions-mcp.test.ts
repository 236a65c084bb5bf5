// The CLI's persistence and lifecycle: /save in `a3s code`, saved sessions in `a3s sessions`,
// `a3s sessions --resume` reopening a saved session or streaming a parked run to its end (real
// processes in a pseudo-terminal), and MCP servers from the workspace's a3s.config.json listed by
// `a3s tools` and closed when a real `a3s run` process gets SIGTERM. Plain listings and the run that
// parks run in-process through `main(argv, io)`.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { A3S, runMain, scriptFile, TEST_A3S_HOME, tempRepo } from './kit.js';
import { startPty } from './pty.js';

const env = (): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = { ...process.env, A3S_HOME: TEST_A3S_HOME };
  delete e.A3S_MODEL;
  return e;
};

/** The SDK-written MCP fixture server of @a3s-code/sdk's tests (its dependencies resolve from there). */
const MCP_SERVER = join(import.meta.dirname, '..', '..', 'sdk-node', 'test', 'fixtures', 'mcp-server.mjs');

/** Pids of running processes whose command line contains `needle`. */
function pidsWith(needle: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0];
      if (cmd.includes(needle) && state !== 'Z') out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

async function until(check: () => boolean, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

describe('a3s sessions and /save', () => {
  it('/save in a3s code, listed as saved, reopened by a3s sessions --resume with its conversation', async () => {
    const dir = tempRepo();
    const first = startPty(
      [
        process.execPath,
        A3S,
        'code',
        '--session',
        's1',
        '--model',
        `scripted:${scriptFile([{ text: 'Noted, Ada.' }])}`,
        '--cwd',
        dir,
      ],
      env(),
    );
    try {
      let at = await first.waitFor('› ');
      first.type('my name is Ada\r');
      at = await first.waitFor(/completed \(narrative\)/, at);
      first.type('/save\r');
      at = await first.waitFor('saved session s1 (1 run(s))', at);
      first.type('/exit\r');
      expect(await first.exited).toBe(0);
    } finally {
      first.child.kill();
    }
    expect(JSON.parse(readFileSync(join(dir, '.a3s', 'sessions', 's1.json'), 'utf8'))).toMatchObject({
      session_id: 's1',
    });
    expect((await runMain(['sessions', '--cwd', dir])).stdout).toMatch(/^s1 saved {2}/m);
    // Without its log, the conversation comes back from the snapshot alone.
    rmSync(join(dir, '.a3s', 'effect-log', 's1.jsonl'));
    expect(JSON.parse((await runMain(['sessions', '--json', '--cwd', dir])).stdout)).toEqual([
      expect.objectContaining({ id: 's1', last: 'no log', saved: expect.any(String) }),
    ]);

    const again = startPty(
      [
        process.execPath,
        A3S,
        'sessions',
        '--resume',
        's1',
        '--model',
        `scripted:${scriptFile([{ text: 'You are Ada.' }])}`,
        '--cwd',
        dir,
      ],
      env(),
    );
    try {
      let at = await again.waitFor('reopened saved session s1 (2 message(s))');
      at = await again.waitFor('› ', at);
      again.type('what is my name?\r');
      at = await again.waitFor(/You are Ada\.\n*completed/, at);
      again.type('/exit\r');
      expect(await again.exited).toBe(0);
    } finally {
      again.child.kill();
    }
    // The new log starts with the conversation restored from the snapshot, then the new run.
    const log = readFileSync(join(dir, '.a3s', 'effect-log', 's1.jsonl'), 'utf8');
    expect(log.indexOf('my name is Ada')).toBeGreaterThan(-1);
    expect(log.indexOf('my name is Ada')).toBeLessThan(log.indexOf('what is my name?'));
    expect(JSON.parse((await runMain(['sessions', '--json', '--cwd', dir])).stdout)).toEqual([
      expect.objectContaining({ id: 's1', runs: 1, last: 'completed (narrative)' }),
    ]);
    expect(await runMain(['sessions', '--resume', 'nope', '--cwd', dir])).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("no session 'nope'"),
    });
  }, 30_000);

  it('--resume of a parked run streams it to its end (tool card, text, result)', async () => {
    const dir = tempRepo();
    const park = await runMain([
      'run',
      '--session',
      'p1',
      '--model',
      `scripted:${scriptFile([{ tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'echo parked-ok' } }] }])}`,
      '--cwd',
      dir,
      'run it',
    ]);
    expect(park.status).toBe(3);
    const pty = startPty(
      [
        process.execPath,
        A3S,
        'sessions',
        '--resume',
        'p1',
        '--model',
        `scripted:${scriptFile([{ text: 'Ran it.' }])}`,
        '--cwd',
        dir,
      ],
      env(),
    );
    try {
      let at = await pty.waitFor('continuing run');
      at = await pty.waitFor('allow? [y/n/a]', at);
      pty.type('y\r');
      at = await pty.waitFor(
        /● bash echo parked-ok\n {2}│ parked-ok\n {2}✓ ok 1 line\(s\)\nRan it\.\n*completed \(narrative\) · 1 tool call\(s\)/,
        at,
      );
      await pty.waitFor('› ', at);
      pty.type('/exit\r');
      expect(await pty.exited).toBe(0);
    } finally {
      pty.child.kill();
    }
  }, 30_000);
});

describe('a parked run whose capabilities changed before the resume', () => {
  it('CAP-10: a3s sessions --resume shows the drift and asks; n leaves the run parked, y resumes it under the current capabilities', async () => {
    const dir = tempRepo();
    const park = await runMain([
      'run',
      '--session',
      'd1',
      '--model',
      `scripted:${scriptFile([{ tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'echo drifted-ok' } }] }])}`,
      '--cwd',
      dir,
      'run it',
    ]);
    expect(park.status).toBe(3);
    // The workspace's rules change while the run is parked: its permission ceiling drifts.
    writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify({ permissions: { deny: ['web_fetch'] } }));
    const resume = () =>
      startPty(
        [
          process.execPath,
          A3S,
          'sessions',
          '--resume',
          'd1',
          '--model',
          `scripted:${scriptFile([{ text: 'Ran it.' }])}`,
          '--cwd',
          dir,
        ],
        env(),
      );
    const first = resume();
    try {
      let at = await first.waitFor('resume under the current capabilities? [y/N]');
      expect(first.text()).toContain('the permission ceiling changed');
      first.type('n\r');
      at = await first.waitFor('not resumed', at);
      await first.waitFor('› ', at);
      first.type('/exit\r');
      expect(await first.exited).toBe(0);
    } finally {
      first.child.kill();
    }
    const second = resume();
    try {
      let at = await second.waitFor('resume under the current capabilities? [y/N]');
      second.type('y\r');
      at = await second.waitFor('allow? [y/n/a]', at);
      second.type('y\r');
      at = await second.waitFor(/drifted-ok[\s\S]*Ran it\.[\s\S]*completed/, at);
      await second.waitFor('› ', at);
      second.type('/exit\r');
      expect(await second.exited).toBe(0);
    } finally {
      second.child.kill();
    }
  }, 40_000);
});

describe('MCP servers of a3s.config.json', () => {
  it('a3s tools lists their tools; SIGTERM during a3s run closes the session and kills the server', async () => {
    const dir = tempRepo();
    const label = `cli-term-${process.pid}`;
    writeFileSync(
      join(dir, 'a3s.config.json'),
      JSON.stringify({ mcpServers: { cfg: { command: process.execPath, args: [MCP_SERVER, label] } } }),
    );
    const tools = await runMain(['tools', '--trust-workspace', '--cwd', dir]);
    expect(tools.status).toBe(0);
    expect(tools.stdout).toMatch(/^mcp__cfg__echo +read +ro /m);
    expect(pidsWith(label)).toEqual([]); // a3s tools closed its server on the way out

    const script = scriptFile([{ delay_ms: 20_000, text: 'never' }]);
    const child = spawn(
      process.execPath,
      [A3S, 'run', '--json', '--model', `scripted:${script}`, '--cwd', dir, 'wait'],
      { env: env(), stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    // The MCP server starts before the run: under a loaded machine that takes more than 5 s.
    expect(await until(() => out.includes('"type":"turn_start"'), 20_000)).toBe(true);
    expect(pidsWith(label).length).toBeGreaterThan(0);
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(await until(() => pidsWith(label).length === 0)).toBe(true);
  }, 30_000);

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)
    it(`${signal} while the session opens (a server that never answers): ${code}, and the server is killed`, async () => {
      const dir = tempRepo();
      const label = `cli-opening-${signal}-${process.pid}`;
      writeFileSync(
        join(dir, 'a3s.config.json'),
        JSON.stringify({
          mcpServers: { mute: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)', label] } },
        }),
      );
      const script = scriptFile([{ text: 'never' }]);
      const child = spawn(
        process.execPath,
        [A3S, 'run', '--trust-workspace', '--model', `scripted:${script}`, '--cwd', dir, 'wait'],
        { env: env(), stdio: 'ignore' },
      );
      const exited = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      try {
        expect(await until(() => pidsWith(label).length > 0, 20_000)).toBe(true);
        child.kill(signal);
        expect(await exited).toBe(code);
        expect(await until(() => pidsWith(label).length === 0)).toBe(true);
      } finally {
        for (const pid of pidsWith(label)) process.kill(pid, 'SIGKILL');
      }
    }, 30_000);
});
