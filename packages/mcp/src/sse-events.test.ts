import { describe, expect, it } from 'vitest';
import { SseEventCutter } from './sse-events.js';
import type { OversizedLine } from './stdio-lines.js';
import { idOfOversized } from './stdio-lines.js';

function cut(max: number, chunks: readonly string[]): { events: string[]; over: OversizedLine[] } {
  const events: string[] = [];
  const over: OversizedLine[] = [];
  const cutter = new SseEventCutter(
    max,
    (e) => events.push(new TextDecoder().decode(e)),
    (e) => over.push(e),
  );
  for (const c of chunks) cutter.push(new TextEncoder().encode(c));
  return { events, over };
}

describe('SseEventCutter', () => {
  it('passes whole events on, whatever the line endings and chunk borders', () => {
    const { events, over } = cut(100, ['data: a\n', '\ndata: b\r\n\r', '\ndata: c\r\rdata: d\n\ndata: unfinished']);
    expect(events).toEqual(['data: a\n\n', 'data: b\r\n\r', '\ndata: c\r\r', 'data: d\n\n']);
    expect(over).toEqual([]);
  });

  it('skips an event over the limit, keeping its ends, and goes on with the next', () => {
    const big = `event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{"t":"${'x'.repeat(5000)}"}}\n\n`;
    const { events, over } = cut(1024, ['data: before\n\n', big.slice(0, 3000), big.slice(3000), 'data: after\n\n']);
    expect(events).toEqual(['data: before\n\n', 'data: after\n\n']);
    expect(over).toHaveLength(1);
    expect(over[0]!.bytes).toBe(big.length);
    expect(over[0]!.head.startsWith('{"jsonrpc":"2.0","id":7,')).toBe(true);
    expect(idOfOversized(over[0]!)).toBe(7);
  });
});
