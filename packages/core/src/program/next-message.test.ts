import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { nextMessageSoon } from './next-message.js';
import type { WorkerChannel } from './worker-pool.js';

const multiCpu = availableParallelism() >= 2;
const open: MessageChannel[] = [];

/** A channel as a worker's, whose "worker" side is this test: `post` sends and counts a message. */
function channel(): { channel: WorkerChannel; post: (m: unknown) => void } {
  const replies = new MessageChannel();
  const messages = new MessageChannel();
  open.push(replies, messages);
  const wake = new Int32Array(new SharedArrayBuffer(8));
  return {
    channel: { wake, replies: replies.port1, messages: messages.port1, onMessage: undefined },
    post: (m) => {
      messages.port2.postMessage(m);
      Atomics.add(wake, 1, 1);
    },
  };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  for (const c of open.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

describe.skipIf(!multiCpu)('the host taking a worker message at once', () => {
  it('takes a message the worker has posted, in order, and gives undefined after a short wait for none', async () => {
    await turn();
    const { channel: c, post } = channel();
    post({ n: 1 });
    post({ n: 2 });
    expect(nextMessageSoon(c, 1)).toEqual({ n: 1 });
    // Each take after the event loop turned: a loaded machine may pause longer than the cap between two lines.
    await turn();
    expect(nextMessageSoon(c, 1)).toEqual({ n: 2 });
    await turn();
    const t0 = performance.now();
    expect(nextMessageSoon(c, 1)).toBeUndefined();
    expect(performance.now() - t0).toBeLessThan(50);
  });

  it('does not wait while other programs run: their messages need the event loop', async () => {
    await turn();
    const { channel: c, post } = channel();
    post({ n: 1 });
    expect(nextMessageSoon(c, 2)).toBeUndefined();
    expect(nextMessageSoon(c, 0)).toBeUndefined();
    expect(nextMessageSoon(c, 1)).toEqual({ n: 1 });
  });

  it('stops taking messages once the event loop has not turned for a millisecond, and starts again after it turns', async () => {
    await turn();
    const { channel: c, post } = channel();
    post({ n: 1 });
    expect(nextMessageSoon(c, 1)).toEqual({ n: 1 });
    const until = performance.now() + 3;
    while (performance.now() < until) {
      // Holding the thread, as a long run of quick calls would.
    }
    post({ n: 2 });
    expect(nextMessageSoon(c, 1)).toBeUndefined();
    await turn();
    expect(nextMessageSoon(c, 1)).toEqual({ n: 2 });
  });
});

describe.skipIf(!multiCpu)('the host taking a worker message at once, for a script that computes between calls', () => {
  it('after four checks in a row find nothing it skips the next 32 replies, then checks again', async () => {
    const { channel: c, post } = channel();
    for (let i = 0; i < 4; i++) {
      await turn();
      expect(nextMessageSoon(c, 1)).toBeUndefined();
    }
    // A message is there, but the host does not look: it arrives on the port's listener instead.
    post({ n: 1 });
    for (let i = 0; i < 32; i++) {
      await turn();
      expect(nextMessageSoon(c, 1)).toBeUndefined();
    }
    await turn();
    expect(nextMessageSoon(c, 1)).toEqual({ n: 1 });
    // A find resets the count: the next miss is the first of four again.
    await turn();
    expect(nextMessageSoon(c, 1)).toBeUndefined();
    post({ n: 2 });
    await turn();
    expect(nextMessageSoon(c, 1)).toEqual({ n: 2 });
  });
});

describe.skipIf(multiCpu)('the host taking a worker message at once, on one CPU', () => {
  it('never waits: the worker needs the only CPU', () => {
    const { channel: c, post } = channel();
    post({ n: 1 });
    expect(nextMessageSoon(c, 1)).toBeUndefined();
  });
});
