/**
 * Program workers: where the worker script is, how one is started, and a small pool of idle ones
 * so a program does not pay for a thread and the QuickJS module on every call. A worker goes back
 * to the pool only after its program ended on its own; one that was terminated is never reused.
 * Idle workers are `unref`'d and do not keep the process alive.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, type ResourceLimits, Worker, type WorkerOptions } from 'node:worker_threads';
import { PROGRAM_LIMITS } from './program-args.js';
import { workerFromSource } from './worker-from-source.js';
import type { ProgramWorkerData } from './worker-protocol.js';

/**
 * Limits of each worker's V8 heap. The QuickJS heap lives in WebAssembly memory, outside this heap,
 * and is bounded near the program's `memory_limit_bytes` by that memory's own maximum
 * (`quickjs-module.ts`); this bounds the worker's own JavaScript (the glue, result copies).
 */
export const PROGRAM_WORKER_RESOURCE_LIMITS: ResourceLimits = {
  maxOldGenerationSizeMb: 128,
  maxYoungGenerationSizeMb: 32,
  stackSizeMb: 4,
};

/** Idle workers kept for reuse. */
const MAX_IDLE = 4;

/**
 * A pooled worker's channel (see `ProgramWorkerData.wake`): the host posts `ctx` replies on
 * `replies` and counts them in `wake[0]`; the worker posts everything it says on `messages` and
 * counts it in `wake[1]`, so the host can take a message the moment it is posted.
 */
export interface WorkerChannel {
  readonly wake: Int32Array;
  readonly replies: MessagePort;
  readonly messages: MessagePort;
  /**
   * Gets each message that arrives on `messages` (its one listener, added once, hands them on):
   * set by the program using the worker, which also `ref`s the port while it runs.
   */
  onMessage: ((m: unknown) => void) | undefined;
}

const channels = new WeakMap<Worker, WorkerChannel>();

/** Programs running in this process's workers (see `ProgramWorkerData.active`). */
const active = new Int32Array(new SharedArrayBuffer(4));

/** Programs running now. */
export function runningPrograms(): number {
  return Atomics.load(active, 0);
}

/** Counts a program as running (`+1`) or ended (`-1`). */
export function countRunningProgram(delta: 1 | -1): void {
  Atomics.add(active, 0, delta);
}

/** The channel of a worker from {@link acquireProgramWorker} (every one has its own). */
export function channelOf(w: Worker): WorkerChannel {
  const channel = channels.get(w);
  if (channel === undefined) throw new Error('program: a worker not from the pool has no channel');
  return channel;
}

function spawner(): () => Worker {
  const base = {
    memoryLimitBytes: PROGRAM_LIMITS.memoryLimitBytes.default,
    maxStackBytes: PROGRAM_LIMITS.maxStackBytes,
  };
  const make = (create: (options: WorkerOptions) => Worker) => (): Worker => {
    const wake = new SharedArrayBuffer(8);
    const replies = new MessageChannel();
    const messages = new MessageChannel();
    const workerData: ProgramWorkerData = {
      ...base,
      wake,
      replies: replies.port2,
      messages: messages.port2,
      active: active.buffer as SharedArrayBuffer,
    };
    const w = create({
      resourceLimits: PROGRAM_WORKER_RESOURCE_LIMITS,
      workerData,
      transferList: [replies.port2, messages.port2],
    });
    const channel: WorkerChannel = {
      wake: new Int32Array(wake),
      replies: replies.port1,
      messages: messages.port1,
      onMessage: undefined,
    };
    messages.port1.on('message', (m: unknown) => channel.onMessage?.(m));
    replies.port1.unref();
    messages.port1.unref();
    channels.set(w, channel);
    w.once('exit', () => {
      replies.port1.close();
      messages.port1.close();
    });
    return w;
  };
  // Built package: tsup emits `program-worker.js` beside the bundle that contains this module.
  const built = new URL('./program-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return make((options) => new Worker(built, options));
  // Sources (tests under vitest, `tsx`): the worker's sources, bundled or through tsx's loader.
  const source = new URL('./program-worker.ts', import.meta.url);
  if (existsSync(fileURLToPath(source))) {
    const code = workerFromSource(source);
    return 'url' in code
      ? make((options) => new Worker(code.url, options))
      : make((options) => new Worker(code.eval, { ...options, eval: true }));
  }
  throw new Error(`program: the worker script is missing beside ${import.meta.url}`);
}

let spawn: (() => Worker) | undefined;
const idle: Worker[] = [];

function start(): Worker {
  spawn ??= spawner();
  const w = spawn();
  // A worker that dies while idle leaves the pool; its errors are handled by the run using it.
  w.on('error', () => undefined);
  w.once('exit', () => {
    const i = idle.indexOf(w);
    if (i >= 0) idle.splice(i, 1);
  });
  return w;
}

/** A worker for one program: an idle one if there is one, else a new one. */
export function acquireProgramWorker(): Worker {
  const w = idle.pop() ?? start();
  w.ref();
  return w;
}

/** The limits each pooled worker's spare VM is made for (those of the program it ran last). */
const readyFor = new WeakMap<Worker, string>();

/** True when `w` ran a program with these limits, so it has a VM ready for the next one. */
export function isReadyFor(w: Worker, memoryLimitBytes: number, maxStackBytes: number): boolean {
  return readyFor.get(w) === `${memoryLimitBytes}:${maxStackBytes}`;
}

/**
 * Returns a worker whose program ended on its own to the pool (or ends it if the pool is full);
 * the limits are those of that program, which the worker makes its next VM for.
 */
export function releaseProgramWorker(w: Worker, memoryLimitBytes?: number, maxStackBytes?: number): void {
  if (idle.length >= MAX_IDLE) {
    void w.terminate();
    return;
  }
  if (memoryLimitBytes !== undefined && maxStackBytes !== undefined)
    readyFor.set(w, `${memoryLimitBytes}:${maxStackBytes}`);
  w.unref();
  idle.push(w);
}

/**
 * Ends a worker at once (deadline, cancellation, violation, failure); it is never reused. When the
 * pool is empty a spare is started in the background, so the next program does not wait for a cold start.
 */
export function discardProgramWorker(w: Worker): void {
  void w.terminate();
  if (idle.length === 0) releaseProgramWorker(start());
}
