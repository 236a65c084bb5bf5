/**
 * The messages between the host and a program worker, and how errors cross the port. Only plain
 * data crosses: a `ProgramError` is sent as its code, message and details and revived on the host
 * as the same class with the same message.
 */
import {
  ProgramError,
  ProgramInvalidError,
  ProgramMemoryLimitError,
  ProgramRuntimeError,
  ProgramStackLimitError,
  ProgramSyntaxError,
  ProgramTimeoutError,
  ProgramToolCallLimitError,
  where,
  type ProgramErrorCode,
  type ProgramErrorLocation,
} from './program-errors.js';
import type { MessagePort } from 'node:worker_threads';
import type { ScriptOutcome } from './program-vm.js';

/** What a program worker is started with (its `workerData`). */
export interface ProgramWorkerData {
  /** The memory limit most programs use: the worker prepares a QuickJS instance for it while idle. */
  readonly memoryLimitBytes: number;
  /** The VM stack size programs use: the worker makes a spare VM for it and `memoryLimitBytes` while idle. */
  readonly maxStackBytes?: number;
  /**
   * The reply channel: the host posts each `ctx` reply on `replies` and then adds 1 to the first
   * Int32 of `wake` and notifies it, so a worker waiting for replies blocks on `Atomics.wait` and
   * reads them with `receiveMessageOnPort` instead of turning its event loop.
   */
  readonly wake: SharedArrayBuffer;
  readonly replies: MessagePort;
  /**
   * Where the worker posts every {@link WorkerMessage}; it adds 1 to the second Int32 of `wake`
   * after each, so a host waiting for the next `ctx` call can take it with `receiveMessageOnPort`
   * as soon as it is posted.
   */
  readonly messages: MessagePort;
  /**
   * Shared by every program worker of the process: the first Int32 counts the programs running
   * (the host adds one when it sends a program and takes it away when the program ends, however).
   * A worker checks for a reply before sleeping only while they leave a CPU free for the host.
   */
  readonly active: SharedArrayBuffer;
}

/** What the worker needs to run one script (the serialisable part of `RunScriptOptions`). */
export interface WorkerRunRequest {
  readonly type: 'run';
  /**
   * Post `started` once the script is about to run (the host starts the deadline then). `false`
   * when the host knows the worker has a VM ready for these limits and has started the deadline itself.
   */
  readonly announce?: boolean;
  readonly source: string;
  readonly file: string;
  readonly module: boolean;
  readonly inputsJson: string;
  /** The program's `limits.timeout_ms` (for messages). */
  readonly timeoutMs: number;
  /** Milliseconds the script may run, counted in the worker from its start. */
  readonly remainingMs: number;
  readonly memoryLimitBytes: number;
  readonly maxStackBytes: number;
  readonly maxResultChars: number;
  /** Bytes of log lines to send; lines beyond are dropped in the worker (see `RunScriptOptions.maxLogBytes`). */
  readonly maxLogBytes?: number;
}

/** An error as it crosses the port. */
export type WireError =
  | {
      readonly kind: 'program';
      readonly code: ProgramErrorCode;
      readonly message: string;
      readonly details: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: 'error'; readonly name: string; readonly message: string; readonly code: string | undefined };

/** The host's answer to one `ctx` call. */
export type WorkerReply =
  | { readonly type: 'reply'; readonly id: number; readonly ok: true; readonly json: string }
  | { readonly type: 'reply'; readonly id: number; readonly ok: false; readonly error: WireError };

/** Host to worker, on its parent port (replies go on the reply channel). */
export type HostMessage = WorkerRunRequest;

/** Worker to host. */
export type WorkerMessage =
  | { readonly type: 'call'; readonly id: number; readonly op: string; readonly payload: string }
  | { readonly type: 'started' }
  | { readonly type: 'log'; readonly text: string }
  | { readonly type: 'done'; readonly outcome: ScriptOutcome; readonly droppedLogBytes?: number }
  | { readonly type: 'fail'; readonly error: WireError };

/** Turns any thrown value into plain data for the port. */
export function toWireError(e: unknown): WireError {
  if (e instanceof ProgramError)
    return { kind: 'program', code: e.code, message: e.message, details: { ...(e.details ?? {}) } };
  const err = e instanceof Error ? e : new Error(String(e));
  const code = (err as { code?: unknown }).code;
  return { kind: 'error', name: err.name, message: err.message, code: typeof code === 'string' ? code : undefined };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

function location(d: Readonly<Record<string, unknown>>): ProgramErrorLocation {
  return {
    file: str(d.file),
    ...(typeof d.line === 'number' ? { line: d.line } : {}),
    ...(typeof d.column === 'number' ? { column: d.column } : {}),
  };
}

/** The part of `message` after `prefix` (the raw message the typed error was built from). */
const after = (message: string, prefix: string): string =>
  message.startsWith(prefix) ? message.slice(prefix.length) : message;

function reviveProgramError(
  code: ProgramErrorCode,
  message: string,
  d: Readonly<Record<string, unknown>>,
): ProgramError {
  const loc = location(d);
  switch (code) {
    case 'PROGRAM_INVALID':
      return new ProgramInvalidError(str(d.field), after(message, `program: ${str(d.field)}: `));
    case 'PROGRAM_SYNTAX':
      return new ProgramSyntaxError(loc, after(message, `program: SyntaxError at ${where(loc)}: `));
    case 'PROGRAM_RUNTIME':
      return new ProgramRuntimeError(
        loc,
        str(d.error_name),
        after(message, `program: uncaught ${str(d.error_name)} at ${where(loc)}: `),
        str(d.stack),
      );
    case 'PROGRAM_TIMEOUT':
      return new ProgramTimeoutError(num(d.timeout_ms), num(d.tool_calls));
    case 'PROGRAM_TOOL_CALL_LIMIT':
      return new ProgramToolCallLimitError(num(d.max_tool_calls), str(d.attempted));
    case 'PROGRAM_MEMORY_LIMIT':
      return new ProgramMemoryLimitError(num(d.memory_limit_bytes));
    case 'PROGRAM_STACK_LIMIT':
      return new ProgramStackLimitError(loc, num(d.max_stack_bytes));
    case 'PROGRAM_SCRIPT_CHANGED':
      // Raised on the host before a worker runs; never sent back by one.
      return new ProgramError(code, message, d);
  }
}

/** Revives a wire error: a `ProgramError` of the original class and message, or an `Error` with its `name` and `code`. */
export function fromWireError(w: WireError): Error {
  if (w.kind === 'program') {
    const e = reviveProgramError(w.code, w.message, w.details);
    return e.message === w.message ? e : new ProgramError(w.code, w.message, w.details);
  }
  const e = new Error(w.message) as Error & { code?: string };
  e.name = w.name;
  if (w.code !== undefined) e.code = w.code;
  return e;
}
