// ServeOutput on a real stream whose reader is held back: a write refused by the stream stops the
// reading of requests until 'drain'; events past the bound are dropped and counted, announced once
// before the run's next event or its run/result; responses and run/result always go out.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ServeOutput } from '../src/serve/output.js';

/** A writable whose chunks are held until `release()`: what a pipe nobody reads looks like. */
function heldStream(highWaterMark: number) {
  const written: string[] = [];
  const held: (() => void)[] = [];
  const out = new Writable({
    highWaterMark,
    decodeStrings: false,
    write(chunk: string, _enc, done) {
      written.push(chunk);
      held.push(done);
    },
  });
  const release = async (): Promise<void> => {
    while (held.length > 0) {
      held.shift()!();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { out, written, release };
}

const parse = (lines: string[]) =>
  lines.map((l) => JSON.parse(l) as { id?: number; method?: string; params?: unknown });

describe('ServeOutput', () => {
  it('a refused write stops request reading until drain; events past the bound are counted in one notice; responses and run/result are never dropped', async () => {
    const { out, written, release } = heldStream(64);
    const calls: string[] = [];
    const output = new ServeOutput(out, 'ndjson', {
      maxQueuedEventBytes: 200,
      onBlocked: () => calls.push('blocked'),
      onDrained: () => calls.push('drained'),
    });
    const event = (seq: number) =>
      output.event('s', 'r', seq, () => JSON.stringify({ metadata: { sequence: seq }, pad: 'x'.repeat(40) }));
    output.message(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { pad: 'z'.repeat(80) } }));
    expect(calls).toEqual(['blocked']);
    expect(output.blocked).toBe(true);
    for (let seq = 1; seq <= 10; seq++) event(seq);
    // A response while blocked still goes out (queued), as does the run/result.
    output.message(JSON.stringify({ jsonrpc: '2.0', id: 2, result: {} }));
    output.settled('s', 'r', JSON.stringify({ sessionId: 's', runId: 'r', status: 'completed' }));
    expect(calls).toEqual(['blocked']);
    await release();
    expect(calls).toEqual(['blocked', 'drained']);
    const messages = parse(written);
    const sent = messages
      .filter((m) => m.method === 'event')
      .map((m) => (m.params as { metadata: { sequence: number } }).metadata.sequence);
    const notice = messages.find((m) => m.method === 'run/eventsDropped')!.params as {
      dropped: number;
      firstSequence: number;
      lastSequence: number;
    };
    expect(sent.length).toBeGreaterThan(0);
    expect(notice).toMatchObject({ sessionId: 's', runId: 'r', lastSequence: 10 });
    expect(notice.firstSequence).toBe(sent.at(-1)! + 1);
    expect(sent.length + notice.dropped).toBe(10);
    // Order: the notice, then the run/result, last; both responses are there.
    expect(messages.slice(-2).map((m) => m.method)).toEqual(['run/eventsDropped', 'run/result']);
    expect(messages.filter((m) => m.id !== undefined).map((m) => m.id)).toEqual([1, 2]);
  });

  it('once drained, the next event of the run is preceded by its notice and sent', async () => {
    const { out, written, release } = heldStream(16);
    const output = new ServeOutput(out, 'ndjson', { maxQueuedEventBytes: 50 });
    const event = (seq: number) => output.event('s', 'r', seq, () => JSON.stringify({ seq, pad: 'y'.repeat(60) }));
    event(1);
    event(2);
    event(3);
    await release();
    event(4);
    await release();
    expect(parse(written).map((m) => m.method)).toEqual(['event', 'run/eventsDropped', 'event']);
    expect(parse(written)[1]!.params).toEqual({
      sessionId: 's',
      runId: 'r',
      dropped: 2,
      firstSequence: 2,
      lastSequence: 3,
    });
  });

  it('a dropped event that carries merged deltas counts every event it stood for, up to its last sequence', async () => {
    const { out, written, release } = heldStream(16);
    const output = new ServeOutput(out, 'ndjson', { maxQueuedEventBytes: 50 });
    const pad = 'y'.repeat(60);
    output.event('s', 'r', 1, () => JSON.stringify({ seq: 1, pad }));
    // Sequences 2..6 merged into one envelope, then 7 on its own: both dropped.
    output.event('s', 'r', 2, () => JSON.stringify({ seq: 2, pad }), { count: 5, lastSequence: 6 });
    output.event('s', 'r', 7, () => JSON.stringify({ seq: 7, pad }));
    await release();
    output.event('s', 'r', 8, () => JSON.stringify({ seq: 8, pad }));
    await release();
    expect(parse(written)[1]!.params).toEqual({
      sessionId: 's',
      runId: 'r',
      dropped: 6,
      firstSequence: 2,
      lastSequence: 7,
    });
  });
});
