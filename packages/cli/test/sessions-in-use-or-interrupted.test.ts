// `a3s sessions` tells a session another live process has open ("in use by process N") from one
// whose run was cut off by a crash ("interrupted", with how to continue it); --json adds the
// fields `inUseBy` and `interrupted` beside the ones it had. And a file where the folder of logs
// should be is named, with what is expected there, not a raw ENOTDIR.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { A3S, promptsLogged, runMain, scriptFile, TEST_A3S_HOME, tempRepo } from './kit.js';

/** Starts `a3s run --session <id>` on a model that answers after 20 s; resolves once its prompt is logged. */
async function slowRun(dir: string, id: string, logged: number) {
  const env: NodeJS.ProcessEnv = { ...process.env, A3S_HOME: TEST_A3S_HOME };
  delete env.A3S_MODEL;
  const model = `scripted:${scriptFile([{ delay_ms: 20_000, text: 'never' }])}`;
  const child = spawn(process.execPath, [A3S, 'run', '--session', id, '--model', model, '--cwd', dir, 'wait'], {
    env,
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  await promptsLogged(dir, logged);
  return { child, exited };
}

interface Row {
  id: string;
  last: string;
  inUseBy: { pid: number; host: string } | null;
  interrupted: boolean;
}

describe('a3s sessions: in use or interrupted', () => {
  it('a live run is "in use by process N"; a crashed one is "interrupted" with how to continue it', async () => {
    const dir = tempRepo();
    const crashed = await slowRun(dir, 'crashed', 1);
    crashed.child.kill('SIGKILL');
    await crashed.exited;
    const live = await slowRun(dir, 'live', 2);
    try {
      const r = await runMain(['sessions', '--cwd', dir], { env: { NO_COLOR: '1' } });
      expect(r.status, r.stderr).toBe(0);
      const line = (id: string) => r.stdout.split('\n').find((l) => l.startsWith(`${id} `)) ?? '';
      expect(line('live')).toContain(`in use by process ${live.child.pid}, 1 run(s), last running,`);
      expect(line('crashed')).toContain(
        '1 run(s), last interrupted (its process ended mid-run; continue it with a3s sessions --resume crashed),',
      );
      expect(line('crashed')).not.toContain('in use');
      const json = await runMain(['sessions', '--json', '--cwd', dir]);
      const rows = JSON.parse(json.stdout) as Row[];
      expect(rows.find((x) => x.id === 'live')).toMatchObject({
        last: 'running',
        inUseBy: { pid: live.child.pid },
        interrupted: false,
      });
      expect(rows.find((x) => x.id === 'crashed')).toMatchObject({ last: 'running', inUseBy: null, interrupted: true });
    } finally {
      live.child.kill('SIGKILL');
      await live.exited;
    }
  }, 60_000);

  it('a file in place of .a3s/effect-log is named, with what belongs there (exit 2)', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'a3s-ws-'));
    mkdirSync(join(ws, '.a3s'));
    writeFileSync(join(ws, '.a3s', 'effect-log'), 'not a folder');
    for (const args of [['sessions'], ['replay', '.']]) {
      const r = await runMain(args, { cwd: ws });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(
        `${join(ws, '.a3s', 'effect-log')} is not a folder; it must be the folder of the workspace's session logs`,
      );
      expect(r.stderr).not.toContain('ENOTDIR');
    }
  });
});
