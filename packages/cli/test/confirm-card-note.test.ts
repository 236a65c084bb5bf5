// The confirmation card of `a3s code` for a call asked again because a crash cut off its approved
// attempt: the card says so, and an earlier "always for this rule" does not answer it.
import { describe, expect, it } from 'vitest';
import type { ConfirmationRequest } from '@a3s-code/sdk';
import { terminalConfirmation } from '../src/interactive/prompts.js';
import type { LineReader } from '../src/interactive/line-reader.js';
import { styleFor } from '../src/style.js';

const request = (toolId: string, note?: string): ConfirmationRequest => ({
  toolId,
  toolName: 'bash',
  args: { command: 'git push' },
  rule: 'default (ask)',
  ...(note === undefined ? {} : { note }),
  source: 'agent',
  runId: 'r',
  sessionId: 's',
});

describe('a3s code: a call asked again after a crash', () => {
  it('shows the note and is asked even after "always for this rule"', async () => {
    let printed = '';
    const answers = ['a', 'n'];
    const reads: string[] = [];
    const reader = {
      read: async (prompt: string) => {
        reads.push(prompt);
        return answers.shift() ?? null;
      },
    } as unknown as LineReader;
    const confirm = terminalConfirmation(
      reader,
      { write: (t: string) => (printed += t) },
      styleFor({ isTTY: false }, {}),
      () => undefined,
    );
    const signal = new AbortController().signal;
    expect(await confirm.confirm(request('t1'), signal)).toMatchObject({ approved: true });
    expect(await confirm.confirm(request('t2'), signal)).toMatchObject({ approved: true });
    expect(reads).toHaveLength(1);
    const note = 'the approved attempt of this call was cut off when the process ended and may have run in part';
    expect(await confirm.confirm(request('t3', note), signal)).toMatchObject({ approved: false });
    expect(reads).toHaveLength(2);
    expect(printed).toContain(`  ${note}\n`);
  });
});
