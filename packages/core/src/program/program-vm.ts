/**
 * One program run in a fresh QuickJS runtime and context, inside a program
 * worker (`program-worker.ts`). The VM has no
 * module loader, timers, I/O or host objects: the script's only capabilities are the `ctx`
 * methods, which are VM promises the host settles. An interrupt handler enforces the deadline,
 * cancellation and any limit violation even inside a busy loop. The stack limit is set on the
 * runtime; memory is bounded by the module's own WebAssembly memory (`quickjs-module.ts`), and once
 * an allocation is refused the interrupt handler stops the script with `PROGRAM_MEMORY_LIMIT`, even
 * if it catches the "out of memory" error. Every handle is disposed before the runtime, whatever happens.
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten-core';
import {
  type ProgramError,
  ProgramInvalidError,
  ProgramMemoryLimitError,
  ProgramRuntimeError,
  ProgramStackLimitError,
  ProgramTimeoutError,
} from './program-errors.js';
import { retireVm, takeVm } from './vm-spare.js';
import { classifyVmError, isInterrupted, type ErrorScope } from './vm-errors.js';
import { CALL_TOO_LARGE, callSizeProblem } from './call-size.js';
import type { VmDeferred } from './vm-deferred.js';

/** The host side of `ctx`. */
export interface ProgramHost {
  /** Handles one `ctx` operation. Resolves with JSON text; a rejection becomes an `Error` in the VM. */
  call(op: string, payloadJson: string): Promise<string>;
  /** Records one `ctx.log` line. */
  log(text: string): void;
  /**
   * Optional: counts log bytes dropped before they reached {@link log} (a worker keeps to the
   * log budget itself, so a script that logs without end does not flood the host).
   */
  logDropped?(bytes: number): void;
  /** A violation (tool-call limit) that must stop the program now, if any. */
  violation(): ProgramError | undefined;
  /** Number of tool calls so far (for the timeout message). */
  toolCalls(): number;
  /**
   * Optional: blocks the thread until a reply to a `call` arrives or `ms` pass, and settles the
   * promises of the replies that arrived (their callbacks run as microtasks). Returns how many.
   * Without it the VM waits on the event loop.
   */
  waitForReplies?(ms: number): number;
}

/** What {@link runProgramScript} needs. */
export interface RunScriptOptions {
  readonly source: string;
  /** The script's name in stack traces and messages. */
  readonly file: string;
  /** Evaluate as an ES module (`export default async function run`). */
  readonly module: boolean;
  /** `inputs` as JSON text. */
  readonly inputsJson: string;
  readonly timeoutMs: number;
  readonly memoryLimitBytes: number;
  readonly maxStackBytes: number;
  /** At most this many characters of the result are copied out of the VM. */
  readonly maxResultChars: number;
  /**
   * Bytes of log text (each line counted with its newline) a worker sends to the host; a line
   * that does not fit is dropped where it is made and only counted. Default: no limit.
   */
  readonly maxLogBytes?: number;
  readonly signal: AbortSignal;
  readonly host: ProgramHost;
  /** Epoch-milliseconds clock. */
  readonly clock?: () => number;
}

/** The script's return value, as copied out of the VM. */
export interface ScriptOutcome {
  /** `json`: `text` is JSON; `string`: the script returned a string; `undefined`; `unserializable`: `text` says why. */
  readonly kind: 'json' | 'string' | 'undefined' | 'unserializable';
  /** At most `maxResultChars` characters. */
  readonly text: string;
  /** Length of the whole text inside the VM, in characters. */
  readonly totalChars: number;
}

class Stop extends Error {
  constructor(readonly error: unknown) {
    super('stop');
  }
}

/** Runs `source` in a new VM and returns its result, or throws a typed error. */
export async function runProgramScript(o: RunScriptOptions): Promise<ScriptOutcome> {
  const clock = o.clock ?? Date.now;
  const deadline = clock() + o.timeoutMs;
  const prepared = await takeVm(o.memoryLimitBytes, o.maxStackBytes);
  const { quickjs, runtime, vm } = prepared;
  let reusable = true;
  runtime.setInterruptHandler(
    () => clock() >= deadline || o.signal.aborted || o.host.violation() !== undefined || quickjs.exhausted(),
  );
  const handles: QuickJSHandle[] = [];
  const deferreds = new Set<VmDeferred>();
  const state = { closed: false, inFlight: 0, pendingChars: 0, wake: (): void => undefined };
  const scope: ErrorScope = { file: o.file, memoryLimitBytes: o.memoryLimitBytes, maxStackBytes: o.maxStackBytes };
  const keep = (h: QuickJSHandle): QuickJSHandle => {
    handles.push(h);
    return h;
  };

  // Why the VM stopped, in order of precedence: cancellation, a limit violation, memory, the deadline.
  const stopReason = (): unknown => {
    if (o.signal.aborted) return o.signal.reason;
    const v = o.host.violation();
    if (v !== undefined) return v;
    if (quickjs.exhausted()) return new ProgramMemoryLimitError(o.memoryLimitBytes);
    if (clock() >= deadline) return new ProgramTimeoutError(o.timeoutMs, o.host.toolCalls());
    return undefined;
  };
  const unwrap = <T>(r: { error?: QuickJSHandle; value?: T }, phase: 'evaluate' | 'run'): T => {
    if (r.error !== undefined) {
      const dumped: unknown = vm.dump(r.error);
      r.error.dispose();
      const stopped = stopReason();
      if (stopped !== undefined && (isInterrupted(dumped) || o.host.violation() !== undefined || quickjs.exhausted()))
        throw new Stop(stopped);
      if (isInterrupted(dumped)) throw new Stop(new ProgramTimeoutError(o.timeoutMs, o.host.toolCalls()));
      throw new Stop(classifyVmError(dumped, scope, phase));
    }
    return r.value as T;
  };

  prepared.binding = {
    call(op, payload, shape) {
      // Every call's arguments are copied to the host and held there until it answers: too much
      // at once would end the host's process, so such a call throws in the script instead.
      const tooLarge = callSizeProblem(op, payload.length, state.pendingChars);
      if (tooLarge !== undefined) {
        const error = vm.newError({ name: 'RangeError', message: tooLarge });
        vm.newString(CALL_TOO_LARGE).consume((c) => vm.setProp(error, 'code', c));
        return { error };
      }
      const made = prepared.ctx.newDeferred();
      if (made.error !== undefined) return { error: made.error };
      const deferred = made.value;
      deferreds.add(deferred);
      state.inFlight += 1;
      state.pendingChars += payload.length;
      const settle = (fn: () => void): void => {
        state.inFlight -= 1;
        state.pendingChars -= payload.length;
        if (state.closed || !deferred.alive) return;
        fn();
        deferreds.delete(deferred);
        deferred.dispose();
        state.wake();
      };
      o.host.call(op, payload).then(
        (json) =>
          settle(() => {
            const r = prepared.ctx.reply(json, shape);
            if (r.error !== undefined) r.error.consume((h) => deferred.reject(h));
            else r.value.consume((h) => deferred.resolve(h));
          }),
        (e: unknown) =>
          settle(() => {
            const err = e instanceof Error ? e : new Error(String(e));
            vm.newError({ name: err.name, message: err.message }).consume((h) => {
              const code = (err as { code?: unknown }).code;
              if (typeof code === 'string') vm.newString(code).consume((c) => vm.setProp(h, 'code', c));
              deferred.reject(h);
            });
          }),
      );
      return { value: deferred.handle.dup() };
    },
    log: (text) => o.host.log(text),
  };

  try {
    const runFn = keep(evaluateScript(vm, o, unwrap, keep));
    // Parsed as JSON (the VM's own, taken before the script ran), not evaluated: in a literal a
    // `"__proto__"` key would set the prototype instead of being a property as it is in the JSON.
    const inputs = keep(
      o.inputsJson === 'undefined' ? vm.undefined : unwrap(prepared.ctx.reply(o.inputsJson, 'tool'), 'run'),
    );
    const promise = keep(unwrap(vm.callFunction(runFn, vm.undefined, prepared.ctx.ctx, inputs), 'run'));
    const value = keep(
      await settle(vm, runtime, promise, state, stopReason, unwrap, deadline, clock, o.signal, o.host),
    );
    const [kind, text, total] = prepared.ctx.toResult(value, o.maxResultChars);
    // Turning the value into JSON was cut short by a limit (a `toJSON` that loops or allocates).
    const stopped = kind === 'unserializable' ? stopReason() : undefined;
    if (stopped !== undefined) throw new Stop(stopped);
    return { kind, text, totalChars: total };
  } catch (e) {
    // Once the memory is full, whatever failed (the script, or the glue's own allocations for a
    // handle or a ctx reply) failed for want of memory.
    if (quickjs.exhausted()) throw stopReason();
    if (e instanceof Stop) throw e.error;
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      // The host stack ran out inside the interpreter before QuickJS's own check: the module may
      // be mid-call, so it is not reused.
      reusable = false;
      throw new ProgramStackLimitError({ file: o.file }, o.maxStackBytes);
    }
    throw e;
  } finally {
    state.closed = true;
    // Disposed once the result has gone out; the next program waits for it.
    retireVm(prepared, handles, deferreds, reusable);
  }
}

type Unwrap = <T>(r: { error?: QuickJSHandle; value?: T }, phase: 'evaluate' | 'run') => T;

/** Evaluates the script and returns its `run` function (the module's default or named export, or a global). */
function evaluateScript(
  vm: QuickJSContext,
  o: RunScriptOptions,
  unwrap: Unwrap,
  keep: (h: QuickJSHandle) => QuickJSHandle,
): QuickJSHandle {
  if (o.module) {
    const ns = keep(unwrap(vm.evalCode(o.source, o.file, { type: 'module' }), 'evaluate'));
    const state = vm.getPromiseState(ns);
    if (state.type !== 'fulfilled') {
      if (state.type === 'rejected') {
        const dumped: unknown = vm.dump(state.error);
        state.error.dispose();
        throw new Stop(
          classifyVmError(
            dumped,
            { file: o.file, memoryLimitBytes: o.memoryLimitBytes, maxStackBytes: o.maxStackBytes },
            'run',
          ),
        );
      }
      throw new Stop(
        new ProgramInvalidError(
          'source',
          'the module uses top-level await; put asynchronous work inside run(ctx, inputs)',
        ),
      );
    }
    const exports = state.notAPromise ? ns : keep(state.value);
    for (const name of ['default', 'run']) {
      const fn = vm.getProp(exports, name);
      if (vm.typeof(fn) === 'function') return fn;
      fn.dispose();
    }
    throw new Stop(
      new ProgramInvalidError(
        'source',
        'the module must export run: `export default async function run(ctx, inputs) { ... }`',
      ),
    );
  }
  keep(unwrap(vm.evalCode(o.source, o.file, { type: 'global' }), 'evaluate'));
  // A second script sees the first one's global `let`/`const` bindings as well as its functions.
  const fn = unwrap(vm.evalCode('typeof run === "function" ? run : undefined', '<a3s-entry>'), 'evaluate');
  if (vm.typeof(fn) === 'function') return fn;
  fn.dispose();
  throw new Stop(new ProgramInvalidError('source', 'the script must define `async function run(ctx, inputs) { ... }`'));
}

/** Drives the VM's job queue until `promise` settles, waiting for host calls in between. */
async function settle(
  vm: QuickJSContext,
  runtime: QuickJSRuntime,
  promise: QuickJSHandle,
  state: { inFlight: number; wake: () => void },
  stopReason: () => unknown,
  unwrap: Unwrap,
  deadline: number,
  clock: () => number,
  signal: AbortSignal,
  host: ProgramHost,
): Promise<QuickJSHandle> {
  for (;;) {
    const jobs = runtime.executePendingJobs();
    if (jobs.error !== undefined) unwrap({ error: jobs.error }, 'run');
    const stopped = stopReason();
    if (stopped !== undefined) throw new Stop(stopped);
    const s = vm.getPromiseState(promise);
    if (s.type === 'fulfilled') return s.notAPromise ? promise.dup() : s.value;
    if (s.type === 'rejected') {
      unwrap({ error: s.error }, 'run');
    }
    if (state.inFlight === 0) {
      throw new Stop(
        new ProgramRuntimeError(
          { file: '(program)' },
          'Error',
          'run() returned a promise that can never settle: nothing it awaits is pending (the VM has no timers or I/O besides ctx)',
          '',
        ),
      );
    }
    if (host.waitForReplies !== undefined) {
      const before = state.inFlight;
      const got = host.waitForReplies(Math.max(0, deadline - clock()));
      // Each reply settles its call in a microtask or two; give them the chance before the next wait.
      for (let i = 0; i < 8 && got > 0 && state.inFlight > before - got; i++) await undefined;
      if (got > 0 && state.inFlight > before - got) await new Promise<void>((resolve) => setImmediate(resolve));
      continue;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(0, deadline - clock()));
      const onAbort = (): void => done();
      signal.addEventListener('abort', onAbort, { once: true });
      state.wake = done;
      function done(): void {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        state.wake = () => undefined;
        resolve();
      }
    });
  }
}
