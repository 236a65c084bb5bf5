// The terminal printer and a live view that fell behind: an `events_dropped` notice becomes one
// dim line that says how many live events were left out and that the log has them all.
import { describe, expect, it } from 'vitest';
import { createEventPrinter } from '../src/render/event-printer.js';
import { styleFor } from '../src/style.js';
import { printerEvent } from './printer-kit.js';

describe('event printer: a live view that fell behind', () => {
  it('prints one line for events_dropped, after ending the open line of streamed text', () => {
    let text = '';
    const print = createEventPrinter({ write: (t: string) => (text += t) }, styleFor({ isTTY: false }, {}), {
      elapsed: false,
    });
    const event = printerEvent;
    print(event('text_delta', { delta: 'partial' }, 1));
    print(event('events_dropped', { dropped: 1234, dropped_chars: 9000 }, 2));
    expect(text).toBe('partial\n(1234 live output events left out: the display fell behind; the log has them all)\n');
  });
});
