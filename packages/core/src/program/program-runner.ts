/**
 * Runs a program in a worker thread: the host's event loop is never blocked by the
 * script. The host answers the worker's `ctx` calls through its {@link ProgramHost} (the governed
 * bridge), and ends the worker with `terminate()` the moment the deadline passes, the call is
 * cancelled or a limit is violated, so none of them waits for the script to reach a `ctx` call.
 */
import { ProgramMemoryLimitError, ProgramTimeoutError } from './program-errors.js';
import type { RunScriptOptions, ScriptOutcome } from './program-vm.js';
import {
  acquireProgramWorker,
  countRunningProgram,
  discardProgramWorker,
  channelOf,
  isReadyFor,
  releaseProgramWorker,
  runningPrograms,
} from './worker-pool.js';
import { nextMessageSoon } from './next-message.js';
import {
  fromWireError,
  toWireError,
  type WorkerMessage,
  type WorkerReply,
  type WorkerRunRequest,
} from './worker-protocol.js';

/** How long a worker may take to start (spawn and load QuickJS) before the call fails. */
const WORKER_START_MS = 30_000;

/** Added to the deadline the host starts itself for a worker with a VM ready (see `start`). */
const READY_SLACK_MS = 5;

/** Runs `o.source` in a program worker and returns its result, or throws a typed error. */
export function runProgramInWorker(o: RunScriptOptions): Promise<ScriptOutcome> {
  if (o.signal.aborted) return Promise.reject(o.signal.reason);
  const clock = o.clock ?? Date.now;
  const worker = acquireProgramWorker();
  const channel = channelOf(worker);
  return new Promise<ScriptOutcome>((resolve, reject) => {
    let finished = false;
    let deadline = Number.POSITIVE_INFINITY;
    // Until the worker has started (a cold one loads the QuickJS module first), only this bounds the wait.
    let timer: NodeJS.Timeout | undefined = setTimeout(
      () => kill(new Error(`program: the worker did not start within ${WORKER_START_MS} ms`)),
      WORKER_START_MS,
    );
    const timeout = (): ProgramTimeoutError => new ProgramTimeoutError(o.timeoutMs, o.host.toolCalls());
    // Why the program must stop now, in order of precedence: cancellation, a limit violation.
    const stopped = (): { reason: unknown } | undefined => {
      if (o.signal.aborted) return { reason: o.signal.reason };
      const v = o.host.violation();
      return v === undefined ? undefined : { reason: v };
    };
    const finish = (reuse: boolean, settle: () => void): void => {
      if (finished) return;
      finished = true;
      countRunningProgram(-1);
      clearTimeout(timer);
      o.signal.removeEventListener('abort', onAbort);
      channel.onMessage = undefined;
      channel.messages.unref();
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (reuse) releaseProgramWorker(worker, o.memoryLimitBytes, o.maxStackBytes);
      else discardProgramWorker(worker);
      settle();
    };
    const kill = (reason: unknown): void => finish(false, () => reject(reason));
    const reply = (m: WorkerReply): void => {
      if (finished) return;
      channel.replies.postMessage(m);
      Atomics.add(channel.wake, 0, 1);
      Atomics.notify(channel.wake, 0);
      // The script usually calls again at once: take its next message without a trip round the event loop.
      const next = nextMessageSoon(channel, runningPrograms());
      if (next !== undefined) onMessage(next as WorkerMessage);
    };
    const onAbort = (): void => kill(o.signal.reason);
    const arm = (): void => {
      const left = deadline - clock();
      if (left <= 0) kill(stopped()?.reason ?? timeout());
      else timer = setTimeout(arm, left);
    };
    // The deadline counts from the start of the script, as it did on the host thread: start-up is not the script's time.
    const start = (slackMs = 0): void => {
      clearTimeout(timer);
      deadline = clock() + o.timeoutMs + slackMs;
      arm();
    };
    const onCall = (id: number, op: string, payload: string): void => {
      o.host.call(op, payload).then(
        (json) => reply({ type: 'reply', id, ok: true, json }),
        (e: unknown) => {
          const s = stopped();
          if (s !== undefined) kill(s.reason);
          else reply({ type: 'reply', id, ok: false, error: toWireError(e) });
        },
      );
    };
    const onMessage = (m: WorkerMessage): void => {
      if (finished) return;
      if (m.type === 'started') start();
      else if (m.type === 'log') o.host.log(m.text);
      else if (m.type === 'call') onCall(m.id, m.op, m.payload);
      else if (m.type === 'done') {
        if (m.droppedLogBytes !== undefined && m.droppedLogBytes > 0) o.host.logDropped?.(m.droppedLogBytes);
        const s = stopped();
        finish(s === undefined, () => (s === undefined ? resolve(m.outcome) : reject(s.reason)));
      } else {
        const s = stopped();
        const error = fromWireError(m.error);
        const isTimeout = (error as { code?: unknown }).code === 'PROGRAM_TIMEOUT';
        // Only a script that failed on its own (a typed program error) leaves a worker fit for reuse;
        // one that ran out of memory is ended, so its memory goes back to the system at once.
        const reuse = s === undefined && m.error.kind === 'program' && m.error.code !== 'PROGRAM_MEMORY_LIMIT';
        finish(reuse, () => reject(s?.reason ?? (isTimeout ? timeout() : error)));
      }
    };
    const onError = (e: Error): void => {
      const oom = (e as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      kill(stopped()?.reason ?? (oom ? new ProgramMemoryLimitError(o.memoryLimitBytes) : e));
    };
    const onExit = (code: number): void =>
      kill(stopped()?.reason ?? new Error(`program: the worker exited unexpectedly (code ${code})`));

    // What the worker says arrives on its channel's message port.
    channel.onMessage = onMessage as (m: unknown) => void;
    channel.messages.ref();
    worker.on('error', onError);
    worker.on('exit', onExit);
    o.signal.addEventListener('abort', onAbort, { once: true });
    // A worker whose spare VM was made for these limits starts the script at once: no 'started' message.
    const ready = isReadyFor(worker, o.memoryLimitBytes, o.maxStackBytes);
    countRunningProgram(1);
    const run: WorkerRunRequest = {
      type: 'run',
      announce: !ready,
      source: o.source,
      file: o.file,
      module: o.module,
      inputsJson: o.inputsJson,
      timeoutMs: o.timeoutMs,
      remainingMs: o.timeoutMs,
      memoryLimitBytes: o.memoryLimitBytes,
      maxStackBytes: o.maxStackBytes,
      maxResultChars: o.maxResultChars,
      ...(o.maxLogBytes === undefined ? {} : { maxLogBytes: o.maxLogBytes }),
    };
    worker.postMessage(run);
    // Counted from the send, a moment before the worker starts the script; the slack lets the VM's
    // own deadline stop a busy script first, as it does after 'started', so the worker stays reusable.
    if (ready) start(READY_SLACK_MS);
  });
}
