// `a3s run` on a terminal narrower than its status line (`  … bash 3s`): the line is cut to one
// row, so redrawing it with `\r` never leaves rows of earlier redraws behind; on TERM=dumb it is
// not redrawn at all. Through the real
// executable in a pseudo-terminal whose width is set with `stty cols`.
import { describe, expect, it } from 'vitest';
import { ElapsedTicker } from '../src/render/elapsed.js';
import { A3S, scriptFile, tempRepo, TEST_A3S_HOME } from './kit.js';
import { startPty } from './pty.js';

/** A shell command running `a3s run` on a script whose one bash call takes 3.5 s, and its environment. */
function slowRun(): { env: NodeJS.ProcessEnv; command: string } {
  const dir = tempRepo();
  const script = scriptFile([
    { text: 'Waiting.', tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'sleep 3.5; echo done' } }] },
    { text: 'Finished.' },
  ]);
  const env: NodeJS.ProcessEnv = { ...process.env, A3S_HOME: TEST_A3S_HOME };
  delete env.A3S_MODEL;
  const command = [process.execPath, A3S, 'run', '--yolo', '--model', `scripted:${script}`, '--cwd', dir, 'go']
    .map((a) => `'${a}'`)
    .join(' ');
  return { env, command };
}

describe('a narrow terminal', () => {
  it('the status line of a long call is cut to the width of the terminal', async () => {
    const { env, command } = slowRun();
    delete env.NO_COLOR;
    const pty = startPty(['sh', '-c', `stty cols 9 && exec ${command}`], env);
    expect(await pty.exited).toBe(0);
    const text = pty.text();
    expect(text).toContain('Finished.');
    // 9 columns: 7 characters and the cursor.
    expect(text).toContain('  … bas…');
    expect(text).not.toMatch(/… bash \ds/);
  }, 20_000);

  it('TERM=dumb (escape codes shown as text): no status line redrawn in place', async () => {
    const { env, command } = slowRun();
    for (const [term, shown] of [
      ['dumb', false],
      ['xterm', true],
    ] as const) {
      const pty = startPty(['sh', '-c', `TERM=${term} exec ${command}`], env);
      expect(await pty.exited).toBe(0);
      expect(pty.text()).toContain('Finished.');
      expect(/… bash \ds/.test(pty.text()), term).toBe(shown);
    }
  }, 30_000);

  it('unit: the status line fits the columns it is given, and is whole without them', () => {
    let out = '';
    let now = 0;
    let columns: number | undefined = 6;
    const t = new ElapsedTicker({
      write: (s) => {
        out += s;
      },
      dim: (s) => s,
      tty: true,
      now: () => now,
      tickMs: 60_000,
      columns: () => columns,
    });
    t.start('b1', 'bash');
    now = 2_000;
    t.tick();
    columns = undefined;
    now = 3_000;
    t.tick();
    columns = 80;
    now = 4_000;
    t.tick();
    t.close();
    expect(out).toBe('\r\u001b[K  … …\r\u001b[K  … bash 3s\r\u001b[K  … bash 4s\r\u001b[K');
  });
});
