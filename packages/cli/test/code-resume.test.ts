// `a3s code` through a pseudo-terminal: Ctrl-C interrupts the run, a steer typed before it is
// reported as not delivered, and /resume continues the interrupted run in a new run that carries
// the held steer, so the model picks up where it stopped.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { A3S, promptsLogged, scriptFile, tempRepo } from './kit.js';
import { startPty } from './pty.js';

describe('a3s code: /resume after Ctrl-C (pseudo-terminal)', () => {
  it('STEER-04: Ctrl-C interrupts, the queued steer is held, /resume continues in a new run with it', async () => {
    const dir = tempRepo();
    const script = scriptFile([{ delay_ms: 10_000, text: 'never shown' }, { text: 'Picked up where I stopped.' }]);
    const env = { ...process.env };
    delete env.A3S_MODEL;
    const pty = startPty(
      [process.execPath, A3S, 'code', '--model', `scripted:${script}`, '--cwd', dir, '--session', 'resume-1'],
      env,
    );
    try {
      let at = await pty.waitFor('› ');
      pty.type('/resume\r');
      at = await pty.waitFor('nothing to resume: no run yet', at);
      pty.type('something slow\r');
      await promptsLogged(dir, 1);
      // The prompt is logged a moment before the model call takes the script's first (slow) turn;
      // interrupting before that would leave the slow turn for /resume.
      await new Promise((resolve) => setTimeout(resolve, 300));
      pty.type('use tabs\r');
      at = await pty.waitFor('(steer queued for the next model call)', at);
      pty.type('\u0003');
      at = await pty.waitFor(/cancelled · 0 tool call\(s\)/, at);
      at = await pty.waitFor(
        /steer not delivered: run interrupted\n {2}"use tabs"\n {2}\/resume continues the run with it/,
        at,
      );
      await pty.waitFor('› ', at);
      pty.type('/resume\r');
      at = await pty.waitFor('continuing the interrupted run in a new run…', at);
      at = await pty.waitFor(/Picked up where I stopped\.\ncompleted \(narrative\)/, at);
      await pty.waitFor('› ', at);
      pty.type('/exit\r');
      expect(await pty.exited).toBe(0);
    } finally {
      pty.child.kill();
    }
    const log = readdirSync(join(dir, '.a3s', 'effect-log')).find((f) => f.startsWith('resume-1'))!;
    const facts = readFileSync(join(dir, '.a3s', 'effect-log', log), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; payload: Record<string, unknown> });
    const prompts = facts.filter((f) => f.type === 'user.message').map((f) => String(f.payload.text));
    expect(prompts[0]).toBe('something slow');
    expect(prompts[1]).toMatch(
      /^Continue the task from where you stopped: the previous run was interrupted[\s\S]*Also, from the user:\nuse tabs$/,
    );
    expect(facts.filter((f) => f.type === 'run.ended').map((f) => f.payload.status)).toEqual([
      'cancelled',
      'completed',
    ]);
  }, 30_000);
});
