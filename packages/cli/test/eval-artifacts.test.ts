// `a3s run` with the eval pack on by default: the PNG a matplotlib cell makes is saved under the
// session's artifacts and shown (path, media type, size); `a3s replay` lists it; `a3s tools`
// lists eval and debug (exec tier), a deny rule takes them off; without --yolo an eval call asks.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { A3S, runMain, scriptFile, tempRepo } from './kit.js';
import { startPty } from './pty.js';

const MPL = spawnSync('/usr/bin/python3', ['-c', 'import matplotlib']).status === 0;

const PLOT = [
  'import matplotlib',
  "matplotlib.use('Agg')",
  'import matplotlib.pyplot as plt',
  'plt.plot([1, 2, 3], [1, 4, 9])',
  'plt.show()',
].join('\n');
const turns = (code: string) => [
  {
    text: 'Plotting.',
    tool_calls: [{ id: 'p1', name: 'eval', args: { code, description: 'plot the squares of one to three' } }],
  },
  // A plot changes no workspace file (its PNG is an artifact): the run completes with no verify.
  { text: 'Plotted.' },
];

describe.skipIf(!MPL)(
  `eval artifacts in the CLI${MPL ? '' : ' (skipped: /usr/bin/python3 cannot import matplotlib)'}`,
  () => {
    it('EVAL-04: a3s run saves the PNG under .a3s/artifacts and shows path, media type and size; a3s replay lists it', async () => {
      const dir = tempRepo();
      const model = `scripted:${scriptFile(turns(PLOT))}`;
      const run = await runMain(['run', '--yolo', '--model', model, '--cwd', dir, '--session', 'plot-1', 'plot it']);
      expect(run.status, run.stderr).toBe(0);
      const line = /▣ image\/png, ([\d.]+ KB) → (\.a3s\/artifacts\/plot-1\/[0-9a-f-]{36}\.png)\n/.exec(run.stdout);
      expect(line, run.stdout).not.toBeNull();
      const saved = join(dir, line![2]!);
      const png = readFileSync(saved);
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(line![1]).toBe(`${(statSync(saved).size / 1024).toFixed(1)} KB`);
      expect(run.stdout).toMatch(/\[image 1: image\/png saved as artifact:\/\//);
      expect(run.stdout).toContain('completed (narrative)');

      const replay = await runMain(['replay', '--cwd', dir, 'plot-1']);
      expect(replay.status).toBe(0);
      expect(replay.stdout).toContain(`artifacts:\n  ▣ image/png, ${line![1]} → ${line![2]} (saved)  call 1 eval`);
    }, 60_000);

    it('EVAL-04: a3s code asks before the cell (exec tier), then shows where the PNG was saved', async () => {
      const dir = tempRepo();
      const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
      delete env.A3S_MODEL;
      const script = scriptFile(turns(PLOT));
      const pty = startPty(
        [process.execPath, A3S, 'code', '--model', `scripted:${script}`, '--cwd', dir, '--session', 'plot-2'],
        env,
      );
      try {
        let at = await pty.waitFor('› ');
        pty.type('plot the squares\r');
        at = await pty.waitFor(/\? allow eval plot the squares of one to three/, at);
        at = await pty.waitFor('allow? [y/n/a]', at);
        pty.type('y\r');
        at = await pty.waitFor(/▣ image\/png, [\d.]+ KB → \.a3s\/artifacts\/plot-2\/[0-9a-f-]{36}\.png/, at);
        const shown = /→ (\.a3s\/artifacts\/plot-2\/[0-9a-f-]{36}\.png)/.exec(pty.text())![1]!;
        expect(readFileSync(join(dir, shown)).subarray(1, 4).toString()).toBe('PNG');
        await pty.waitFor(/completed \(narrative\)/, at);
        pty.type('\u0003');
        await new Promise((r) => setTimeout(r, 100));
        pty.type('\u0003');
        expect(await pty.exited).toBe(130);
      } finally {
        pty.child.kill();
      }
    }, 60_000);
  },
);

describe('eval and debug on the CLI surface', () => {
  it('TIER-02: a3s tools lists eval and debug in the exec tier; a deny rule in a3s.config.json takes them off', async () => {
    const dir = tempRepo();
    const model = `scripted:${scriptFile([])}`;
    const table = await runMain(['tools', '--model', model, '--cwd', dir]);
    expect(table.stdout).toMatch(/^eval +exec /m);
    expect(table.stdout).toMatch(/^debug +exec /m);
    writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify({ permissions: { deny: ['eval', 'debug'] } }));
    const denied = await runMain(['tools', '--model', model, '--cwd', dir]);
    expect(denied.stdout).not.toMatch(/^eval /m);
    expect(denied.stdout).not.toMatch(/^debug /m);
  });

  it('EVAL-02: without --yolo an eval call asks, so a3s run parks and no kernel runs the cell', async () => {
    const dir = tempRepo();
    const code = "open('MARK', 'w').write('x')";
    const model = `scripted:${scriptFile(turns(code))}`;
    const run = await runMain(['run', '--model', model, '--cwd', dir, 'mark it']);
    expect(run.status).toBe(3);
    expect(run.stdout).toContain('continue it with: a3s sessions --resume');
    expect(existsSync(join(dir, 'MARK'))).toBe(false);
    expect(existsSync(join(dir, '.a3s', 'artifacts'))).toBe(false);
  });
});
