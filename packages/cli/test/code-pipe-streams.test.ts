// `a3s code` with stdin and stdout piped (a script drives it, the answer is captured): the
// banner, the prompt, the confirmation card and its question go to stderr, so stdout holds only
// what the session produced (the model's text, tool cards, the run summary). On a terminal they
// stay on stdout (code.test.ts). `a3s run` keeps its notes to the person on stderr too.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { A3S, a3s, scriptFile, TEST_A3S_HOME, tempRepo } from './kit.js';

describe('a3s code with stdout not a terminal', () => {
  it('prompts and cards on stderr, the answer on stdout', async () => {
    const dir = tempRepo();
    const script = scriptFile([
      { text: 'Writing.', tool_calls: [{ id: 'w1', name: 'write', args: { file_path: 'b.txt', content: 'x\n' } }] },
      { text: 'The answer is 42.' },
    ]);
    const env: NodeJS.ProcessEnv = { ...process.env, A3S_HOME: TEST_A3S_HOME, NO_COLOR: '1' };
    delete env.A3S_MODEL;
    const child = spawn(process.execPath, [A3S, 'code', '--model', `scripted:${script}`, '--cwd', dir], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
    });
    // Each line is typed once its prompt is on stderr, as a person (or expect) would.
    const answers: [string, string][] = [
      ['› ', 'make b\n'],
      ['allow? [y/n/a] ', 'y\n'],
    ];
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
      const next = answers[0];
      if (next !== undefined && stderr.endsWith(next[0])) {
        answers.shift();
        child.stdin.write(next[1]);
        if (answers.length === 0) child.stdin.end();
      }
    });
    const status = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    expect(answers, stderr).toEqual([]);
    // The write is not verified: the completion gate asks the model on, past the end of its
    // script; the run fails, and the exit status says so.
    expect(stderr).toContain('SCRIPT_EXHAUSTED');
    expect(status, stderr).toBe(1);
    expect(stdout).toContain('Writing.');
    expect(stdout).toMatch(/● write b\.txt\n {2}✓ ok/);
    expect(stdout).toContain('The answer is 42.');
    for (const chrome of ['a3s code ·', 'type a prompt', '› ', '? allow write', 'allow? [y/n/a]'])
      expect(stdout, chrome).not.toContain(chrome);
    expect(stderr).toMatch(/^a3s code · [^\n]*\ntype a prompt[^\n]*\n› /);
    expect(stderr).toMatch(/\? allow write b\.txt\n {2}rule: [^\n]*\nallow\? \[y\/n\/a\] /);
  });

  it('the reader of stdout going away (a3s code | head) interrupts the run and ends the session with 0', async () => {
    const dir = tempRepo();
    const command = 'sleep 0.3; echo after';
    const script = scriptFile([
      { text: 'One.', tool_calls: [{ id: 'b1', name: 'bash', args: { command } }] },
      { delay_ms: 15_000, text: 'never' },
    ]);
    const env: NodeJS.ProcessEnv = { ...process.env, A3S_HOME: TEST_A3S_HOME, NO_COLOR: '1' };
    delete env.A3S_MODEL;
    const child = spawn(process.execPath, [A3S, 'code', '--yolo', '--model', `scripted:${script}`, '--cwd', dir], {
      env,
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    child.stdin.write('go\n'); // stdin stays open: only stdout's reader goes away
    // The first line of the answer is read, then the reader leaves (as head -1 does).
    await new Promise<void>((ok) => child.stdout.once('data', () => ok()));
    child.stdout.destroy();
    const status = await Promise.race([
      new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))),
      new Promise<string>((ok) => setTimeout(() => ok('still running after 10 s'), 10_000)),
    ]);
    if (child.exitCode === null) child.kill('SIGKILL');
    expect(status, stderr).toBe(0);
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 15_000);

  it('a3s run: the vibe note goes to stderr, the run output to stdout', () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify({ vibe: { maxWorkers: 2 } }));
    const model = `scripted:${scriptFile([{ text: 'Only the answer.' }])}`;
    const r = a3s(['run', '--model', model, '--cwd', dir, 'go'], { NO_COLOR: '1' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Only the answer\.\n/);
    expect(r.stdout).not.toContain('vibe mode');
    expect(r.stderr).toMatch(/^vibe mode on \(from "vibe" in /);
  });
});
