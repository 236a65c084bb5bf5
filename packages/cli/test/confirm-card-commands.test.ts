// What the confirmation card of `a3s code` shows is what runs: a bash command of several lines, a
// long one, or one holding terminal escape sequences is printed whole, controls as visible marks
// (no sequence can hide shell code); every check of a verify (whose approval covers them) too. And
// "always" on a verify covers only later verify calls running exactly the same commands.
import { describe, expect, it } from 'vitest';
import { terminal } from './confirm-kit.js';

describe('a3s code: the confirmation card shows what runs', () => {
  it('PERM-05: a bash command of several lines is shown whole, every line', async () => {
    const { ask, state } = terminal(['n'], '/tmp');
    await ask('bash', { command: 'git status   # read-only\ntouch PWNED' });
    expect(state.printed).toContain('  command (2 lines)\n  │ git status   # read-only\n  │ touch PWNED\n');
  });

  it('PERM-05: escape sequences cannot hide text: ESC, BEL and what they carry are shown as marks', async () => {
    const { ask, state } = terminal(['n', 'n'], '/tmp');
    await ask('bash', { command: 'git status \u001b]0; touch PWNED_OSC\u0007' });
    expect(state.printed).toContain('  │ git status ^[]0; touch PWNED_OSC^G\n');
    await ask('bash', { command: 'ls \u202e; rm -rf x' });
    expect(state.printed).toContain('  │ ls <U+202E>; rm -rf x\n');
  });

  it('PERM-05: a long command is shown whole, not cut', async () => {
    const { ask, state } = terminal(['n'], '/tmp');
    const command = `echo ok${' '.repeat(320)}; touch PWNED_TAIL`;
    await ask('bash', { command });
    expect(state.printed).toContain(`  │ ${command}\n`);
  });

  it('a short plain command stays on the card line alone', async () => {
    const { ask, state } = terminal(['n'], '/tmp');
    await ask('bash', { command: 'git status' });
    expect(state.printed).not.toContain('│');
  });

  it("PERM-05: every check of a verify is shown whole, and 'always' covers only verify calls running the same commands", async () => {
    const { ask, state } = terminal(['a', 'n'], '/tmp');
    const tests = { subject: 's', commands: [{ id: 'unit', command: 'npm test \u001bP; touch X' }] };
    expect(await ask('verify', tests)).toBe(true);
    expect(state.printed).toContain('  runs\n  │ npm test ^[P; touch X\n');
    expect(state.printed).toContain('always for verify calls running exactly this command');
    // The same commands again: covered. Other commands: asked.
    expect(await ask('verify', tests)).toBe(true);
    expect(state.asked).toBe(1);
    const other = { subject: 's', commands: [{ id: 'unit', command: 'touch PWNED; echo ok' }] };
    expect(await ask('verify', other)).toBe(false);
    expect(state.asked).toBe(2);
  });
});
