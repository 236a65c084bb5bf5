// The floor under a `ctx.tool` call: one bare round trip between a worker thread and the host,
// done the way the program worker does it (the worker posts a request on its parent port and
// blocks on `Atomics.wait`; the host answers on a reply port and notifies), with no QuickJS, no
// JSON and no governance. Measured in the same run as `ctx.tool`, it shows how much of a call is
// the thread hop itself.
import { MessageChannel, Worker } from 'node:worker_threads';

const WORKER = `
const { parentPort, workerData, receiveMessageOnPort } = require('node:worker_threads');
const wake = new Int32Array(workerData.wake);
parentPort.on('message', (n) => {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const seen = Atomics.load(wake, 0);
    parentPort.postMessage({ type: 'call', id: i, op: 'tool', payload: '{"name":"noop","args":{}}' });
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
  const wake = new SharedArrayBuffer(4);
  const counter = new Int32Array(wake);
  const channel = new MessageChannel();
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { wake, replies: channel.port2 },
    transferList: [channel.port2],
  });
  let done: ((ms: number) => void) | undefined;
  worker.on('message', (m: { type: string; id?: number; ms?: number }) => {
    if (m.type === 'done') done?.(m.ms ?? 0);
    else
      void Promise.resolve().then(() => {
        channel.port1.postMessage({ type: 'reply', id: m.id, ok: true, json: '{}' });
        Atomics.add(counter, 0, 1);
        Atomics.notify(counter, 0);
      });
  });
  return {
    roundTripMs: (n) =>
      new Promise<number>((resolve) => {
        done = (ms) => resolve(ms / n);
        worker.postMessage(n);
      }),
    close: async () => {
      channel.port1.close();
      await worker.terminate();
    },
  };
}
