import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  chunksToSse,
  HAS_SHARED_FIXTURES,
  localFixture,
  SHARED_FIXTURES,
  SHARED_SKIP_NOTE,
  sharedFixture,
} from './test-support/fixtures.js';
import { readSseEvents, SseParser, type SseEvent } from './sse-parser.js';

function parseWhole(bytes: Buffer): SseEvent[] {
  const p = new SseParser();
  return [...p.push(new TextDecoder().decode(bytes)), ...p.end()];
}

async function parseSplit(bytes: Buffer, offsets: number[]): Promise<SseEvent[]> {
  async function* pieces() {
    let from = 0;
    for (const o of [...offsets, bytes.length]) {
      yield bytes.subarray(from, o);
      from = o;
    }
  }
  const out: SseEvent[] = [];
  for await (const ev of readSseEvents(pieces())) out.push(ev);
  return out;
}

describe('SseParser', () => {
  it('an event of 400,000 one-character data lines, two lines a chunk, is read in linear time', async () => {
    // A hostile server's cheap attack: the parser summed every pending data line on every chunk,
    // so this 3 MB body took minutes of CPU; now it is a fraction of a second.
    const lines = 400_000;
    async function* body() {
      const piece = new TextEncoder().encode('data: a\n'.repeat(2));
      for (let i = 0; i < lines / 2; i++) yield piece;
      yield new TextEncoder().encode('\n');
    }
    const started = Date.now();
    const events: SseEvent[] = [];
    for await (const ev of readSseEvents(body())) events.push(ev);
    expect(events).toHaveLength(1);
    expect(events[0]!.data.length).toBe(lines * 2 - 1);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('dispatches data lines, joins multi-line data, ignores comments, id and retry', () => {
    const p = new SseParser();
    const evs = p.push(': comment\nid: 1\nretry: 10\nevent: x\ndata: a\ndata:  b\n\ndata:c\n\n');
    expect(evs).toEqual([
      { event: 'x', data: 'a\n b' },
      { event: undefined, data: 'c' },
    ]);
  });

  it('handles CRLF and lone CR line endings, including a CR at the end of a piece', () => {
    const p = new SseParser();
    const evs = [...p.push('data: one\r'), ...p.push('\n\r\ndata: two\r\r'), ...p.end()];
    expect(evs).toEqual([
      { event: undefined, data: 'one' },
      { event: undefined, data: 'two' },
    ]);
  });

  it('at end of input dispatches a last event with complete lines but no blank line, and drops a line cut short', () => {
    const p = new SseParser();
    expect([...p.push('data: [DONE]\n'), ...p.end()]).toEqual([{ event: undefined, data: '[DONE]' }]);
    const q = new SseParser();
    expect([...q.push('data: {"a":1}\n\ndata: {"b":'), ...q.end()]).toEqual([{ event: undefined, data: '{"a":1}' }]);
  });

  it('reassembles a multi-byte UTF-8 character split across network chunks', async () => {
    const bytes = Buffer.from('data: {"t":"Olá 你好"}\n\n', 'utf8');
    const whole = parseWhole(bytes);
    for (let i = 1; i < bytes.length; i++) expect(await parseSplit(bytes, [i])).toEqual(whole);
  });

  it('gives the same events for a local fixture split at every byte offset', async () => {
    const bytes = localFixture('anthropic-stream-midstream-error.sse');
    const whole = parseWhole(bytes);
    expect(whole.at(-1)?.event).toBe('error');
    for (let i = 1; i < bytes.length; i++) expect(await parseSplit(bytes, [i])).toEqual(whole);
  });
});

describe.skipIf(!HAS_SHARED_FIXTURES)(
  `SseParser on recorded streams (${HAS_SHARED_FIXTURES ? 'shared recordings present' : SHARED_SKIP_NOTE})`,
  () => {
    const files = HAS_SHARED_FIXTURES
      ? ['openai', 'openai-compatible', 'anthropic'].flatMap((dir) =>
          readdirSync(path.join(SHARED_FIXTURES, dir))
            .filter((f) => f.endsWith('.sse') || f.endsWith('.chunks.txt'))
            .map((f) => `${dir}/${f}`),
        )
      : [];

    it.each(files)('%s: every event is JSON or [DONE], identical under splits at every offset', async (file) => {
      const raw = sharedFixture(file);
      const bytes = file.endsWith('.chunks.txt') ? Buffer.from(chunksToSse(raw.toString('utf8'))) : raw;
      const whole = parseWhole(bytes);
      expect(whole.length).toBeGreaterThan(3);
      for (const ev of whole) if (ev.data !== '[DONE]') expect(() => JSON.parse(ev.data)).not.toThrow();
      const step = Math.max(1, Math.floor(bytes.length / 400));
      for (let i = 1; i < bytes.length; i += step) expect(await parseSplit(bytes, [i])).toEqual(whole);
      expect(
        await parseSplit(
          bytes,
          Array.from({ length: Math.floor(bytes.length / 3) }, (_, k) => (k + 1) * 3),
        ),
      ).toEqual(whole);
    });
  },
);
