/**
 * Per-tool admission queue: at most `maxParallelism` calls of one tool run at once; the rest
 * wait in FIFO order. A waiting call whose signal aborts leaves the queue at once (cancellation
 * reaches queued calls).
 */
import { CancelledError } from '../errors/tool-errors.js';
import { abortSignalOf, type ParentSignal } from './call-signal.js';
import { watchAbort } from './link-signals.js';

interface Waiter {
  readonly limit: number;
  readonly resolve: () => void;
}

interface Lane {
  running: number;
  readonly waiting: Waiter[];
}

/** Releases one slot; idempotent. */
export type QueueRelease = () => void;

/** Slots per tool name. */
export class ToolQueue {
  readonly #lanes = new Map<string, Lane>();

  /** Calls of `name` running now. */
  running(name: string): number {
    return this.#lanes.get(name)?.running ?? 0;
  }

  /** Calls of `name` waiting now. */
  waiting(name: string): number {
    return this.#lanes.get(name)?.waiting.length ?? 0;
  }

  /**
   * Takes a slot of `name` (limit `maxParallelism` of this call). Resolves at once when a slot is
   * free; otherwise waits. Rejects with `CANCELLED` if `signal` aborts while waiting.
   */
  acquire(
    name: string,
    maxParallelism: number,
    parent: ParentSignal,
    onQueued?: () => void,
  ): QueueRelease | Promise<QueueRelease> {
    let lane = this.#lanes.get(name);
    if (lane === undefined) {
      lane = { running: 0, waiting: [] };
      this.#lanes.set(name, lane);
    }
    const l = lane;
    if (l.running < maxParallelism && l.waiting.length === 0) {
      l.running += 1;
      return this.#release(name, l);
    }
    onQueued?.();
    const signal = abortSignalOf(parent);
    return new Promise<QueueRelease>((resolve, reject) => {
      const onAbort = (): void => {
        const i = l.waiting.indexOf(waiter);
        if (i >= 0) l.waiting.splice(i, 1);
        reject(new CancelledError(`queued call of '${name}'`, signal.reason));
        this.#drain(name, l);
      };
      if (signal.aborted) {
        reject(new CancelledError(`queued call of '${name}'`, signal.reason));
        return;
      }
      const unwatch = watchAbort(signal, onAbort);
      const waiter: Waiter = {
        limit: maxParallelism,
        resolve: () => {
          unwatch();
          resolve(this.#release(name, l));
        },
      };
      l.waiting.push(waiter);
    });
  }

  #release(name: string, lane: Lane): QueueRelease {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      lane.running -= 1;
      this.#drain(name, lane);
    };
  }

  #drain(name: string, lane: Lane): void {
    for (;;) {
      const next = lane.waiting[0];
      if (next === undefined || lane.running >= next.limit) break;
      lane.waiting.shift();
      lane.running += 1;
      next.resolve();
    }
    if (lane.running === 0 && lane.waiting.length === 0) this.#lanes.delete(name);
  }
}
