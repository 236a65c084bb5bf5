// The confirmation card of `a3s code` driven from a test: typed answers in, what it printed out.
import type { ConfirmationRequest } from '@a3s-code/sdk';
import type { LineReader } from '../src/interactive/line-reader.js';
import { terminalConfirmation } from '../src/interactive/prompts.js';
import { styleFor } from '../src/style.js';

const request = (toolName: string, args: unknown): ConfirmationRequest => ({
  toolId: 't',
  toolName,
  args,
  rule: 'default',
  source: 'agent',
  runId: 'r',
  sessionId: 's',
});

/** A terminal confirmation answering `answers` in turn, with what it printed and how often it asked. */
export function terminal(answers: string[], root: string | undefined) {
  const state = { printed: '', asked: 0 };
  const reader = {
    read: async () => {
      state.asked += 1;
      return answers.shift() ?? null;
    },
  } as unknown as LineReader;
  const confirm = terminalConfirmation(
    reader,
    { write: (t: string) => (state.printed += t) },
    styleFor({ isTTY: false }, {}),
    () => undefined,
    root,
  );
  const ask = async (toolName: string, args: unknown) =>
    (await confirm.confirm(request(toolName, args), new AbortController().signal)).approved;
  return { state, ask };
}
