// A model that is slow to answer: the terminal shows how long the run has waited for it (`… waiting
// for the model 2s`, redrawn in place and erased once the model answers), as it does for a long tool
// call, instead of a blank screen until the answer or a retry notice comes.
import { describe, expect, it } from 'vitest';
import { createEventPrinter } from '../src/render/event-printer.js';
import { styleFor } from '../src/style.js';
import { printerEvent } from './printer-kit.js';

const event = printerEvent;

describe('event printer: waiting for the model', () => {
  it('shows the wait on a terminal from 2 s on and erases it when the answer streams', async () => {
    let text = '';
    const print = createEventPrinter({ write: (t: string) => (text += t) }, styleFor({ isTTY: false }, {}), {
      tty: true,
    });
    try {
      print(event('agent_start', { run_id: 'r1', prompt: 'hi' }, 1));
      print(event('turn_start', { turn: 1 }, 2));
      await new Promise((r) => setTimeout(r, 3_200));
      expect(text).toMatch(/\r\u001b\[K {2}… waiting for the model [23]s/);
      print(event('text_delta', { delta: 'Hello' }, 3));
      expect(text.endsWith('\r\u001b[KHello')).toBe(true);
      const after = text.length;
      await new Promise((r) => setTimeout(r, 1_200));
      expect(text.length).toBe(after);
    } finally {
      print.close();
    }
  }, 10_000);
});
