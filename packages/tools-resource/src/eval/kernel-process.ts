/**
 * One live kernel: a child process in its own process group, tagged in its environment, speaking
 * framed JSON lines over its stdio. A cell runs under an inactivity budget (renewed by every kernel
 * message, paused while a `tool()` bridge call is outstanding) and a memory limit (the kernel's own
 * and a watch of its processes' resident memory); on expiry, over the limit, or when the session
 * closes, every process of the kernel is killed (`process-tree.ts`). Output is capped (head and tail).
 * A `tool()` call is served only for the cell running now, and ends with it (`cell-bridge.ts`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { toolProcessEnv } from '@a3s-code/core';
import { killProcesses, newProcessTag, type ProcessMark, startTicksOf, taggedEnv } from '../shared/process-tree.js';
import { CELL_ENDED, CellBridge } from './cell-bridge.js';
import { CellEndMarks } from './cell-end-marks.js';
import { CellImages } from './cell-images.js';
import { EvalToolError, memoryLimitError } from './eval-errors.js';
import { CappedOutput, KernelReader, type KernelMessage, wellFormed } from './kernel-protocol.js';
import type { BridgeReply, CellOptions, CellResult, EvalLanguage, KernelCommand } from './kernel-types.js';
import { holdLoop, killedOnExit } from '../shared/loop-hold.js';
import { watchMemory } from './kernel-memory.js';

/** The exit code of a Python kernel that could not even report its `MemoryError`. */
const PY_MEMORY_EXIT = 86;
const SESSION_CLOSED = 'the session closed';
/** How long a finished cell waits for its end mark on stderr (a kernel that closed fd 2 sends none). */
const MARK_WAIT_MS = 500;
const OUT_OF_MEMORY = /JavaScript heap out of memory|Reached heap limit|MemoryError|Cannot allocate memory/;

type Message = KernelMessage;

/** The kernels alive in this process, killed by its exit hook (an idle kernel holds no loop). */
const live = killedOnExit<KernelProcess>();

/** A started kernel. */
export class KernelProcess {
  readonly language: EvalLanguage;
  readonly #child: ChildProcess;
  readonly #listeners = new Set<(m: Message) => void>();
  #exit: { code: number | null; signal: string | null } | undefined;
  readonly #exitWaiters = new Set<() => void>();
  #stderr = '';
  /** Cell-end marks on stderr: a cell's `done` waits for its mark (see `cell-end-marks.ts`). */
  readonly #marks = new CellEndMarks();
  #busy = false;
  /** The bridge of the cell running now (a bridge message while none runs is refused). */
  #bridge: CellBridge | undefined;
  #killed = false;
  /** Fails the running cell when the memory watch finds the kernel over its limit. */
  #overMemory: ((bytes: number) => void) | undefined;
  #runs = 0;
  /** Why the kernel was killed on purpose, when it was: named in the exit text. */
  #killedFor: string | undefined;
  /** The id of the process the host started: on the host under Linux, the subreaper wrapper the interpreter runs under (`subreaper.ts`). */
  readonly pid: number;
  /** Finds the kernel's processes: its pid, tag and start time. */
  readonly #mark: ProcessMark;
  /** The memory limit in MiB (undefined: none). */
  readonly memoryLimitMb: number | undefined;

  private constructor(language: EvalLanguage, child: ChildProcess, tag: string, memoryLimitMb: number | undefined) {
    this.language = language;
    this.#child = child;
    this.pid = child.pid ?? -1;
    this.memoryLimitMb = memoryLimitMb;
    this.#mark = { pid: this.pid, tag, startTicks: startTicksOf(this.pid) };
    const reader = new KernelReader((msg) => {
      if (msg.type === 'bridge' && this.#bridge === undefined)
        return this.#send({ type: 'bridge_result', id: msg.id, ok: false, output: CELL_ENDED });
      for (const l of this.#listeners) l(msg);
    });
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => reader.push(chunk));
    child.stdout!.on('end', () => {
      reader.end();
      // A kernel that closed its protocol channel cannot run another cell (one exiting closes it first).
      setTimeout(() => {
        if (!this.alive) return;
        this.#killedFor ??= 'it closed its protocol channel (stdout)';
        this.kill();
      }, 500).unref();
    });
    const deliver = (text: string) => {
      this.#stderr = (this.#stderr + text).slice(-4000);
      for (const l of this.#listeners) l({ type: 'stream', stream: 'stderr', text });
    };
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => this.#marks.push(chunk, deliver));
    child.stderr!.on('end', () => this.#marks.flush(deliver));
    child.on('exit', (code, signal) => {
      this.#exit = { code, signal };
      killProcesses(this.#mark); // what its cells started dies with it
      // Its last words (a V8 out-of-memory report) may still be in the pipe: wait briefly for them.
      let told = false;
      const tell = () => {
        if (told) return;
        told = true;
        for (const w of this.#exitWaiters) w();
      };
      if (child.stderr!.readableEnded) tell();
      else {
        child.stderr!.once('end', tell);
        setTimeout(tell, 200);
      }
    });
    child.stdin!.on('error', () => {});
  }

  /** Starts a kernel and waits for its `ready` message; `where` names the host or sandbox in errors. */
  static async start(cmd: KernelCommand, startTimeoutMs = 20_000, where = 'host'): Promise<KernelProcess> {
    const tag = newProcessTag();
    // PWD names the folder the kernel works in, not the one the host was started from.
    const env = { ...toolProcessEnv(), PWD: cmd.cwd, PYTHONUNBUFFERED: '1', MPLBACKEND: 'Agg' };
    const child = spawn(cmd.command, [...cmd.args], {
      cwd: cmd.cwd,
      env: { ...env, ...cmd.env, ...taggedEnv(tag) },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const kernel = new KernelProcess(cmd.language, child, tag, cmd.memoryLimitMb);
    await new Promise<void>((resolve, reject) => {
      const fail = (why: string) => {
        clearTimeout(timer);
        kernel.#listeners.delete(onMsg);
        kernel.#exitWaiters.delete(onExit);
        kernel.kill();
        reject(
          new EvalToolError(
            'EVAL_KERNEL_START',
            `the ${cmd.language} kernel (${cmd.command}) did not start${where === 'host' ? '' : ` in the ${where}`}: ${why}`,
            { command: cmd.command, runs_in: where },
          ),
        );
      };
      const onMsg = (m: Message) => {
        if (m.type !== 'ready') return;
        clearTimeout(timer);
        kernel.#listeners.delete(onMsg);
        kernel.#exitWaiters.delete(onExit);
        resolve();
      };
      const onExit = () =>
        fail(`it exited (${kernel.#exitText()})${kernel.#stderr ? `: ${kernel.#stderr.trim().slice(-600)}` : ''}`);
      const timer = setTimeout(() => fail(`no ready message within ${startTimeoutMs} ms`), startTimeoutMs);
      child.on('error', (e) => fail(e.message));
      kernel.#listeners.add(onMsg);
      kernel.#exitWaiters.add(onExit);
    });
    kernel.#watchMemory();
    kernel.#holdLoop(false);
    live.add(kernel);
    return kernel;
  }

  /** Whether the kernel holds Node's event loop: only while a cell runs or it starts (`loop-hold.ts`). */
  #holdLoop(on: boolean): void {
    const c = this.#child;
    holdLoop([c, c.stdin, c.stdout, c.stderr], on);
  }

  /** How the kernel ended (exit code or signal, and why it was killed), or `running`. */
  get death(): string {
    return this.#exitText();
  }

  /** True while the process runs. */
  get alive(): boolean {
    return this.#exit === undefined && !this.#killed;
  }

  /** Cells run so far. */
  get runs(): number {
    return this.#runs;
  }

  #exitText(): string {
    const e = this.#exit;
    const how = e === undefined ? 'running' : e.signal !== null ? `signal ${e.signal}` : `exit code ${e.code}`;
    return this.#killedFor === undefined ? how : `${how}: ${this.#killedFor}`;
  }

  /** True when the kernel's exit says it ran out of memory (its own limit, or the machine's). */
  #outOfMemory(): boolean {
    if (this.#exit === undefined || this.memoryLimitMb === undefined) return false;
    if (this.language === 'python' && this.#exit.code === PY_MEMORY_EXIT) return true;
    return OUT_OF_MEMORY.test(this.#stderr);
  }

  #send(msg: Record<string, unknown>): void {
    if (this.alive) this.#child.stdin!.write(`${JSON.stringify(msg)}\n`);
  }

  /** Runs one cell. Throws `EVAL_TIMEOUT`, `EVAL_MEMORY_LIMIT`, `EVAL_KERNEL_DIED` or `EVAL_CLOSED` (the kernel is then dead). */
  run(code: string, options: CellOptions): Promise<CellResult> {
    if (!this.alive)
      return Promise.reject(
        new EvalToolError('EVAL_KERNEL_DIED', `the ${this.language} kernel is not running (${this.#exitText()})`),
      );
    if (this.#busy)
      return Promise.reject(
        new EvalToolError(
          'EVAL_BUSY',
          `the ${this.language} kernel is already running a cell; eval runs one cell at a time per language`,
        ),
      );
    this.#busy = true;
    this.#holdLoop(true);
    this.#runs += 1;
    const id = this.#runs;
    const out = new CappedOutput(options.maxOutputChars);
    const images = new CellImages();
    let echo: string | undefined;
    return new Promise<CellResult>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const arm = () => {
        if (timer !== undefined) clearTimeout(timer);
        timer = settled || bridge.outstanding > 0 ? undefined : setTimeout(onTimeout, options.inactivityMs);
      };
      const reply = (bid: unknown, r: BridgeReply) =>
        this.#send({ type: 'bridge_result', id: bid, ok: r.ok, output: r.output });
      const bridge = new CellBridge(id, options.bridge, reply, arm);
      const finish = (error?: EvalToolError, result?: Omit<CellResult, 'cutOffCalls'>) => {
        if (settled) return;
        settled = true;
        if (timer !== undefined) clearTimeout(timer);
        this.#listeners.delete(onMsg);
        this.#exitWaiters.delete(onExit);
        options.signal?.removeEventListener('abort', onAbort);
        this.#overMemory = undefined;
        if (this.#bridge === bridge) this.#bridge = undefined;
        // The calls the cell started and did not wait for end with it, before its result is told.
        void bridge.end().then(() => {
          this.#busy = false;
          this.#holdLoop(false);
          if (error) reject(error);
          else resolve({ ...result!, cutOffCalls: bridge.cutOff });
        });
      };
      const partial = () => ({ output: out.text(), output_chars: out.total });
      /** Kills the kernel (its exit is then not a death of its own) and fails the cell with `error()`. */
      const killThen = (why: string, error: () => EvalToolError) => {
        this.#exitWaiters.delete(onExit);
        void this.close(why).then(() => finish(error()));
      };
      const memoryError = (how: string, extra: Record<string, unknown> = {}) =>
        memoryLimitError(this.language, this.memoryLimitMb ?? 0, how, { ...partial(), ...extra });
      const onTimeout = () =>
        killThen(
          'its cell timed out',
          () =>
            new EvalToolError(
              'EVAL_TIMEOUT',
              `the cell produced nothing for ${options.inactivityMs} ms and the ${this.language} kernel was killed; its state is lost and the next call starts a fresh kernel`,
              partial(),
            ),
        );
      const onExit = () => {
        if (this.#killedFor === SESSION_CLOSED)
          return finish(new EvalToolError('EVAL_CLOSED', 'the session closed while the cell ran', partial()));
        if (this.#outOfMemory())
          return finish(memoryError(`the kernel ran out of memory and exited (${this.#exitText()})`));
        finish(
          new EvalToolError(
            'EVAL_KERNEL_DIED',
            `the ${this.language} kernel died during the cell (${this.#exitText()}); its state is lost and the next call starts a fresh kernel`,
            partial(),
          ),
        );
      };
      const onAbort = () =>
        killThen(
          'its cell was cancelled',
          () =>
            new EvalToolError(
              'EVAL_KERNEL_DIED',
              `the cell was cancelled and the ${this.language} kernel was killed`,
              partial(),
            ),
        );
      this.#overMemory = (bytes) =>
        killThen('it went over its memory limit', () =>
          memoryError(`the kernel and its processes held ${Math.round(bytes / 2 ** 20)} MB`),
        );
      const onMsg = (m: Message) => {
        arm();
        switch (m.type) {
          case 'stream': {
            const text = String(m.text ?? '');
            const stream = m.stream === 'stderr' ? 'stderr' : 'stdout';
            out.push(text);
            options.onOutput?.(wellFormed(text), stream);
            return;
          }
          case 'display': {
            const text = String(m.text ?? '');
            if (m.echo === true) {
              // The echo is capped like the output (a huge string as the last expression).
              const capped = new CappedOutput(options.maxOutputChars);
              capped.push(text);
              echo = capped.text();
            } else {
              out.push(`${text}\n`);
              options.onOutput?.(wellFormed(`${text}\n`), 'stdout');
            }
            return;
          }
          case 'image': {
            const dropped = images.add(m.mime, m.data);
            if (dropped !== undefined) {
              out.push(dropped);
              options.onOutput?.(dropped, 'stderr');
            }
            return;
          }
          case 'bridge':
            return bridge.handle(m);
          case 'done': {
            if (m.id !== id) return;
            if (m.memory === true)
              return killThen('it went over its memory limit', () =>
                memoryError('MemoryError', { error: String(m.error ?? 'MemoryError') }),
              );
            // What the cell wrote straight to fd 2 is in the pipe before its mark: wait for it.
            if (m.mark === true) this.#marks.after(String(id), MARK_WAIT_MS, () => complete(m));
            else complete(m);
            return;
          }
          default:
            return;
        }
      };
      const complete = (m: Message) =>
        finish(undefined, {
          ok: m.ok === true,
          output: out.text(),
          outputChars: out.total,
          truncated: out.truncated,
          images: images.list,
          bridgeCalls: bridge.served,
          ...(echo === undefined ? {} : { echo }),
          ...(m.ok === true ? {} : { error: wellFormed(String(m.error ?? 'the cell failed')) }),
        });
      if (options.signal?.aborted) {
        this.#overMemory = undefined;
        this.#busy = false;
        this.#holdLoop(false);
        reject(new EvalToolError('EVAL_KERNEL_DIED', 'the cell was cancelled before it started'));
        return;
      }
      this.#bridge = bridge;
      this.#listeners.add(onMsg);
      this.#exitWaiters.add(onExit);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      arm();
      this.#send({ type: 'run', id, code });
    });
  }

  /** Watches the kernel's memory (`kernel-memory.ts`): over the limit, a running cell fails, else the kernel is killed. */
  #watchMemory(): void {
    const limit = this.memoryLimitMb;
    if (limit === undefined || this.pid <= 0) return;
    watchMemory(this.pid, this.#mark, limit, {
      alive: () => this.alive,
      busy: () => this.#busy,
      over: (bytes) => {
        if (this.#overMemory !== undefined) return this.#overMemory(bytes);
        this.#killedFor ??= `it went over its memory limit of ${limit} MB between cells (${Math.round(bytes / 2 ** 20)} MB)`;
        this.kill();
      },
    });
  }

  /** Kills every process of the kernel: its group, its tree, and whatever carries its tag. */
  kill(): void {
    live.delete(this);
    this.#killed = true; // not alive from now on, even before the exit is reported
    if (this.#exit === undefined && this.pid <= 0) this.#child.kill('SIGKILL');
    killProcesses(this.#mark);
  }

  /** Kills the kernel and its processes and waits for it to exit; `why` is named if a cell was running. */
  async close(why?: string): Promise<void> {
    if (why !== undefined) this.#killedFor ??= why;
    if (this.#exit !== undefined) {
      this.kill();
      return;
    }
    const exited = new Promise<void>((r) => this.#exitWaiters.add(r));
    // An idle kernel holds no loop: waiting for its exit must, or a script awaiting close ends first.
    this.#holdLoop(true);
    this.kill();
    await exited;
  }

  /** {@link close} because the session closed: a running cell fails with `EVAL_CLOSED`. */
  shutdown(): Promise<void> {
    return this.close(SESSION_CLOSED);
  }
}
