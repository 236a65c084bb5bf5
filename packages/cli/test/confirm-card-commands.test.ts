// What the confirmation card of `a3s code` shows is what runs: a bash command of several lines, a
// long one, or one holding terminal escape sequences is printed whole, controls as visible marks
// (no sequence can hide shell code); every check of a verify (whose approval covers them) too. And
// "always" on a verify covers only later verify calls running exactly the same commands.
import type { ConfirmationRequest } from '@a3s-code/sdk';
import { describe, expect, it } from 'vitest';
import type { LineReader } from '../src/interactive/line-reader.js';
import { terminalConfirmation } from '../src/interactive/prompts.js';
import { styleFor } from '../src/style.js';

const request = (toolId: string, toolName: string, args: unknown): ConfirmationRequest => ({
  toolId,
  toolName,
  args,
  rule: 'default',
  source: 'agent',
  runId: 'r',
  sessionId: 's',
});

/** A card manager answering `answers` in turn; `printed` holds what it wrote. */
function cards(answers: string[]) {
  const state = { printed: '', asked: 0 };
  const reader = {
    read: async () => {
      state.asked++;
      return answers.shift() ?? null;
    },
  } as unknown as LineReader;
  const confirm = terminalConfirmation(
    reader,
    { write: (t: string) => (state.printed += t) },
    styleFor({ isTTY: false }, {}),
    () => undefined,
    '/tmp',
  );
  return { confirm, state, signal: new AbortController().signal };
}

describe('a3s code: the confirmation card shows what runs', () => {
  it('PERM-05: a bash command of several lines is shown whole, every line', async () => {
    const { confirm, state, signal } = cards(['n']);
    await confirm.confirm(request('t1', 'bash', { command: 'git status   # read-only\ntouch PWNED' }), signal);
    expect(state.printed).toContain('  command (2 lines)\n  │ git status   # read-only\n  │ touch PWNED\n');
  });

  it('PERM-05: escape sequences cannot hide text: ESC, BEL and what they carry are shown as marks', async () => {
    const { confirm, state, signal } = cards(['n', 'n']);
    await confirm.confirm(request('t1', 'bash', { command: 'git status \u001b]0; touch PWNED_OSC\u0007' }), signal);
    expect(state.printed).toContain('  │ git status ^[]0; touch PWNED_OSC^G\n');
    await confirm.confirm(request('t2', 'bash', { command: 'ls \u202e; rm -rf x' }), signal);
    expect(state.printed).toContain('  │ ls <U+202E>; rm -rf x\n');
  });

  it('PERM-05: a long command is shown whole, not cut', async () => {
    const { confirm, state, signal } = cards(['n']);
    const command = `echo ok${' '.repeat(320)}; touch PWNED_TAIL`;
    await confirm.confirm(request('t1', 'bash', { command }), signal);
    expect(state.printed).toContain(`  │ ${command}\n`);
  });

  it('a short plain command stays on the card line alone', async () => {
    const { confirm, state, signal } = cards(['n']);
    await confirm.confirm(request('t1', 'bash', { command: 'git status' }), signal);
    expect(state.printed).not.toContain('│');
  });

  it("PERM-05: every check of a verify is shown whole, and 'always' covers only verify calls running the same commands", async () => {
    const { confirm, state, signal } = cards(['a', 'n']);
    const tests = { subject: 's', commands: [{ id: 'unit', command: 'npm test \u001bP; touch X' }] };
    expect(await confirm.confirm(request('t1', 'verify', tests), signal)).toMatchObject({ approved: true });
    expect(state.printed).toContain('  runs\n  │ npm test ^[P; touch X\n');
    expect(state.printed).toContain('always for verify calls running exactly this command');
    // The same commands again: covered. Other commands: asked.
    expect(await confirm.confirm(request('t2', 'verify', tests), signal)).toMatchObject({ approved: true });
    expect(state.asked).toBe(1);
    const other = { subject: 's', commands: [{ id: 'unit', command: 'touch PWNED; echo ok' }] };
    expect(await confirm.confirm(request('t3', 'verify', other), signal)).toMatchObject({ approved: false });
    expect(state.asked).toBe(2);
  });
});
