// The floor under a `ctx.tool` call: one bare round trip between a worker thread and the host,
// done the way the program worker does it (the worker posts a request on its message port and
// counts it, then checks for the reply for up to 0.2 ms before blocking on `Atomics.wait`; the
// host answers on a reply port, notifies, and takes the worker's next message at once if it comes
// within a moment), with no QuickJS, no JSON and no governance. Measured in the same run as
// `ctx.tool`, it shows how much of a call is the thread hop itself.
import { MessageChannel, Worker } from 'node:worker_threads';
import { nextMessageSoon } from '../packages/core/src/program/next-message.js';
import type { WorkerChannel } from '../packages/core/src/program/worker-pool.js';

const WORKER = `
const { parentPort, workerData, receiveMessageOnPort } = require('node:worker_threads');
const wake = new Int32Array(workerData.wake);
const out = workerData.messages;
parentPort.on('message', (n) => {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const seen = Atomics.load(wake, 0);
    out.postMessage({ type: 'call', id: i, op: 'tool', payload: '{"name":"noop","args":{}}' });
    Atomics.add(wake, 1, 1);
    const until = performance.now() + 0.2;
    while (Atomics.load(wake, 0) === seen && performance.now() < until) {}
    for (;;) {
      if (receiveMessageOnPort(workerData.replies) !== undefined) break;
      Atomics.wait(wake, 0, seen, 1000);
    }
  }
  parentPort.postMessage({ type: 'done', ms: performance.now() - t0 });
});`;

/** A worker that does `n` bare round trips on request; `roundTripMs(n)` returns milliseconds per trip. */
export async function threadFloor(): Promise<{
  roundTripMs: (n: number) => Promise<number>;
  close: () => Promise<void>;
}> {
  const wake = new SharedArrayBuffer(8);
  const replies = new MessageChannel();
  const messages = new MessageChannel();
  const channel: WorkerChannel = {
    wake: new Int32Array(wake),
    replies: replies.port1,
    messages: messages.port1,
    onMessage: undefined,
  };
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { wake, replies: replies.port2, messages: messages.port2 },
    transferList: [replies.port2, messages.port2],
  });
  let done: ((ms: number) => void) | undefined;
  worker.on('message', (m: { ms: number }) => done?.(m.ms));
  const onCall = (m: { id: number }): void => {
    void Promise.resolve().then(() => {
      replies.port1.postMessage({ type: 'reply', id: m.id, ok: true, json: '{}' });
      Atomics.add(channel.wake, 0, 1);
      Atomics.notify(channel.wake, 0);
      const next = nextMessageSoon(channel, 1);
      if (next !== undefined) onCall(next as { id: number });
    });
  };
  messages.port1.on('message', onCall);
  return {
    roundTripMs: (n) =>
      new Promise<number>((resolve) => {
        done = (ms) => resolve(ms / n);
        worker.postMessage(n);
      }),
    close: async () => {
      replies.port1.close();
      messages.port1.close();
      await worker.terminate();
    },
  };
}
