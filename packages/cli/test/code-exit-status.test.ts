// `a3s code` driven through a pipe (a script, CI) says by its exit status whether its last run
// failed, as `a3s run` does; `a3s sessions --resume` goes through it and says the same.
import { describe, expect, it } from 'vitest';
import { a3s, scriptFile, tempRepo } from './kit.js';

describe('the exit status of a3s code', () => {
  it('is 1 when the last run failed and 0 when it completed, through a3s sessions --resume too', () => {
    const dir = tempRepo();
    // One answer for two prompts: the second run finds the script played out and fails.
    const script = scriptFile([{ text: 'Hi.' }]);
    const failed = a3s(['code', '--cwd', dir, '--session', 'x1', '--model', `scripted:${script}`], {}, 'one\ntwo\n');
    expect(failed.stderr).toContain('SCRIPT_EXHAUSTED');
    expect(failed.status).toBe(1);
    const fine = a3s(['code', '--cwd', dir, '--session', 'x2', '--model', `scripted:${script}`], {}, 'one\n');
    expect(fine.status, fine.stderr).toBe(0);
    const resumed = a3s(
      ['sessions', '--cwd', dir, '--resume', 'x2', '--model', `scripted:${scriptFile([])}`],
      {},
      'again\n',
    );
    expect(resumed.stderr).toContain('SCRIPT_EXHAUSTED');
    expect(resumed.status).toBe(1);
  });

  it('is 1 when the last command was a failed /ultracode, whose summary counts the steps that ran', () => {
    const dir = tempRepo();
    // No answer is a plan: the flow fails at its first step and skips the rest.
    const script = scriptFile([{ text: 'not json' }, { text: 'still not' }, { text: 'nope' }, { text: 'nah' }]);
    const r = a3s(['code', '--cwd', dir, '--model', `scripted:${script}`], {}, '/ultracode fix the bug\n');
    expect(r.stdout).toContain('workflow failed at step plan');
    expect(r.stdout).toMatch(/ultracode failed · 1 step\(s\) run, \d+ skipped · run wf-/);
    expect(r.status, r.stderr).toBe(1);
  });
});
