// `a3s sessions --resume <id>` without a terminal, on a run parked at a confirmation or a question:
// input that ends before any answer leaves the run parked (exit 3, the line a3s run prints), as
// a3s run does, instead of recording a refusal (or a skipped question) for good. A later resume
// with an answer still finds the run parked and continues it.
import { describe, expect, it } from 'vitest';
import { a3s, scriptFile, tempRepo } from './kit.js';

describe('a3s sessions --resume with the input at its end', () => {
  it('keeps a run parked at a confirmation parked, exit 3, and a later answer continues it', () => {
    const dir = tempRepo();
    const ask = scriptFile([
      { tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'echo hello-from-b1' } }] },
      { text: 'written' },
    ]);
    const run = a3s(['run', '--session', 'p1', '--model', `scripted:${ask}`, '--cwd', dir, 'say hello'], {}, '');
    expect(run.status, run.stderr).toBe(3);
    expect(run.stdout).toContain('parked: waiting for confirmation of bash echo hello-from-b1 (b1)');

    const rest = scriptFile([{ text: 'written' }]);
    const ended = a3s(['sessions', '--resume', 'p1', '--model', `scripted:${rest}`, '--cwd', dir], {}, '');
    expect(ended.status, ended.stderr).toBe(3);
    expect(ended.stdout).toContain('parked: waiting for confirmation of bash echo hello-from-b1 (b1)');
    expect(ended.stdout).not.toContain('refused');
    expect(ended.stderr).toContain('no answer (the input ended); continue it with: a3s sessions --resume p1');
    // Named in the parked line, never run.
    expect(ended.stdout.replaceAll('bash echo hello-from-b1 (b1)', '')).not.toContain('hello-from-b1');
    expect(a3s(['sessions', '--cwd', dir]).stdout).toContain('last parked (confirm)');

    const answered = a3s(['sessions', '--resume', 'p1', '--model', `scripted:${rest}`, '--cwd', dir], {}, 'y\n');
    expect(answered.status, answered.stderr).toBe(0);
    expect(answered.stdout).toContain('hello-from-b1');
    expect(answered.stdout).toContain('written');
  });

  it('keeps a run parked at a question parked, exit 3', () => {
    const dir = tempRepo();
    const ask = scriptFile([
      {
        tool_calls: [
          {
            id: 'q1',
            name: 'ask_user',
            args: { question: 'Which port?', options: [{ label: '80' }, { label: '443' }] },
          },
        ],
      },
      { text: 'ok' },
    ]);
    const run = a3s(['run', '--session', 'q', '--model', `scripted:${ask}`, '--cwd', dir, 'pick'], {}, '');
    expect(run.status, run.stderr).toBe(3);
    const ended = a3s(['sessions', '--resume', 'q', '--model', `scripted:${ask}`, '--cwd', dir], {}, '');
    expect(ended.status, ended.stderr).toBe(3);
    expect(ended.stdout).toMatch(/parked: waiting for an answer to "Which port\?" \(\S+\)/);
    expect(a3s(['sessions', '--cwd', dir]).stdout).toContain('last parked (question)');
  });
});
