// Two `a3s` processes on one session: the second is refused at once (exit 4, its own code), naming the process
// that holds the log and what to do; the first goes on undisturbed.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { A3S, a3s, scriptFile, TEST_A3S_HOME, tempRepo } from './kit.js';

describe('a session already open in another process', () => {
  it('a3s run --session <the same id> while a3s code holds it: exit 4 (the session is in use), the holder and the way out', async () => {
    const dir = tempRepo();
    const model = `scripted:${scriptFile([{ text: 'Hello.' }])}`;
    const env: NodeJS.ProcessEnv = { ...process.env, A3S_HOME: TEST_A3S_HOME, NO_COLOR: '1' };
    delete env.A3S_MODEL;
    const holder = spawn(process.execPath, [A3S, 'code', '--model', model, '--cwd', dir, '--session', 'shared'], {
      env,
    });
    try {
      let banner = '';
      await new Promise<void>((ok, fail) => {
        holder.stderr.on('data', (d: Buffer) => {
          banner += d;
          if (banner.includes('type a prompt')) ok();
        });
        holder.once('exit', (code) => fail(new Error(`a3s code exited with ${code}: ${banner}`)));
      });
      const r = a3s(['run', '--model', model, '--cwd', dir, '--session', 'shared', 'hi']);
      expect(r.status, r.stderr).toBe(4);
      expect(r.stderr).toMatch(new RegExp(`^a3s run: FACT_LOG_LOCKED: .*shared\\.jsonl.* by process ${holder.pid}\\b`));
      expect(r.stderr).toContain(
        "hint: another process has this session's log open (its pid is above): leave that session first (/exit in a3s code, or let its a3s run end), or start a new session by leaving out --session",
      );
      expect(r.stderr).not.toMatch(/\n\s+at /);
      // a3s code and a3s sessions --resume on the held session: the same code, the same way out.
      for (const args of [
        ['code', '--session', 'shared'],
        ['sessions', '--resume', 'shared'],
      ]) {
        const other = a3s([...args, '--model', model, '--cwd', dir]);
        expect(other.status, other.stderr).toBe(4);
        expect(other.stderr).toMatch(/FACT_LOG_LOCKED: .*shared\.jsonl/);
        expect(other.stderr).toContain("hint: another process has this session's log open");
      }
      holder.stdin.end('/exit\n');
      expect(await new Promise((ok) => holder.once('exit', ok))).toBe(0);
    } finally {
      if (holder.exitCode === null) holder.kill('SIGKILL');
    }
  });
});
