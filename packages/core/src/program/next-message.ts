/**
 * The host's side of a quick `ctx` exchange. A program that calls tools in a loop posts its next
 * call a few tens of microseconds after it gets a reply; a host thread that went back to its event
 * loop in between is woken from its sleep later than that (about 25 µs of a bare round trip of
 * 33 µs, measured). So after posting a reply the host checks, briefly, for the worker's next
 * message and takes it at once. It never holds its event loop long: it checks only while a single
 * program runs and the machine has a CPU for each side, for at most {@link CHECK_MS} a reply, and
 * stops checking once it has gone {@link TURN_MS} without letting its event loop turn. A script that
 * computes between its calls would make every check wait in vain: after {@link MISSES} checks in a
 * row found nothing, the host skips the next {@link SKIPS} replies' checks before it tries again.
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { receiveMessageOnPort } from 'node:worker_threads';
import type { WorkerChannel } from './worker-pool.js';

/** How long the host checks for the worker's next message after a reply. */
const CHECK_MS = 0.1;
/** How long the host may take messages this way before its event loop must turn again. */
const TURN_MS = 1;

/** Checks in a row that found nothing before the host stops checking for a while. */
const MISSES = 4;
/** Replies whose checks are skipped then. */
const SKIPS = 32;

const CPUS = availableParallelism();

/** Per channel: checks in a row that found nothing, counting on through the skipped ones. */
const missed = new WeakMap<WorkerChannel, number>();

/** When the host began taking messages without its event loop turning; -1 once it has turned. */
let since = -1;
const turned = (): void => {
  since = -1;
};

/**
 * The message the worker of `channel` posts within a moment, taken off its port, or `undefined`
 * (none came in time, or the host must not wait now: the message then arrives on the port's listener).
 * @param programs how many programs are running in this process now.
 */
export function nextMessageSoon(channel: WorkerChannel, programs: number): unknown {
  if (programs !== 1 || CPUS < 2) return undefined;
  const misses = missed.get(channel) ?? 0;
  if (misses >= MISSES) {
    missed.set(channel, misses + 1 >= MISSES + SKIPS ? 0 : misses + 1);
    return undefined;
  }
  const now = performance.now();
  if (since < 0) {
    since = now;
    setImmediate(turned);
  } else if (now - since > TURN_MS) return undefined;
  const posted = Atomics.load(channel.wake, 1);
  const waiting = receiveMessageOnPort(channel.messages);
  if (waiting !== undefined) return took(channel, waiting.message);
  const until = now + CHECK_MS;
  do {
    for (let i = 0; i < 32; i++) {
      if (Atomics.load(channel.wake, 1) !== posted)
        return took(channel, receiveMessageOnPort(channel.messages)?.message);
    }
  } while (performance.now() < until);
  missed.set(channel, misses + 1);
  return undefined;
}

/** Records that a check on `channel` found `message` (or, oddly, nothing after all). */
function took(channel: WorkerChannel, message: unknown): unknown {
  missed.set(channel, 0);
  return message;
}
