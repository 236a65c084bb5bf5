/**
 * The program worker (`node:worker_threads` entry): runs one script at a time in its own QuickJS
 * runtime, so a busy script never blocks the host's event loop. It has no capabilities of its own:
 * every `ctx` call is posted to the host, which runs it through the caller's scoped invoker and
 * answers. The host enforces the deadline, cancellation and limit violations by terminating this
 * worker; the VM's own interrupt handler still stops at the deadline so a timed-out worker can be
 * reused when it gets there first.
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { type MessagePort, parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { preloadQuickJs } from './quickjs-module.js';
import { runProgramScript, type ProgramHost } from './program-vm.js';
import { prepareSpareVm } from './vm-spare.js';
import {
  fromWireError,
  toWireError,
  type HostMessage,
  type ProgramWorkerData,
  type WorkerMessage,
  type WorkerReply,
  type WorkerRunRequest,
} from './worker-protocol.js';

const port = parentPort;
if (port === null) throw new Error('program-worker: must run in a worker thread');

// Load QuickJS while the worker waits for its first program (the host counts the deadline from `started`).
const data = workerData as ProgramWorkerData;
preloadQuickJs(data.memoryLimitBytes)
  .then(() => {
    if (data.maxStackBytes !== undefined) return prepareSpareVm(data.memoryLimitBytes, data.maxStackBytes);
  })
  .catch(() => undefined);

const wake = new Int32Array(data.wake);
const replies = data.replies;
const out = data.messages;
const pending = new Map<number, { resolve: (json: string) => void; reject: (e: Error) => void }>();
let nextId = 0;
let calls = 0;
/** The running program's log budget, and the bytes of log lines sent and dropped so far. */
const logs = { max: Number.POSITIVE_INFINITY, sent: 0, dropped: 0 };
/** Posts a message to the host on the message channel, and counts it. */
const post = (m: WorkerMessage): void => {
  out.postMessage(m);
  Atomics.add(wake, 1, 1);
};

const host: ProgramHost = {
  call(op, payload) {
    nextId += 1;
    const id = nextId;
    calls += 1;
    return new Promise<string>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      post({ type: 'call', id, op, payload });
    });
  },
  // The host keeps only the lines that fit its budget: the others are not sent at all, so a script
  // that logs without end cannot flood the host's event loop with messages it would drop.
  log(text) {
    const bytes = Buffer.byteLength(text) + 1;
    if (logs.sent + bytes > logs.max) logs.dropped += bytes;
    else {
      logs.sent += bytes;
      post({ type: 'log', text });
    }
  },
  // The host terminates the worker on a violation; nothing to check here.
  violation: () => undefined,
  toolCalls: () => calls,
  waitForReplies,
};

/** Hands every reply waiting on the reply channel to its call; returns how many there were. */
function drainReplies(port: MessagePort): number {
  let n = 0;
  for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
    onReply(m.message as WorkerReply);
    n += 1;
  }
  return n;
}

/**
 * How long a worker checks for a reply before it sleeps. A governed call usually answers within
 * it, and a thread woken from `Atomics.wait` starts again tens of microseconds later than one that
 * kept checking (a `ctx.tool` call measured ~25 % faster). Only while the programs running leave a
 * CPU for the host (never on a single CPU): checking on a busy machine takes the time the host and
 * the other programs need (four programs at once on two CPUs were 25 % slower with it).
 */
const SPIN_MS = 0.2;
/** CPUs of the machine: the host needs one, so workers check only while fewer programs run. */
const CPUS = availableParallelism();
const running = new Int32Array(data.active);

/** Blocks until a reply arrives or `ms` pass (the host adds to `wake` after posting each reply). */
function waitForReplies(ms: number): number {
  const seen = Atomics.load(wake, 0);
  const ready = drainReplies(replies);
  if (ready > 0) return ready;
  if (Atomics.load(running, 0) < CPUS) {
    const until = performance.now() + Math.min(SPIN_MS, ms);
    do {
      for (let i = 0; i < 64; i++) if (Atomics.load(wake, 0) !== seen) return drainReplies(replies);
    } while (performance.now() < until);
  }
  Atomics.wait(wake, 0, seen, ms);
  return drainReplies(replies);
}

function onReply(m: WorkerReply): void {
  const p = pending.get(m.id);
  if (p === undefined) return;
  pending.delete(m.id);
  if (m.ok) p.resolve(m.json);
  else p.reject(fromWireError(m.error));
}

async function onRun(r: WorkerRunRequest): Promise<void> {
  calls = 0;
  logs.max = r.maxLogBytes ?? Number.POSITIVE_INFINITY;
  logs.sent = 0;
  logs.dropped = 0;
  try {
    // A cold worker loads QuickJS and makes the VM here, before the deadline starts.
    await prepareSpareVm(r.memoryLimitBytes, r.maxStackBytes);
    if (r.announce !== false) post({ type: 'started' });
    const outcome = await runProgramScript({
      source: r.source,
      file: r.file,
      module: r.module,
      inputsJson: r.inputsJson,
      timeoutMs: r.remainingMs,
      memoryLimitBytes: r.memoryLimitBytes,
      maxStackBytes: r.maxStackBytes,
      maxResultChars: r.maxResultChars,
      signal: new AbortController().signal,
      host,
    });
    post({ type: 'done', outcome, droppedLogBytes: logs.dropped });
  } catch (e) {
    post({ type: 'fail', error: toWireError(e) });
  } finally {
    pending.clear();
    // The next program most likely has the same limits: its VM is made while this worker waits.
    prepareSpareVm(r.memoryLimitBytes, r.maxStackBytes).catch(() => undefined);
  }
}

// The parent port carries only programs to run; `ctx` replies come on the reply channel.
port.on('message', (m: HostMessage) => void onRun(m));
