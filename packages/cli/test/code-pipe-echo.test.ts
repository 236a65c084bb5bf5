// `a3s code` driven through a pipe whose lines arrive after each prompt was printed (a script that
// waits for the prompt, as expect does): each line read is shown after the prompt it answered, so
// the transcript on stderr reads `› first`, not a run of bare prompts `› › ›`.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { A3S, scriptFile, TEST_A3S_HOME, tempRepo } from './kit.js';

describe('a3s code from a pipe', () => {
  it('shows each line after its prompt when it arrives after the prompt', async () => {
    const dir = tempRepo();
    const script = scriptFile([{ text: 'One.' }, { text: 'Two.' }]);
    const env: NodeJS.ProcessEnv = { ...process.env, A3S_HOME: TEST_A3S_HOME, NO_COLOR: '1' };
    delete env.A3S_MODEL;
    const child = spawn(process.execPath, [A3S, 'code', '--model', `scripted:${script}`, '--cwd', dir], { env });
    let stderr = '';
    const lines = ['first\n', 'second\n', '/exit\n'];
    // Each line is written only once its prompt is on stderr: nothing is read ahead.
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
      if (lines.length > 0 && stderr.endsWith('› ')) {
        const line = lines.shift()!;
        setTimeout(() => {
          child.stdin.write(line);
          if (lines.length === 0) child.stdin.end();
        }, 100);
      }
    });
    const status = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    expect(lines, stderr).toEqual([]);
    expect(status, stderr).toBe(0);
    expect(stderr).toContain('› first\n');
    expect(stderr).toContain('› second\n');
    expect(stderr).toContain('› /exit\n');
    expect(stderr).not.toMatch(/› › /);
  });
});
