/**
 * One debug session: a started adapter (its own process group), the DAP connection to it, where
 * the debuggee is stopped, and its captured output. Running operations (`launch`, `continue`,
 * the steps) wait for the next stop, the end of the program, or a deadline.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import {
  type DeniedWrites,
  type HeldProcessCommand,
  mergeDeniedWrites,
  type ProcessCommand,
  toolProcessEnv,
} from '@a3s-code/core';

import { asSubreaper } from '../shared/subreaper.js';
import { killProcesses, newProcessTag, type ProcessMark, startTicksOf, taggedEnv } from '../shared/process-tree.js';
import type { AdapterCommand } from './adapters.js';
import { DapConnection, type DapEvent } from './dap-connection.js';
import { DebugToolError } from './debug-errors.js';
import { connectTo, waitForPort } from './dap-transport.js';
import { heldFilesOf } from './held-files.js';

/** A call's hold on the processes it starts (`WorkspaceServices.holdProcess`). */
export type ProcessHold = (process: ProcessCommand) => Promise<HeldProcessCommand>;

/** Where the debuggee is. */
export type DebugState =
  | { readonly kind: 'running' }
  | { readonly kind: 'stopped'; readonly reason: string; readonly threadId: number; readonly description?: string }
  | {
      readonly kind: 'exited';
      readonly exitCode: number | null;
      /** Set when the adapter process died before the program ended (a crash, a kill): how it ended. */
      readonly adapterDied?: string;
    };

const OUTPUT_CAP = 64 * 1024;
const START_MS = 30_000;
/** How long a dropped connection waits for the adapter's exit before it is reported. */
const LOST_EXIT_WAIT_MS = 2_000;

/** A running debug session. */
export class DebugSession {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_DebugSession`; people read `DebugSession`.
    Object.defineProperty(this, 'name', { value: 'DebugSession' });
  }
  readonly adapter: AdapterCommand;
  readonly program: string;
  readonly startedAt: number;
  /** The adapter process; undefined when the session connected to a debuggee's own DAP server. */
  readonly #child: ChildProcess | undefined;
  /** Finds the adapter's processes, the debuggee and whatever it started included. */
  readonly #mark: ProcessMark | undefined;
  readonly #conn: DapConnection;
  readonly #socket: Socket | undefined;
  #state: DebugState = { kind: 'running' };
  #output = '';
  #outputTotal = 0;
  #exited: Promise<void>;
  #alive = true;
  /** True once `close` began: the adapter's exit after that is ours, not a crash. */
  #closing = false;
  /** True once the adapter reported the program's end (`exited` or `terminated`). */
  #programEnded = false;
  readonly #waiters = new Set<(e: DapEvent) => void>();
  readonly #scratch: string[] = [];
  /** Removes what the program created against the write rules (see `HeldProcessCommand.settleWrites`). */
  #settle: (() => Promise<DeniedWrites | undefined>) | undefined;
  /** What the settle at `close` removed, not yet reported by {@link settleWrites}. */
  #settled: DeniedWrites | undefined;
  /** See {@link heldFiles}. */
  #heldFiles: string | undefined;

  private constructor(
    adapter: AdapterCommand,
    program: string,
    child: ChildProcess | undefined,
    mark: ProcessMark | undefined,
    conn: DapConnection,
    socket: Socket | undefined,
    now: number,
  ) {
    this.adapter = adapter;
    this.program = program;
    this.#child = child;
    this.#mark = mark;
    this.#conn = conn;
    this.#socket = socket;
    this.startedAt = now;
    const ended = child ?? socket!;
    const done = child === undefined ? 'close' : 'exit';
    this.#exited = new Promise((r) => {
      if (child !== undefined && (child.exitCode !== null || child.signalCode !== null)) r();
      else if (child === undefined && socket!.destroyed) r();
      else ended.on(done, () => r());
    });
    ended.on(done, (code: number | null, signal: NodeJS.Signals | null) => {
      this.#alive = false;
      // The adapter died while the program had not ended and nobody closed the session: a crash.
      if (child !== undefined && !this.#closing && !this.#programEnded) {
        const how = signal !== null ? `signal ${signal}` : `exit code ${String(code)}`;
        this.#state = { kind: 'exited', exitCode: null, adapterDied: how };
      }
      // What the adapter started (the debuggee and its children) must not outlive it as orphans.
      if (mark !== undefined) killProcesses(mark);
      conn.fail(child === undefined ? 'the debuggee closed the connection' : 'the adapter process exited');
    });
    conn.onEvent((e) => {
      // The connection can drop before the adapter's exit is seen: wait for the exit (briefly) so
      // the end reads as the adapter's death, not as the program's.
      if (e.event !== 'a3s_closed' || child === undefined || this.#closing || this.#programEnded || !this.#alive)
        return this.#onEvent(e);
      void Promise.race([this.#exited, new Promise((r) => setTimeout(r, LOST_EXIT_WAIT_MS))]).then(() => {
        if (this.#state.kind !== 'exited' && !this.#closing && !this.#programEnded)
          this.#state = { kind: 'exited', exitCode: null, adapterDied: 'it closed the connection' };
        this.#onEvent(e);
      });
    });
    if (adapter.transport === 'tcp' && child !== undefined)
      child.stdout!.on('data', (chunk: Buffer | string) =>
        this.#onEvent({ event: 'output', body: { category: 'stdout', output: String(chunk) } }),
      );
  }

  /**
   * Connects to a debuggee that serves DAP itself on loopback `port` (debugpy's `--listen`
   * starts its own adapter there), and initializes the connection; no adapter process starts.
   */
  static async connect(adapter: AdapterCommand, label: string, port: number, now: number): Promise<DebugSession> {
    const socket = await connectTo(port);
    const session = new DebugSession(
      adapter,
      label,
      undefined,
      undefined,
      new DapConnection(socket, socket),
      socket,
      now,
    );
    await session.#initialize();
    return session;
  }

  /**
   * Starts the adapter and initializes the connection; `hold` (the call's hold on the processes it
   * starts) gives the command line that keeps the path rules' files from the adapter and debuggee.
   */
  static async start(
    adapter: AdapterCommand,
    program: string,
    cwd: string,
    now: number,
    hold?: ProcessHold,
  ): Promise<DebugSession> {
    const tag = newProcessTag();
    // Started as a subreaper: what the debuggee leaves behind stays in the tree killed at the end.
    const subreaper = asSubreaper(adapter.command, adapter.args);
    const leader = hold === undefined ? subreaper : await hold(subreaper);
    const child = spawn(leader.command, [...leader.args], {
      cwd,
      // PWD names the folder the adapter and the debuggee work in, not the one the host was started from.
      env: { ...toolProcessEnv(), PWD: cwd, ...taggedEnv(tag) },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const mark = { pid: child.pid ?? -1, tag, startTicks: startTicksOf(child.pid ?? -1) };
    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (e) =>
        reject(new DebugToolError('DEBUG_ADAPTER', `could not start ${adapter.command}: ${e.message}`)),
      );
    });
    await spawned;
    child.stderr!.resume();
    let conn: DapConnection;
    let socket: Socket | undefined;
    try {
      if (adapter.transport === 'tcp') {
        socket = await connectTo(await waitForPort(child));
        conn = new DapConnection(socket, socket);
      } else conn = new DapConnection(child.stdout!, child.stdin!);
    } catch (error) {
      killProcesses(mark);
      throw error;
    }
    const session = new DebugSession(adapter, program, child, mark, conn, socket, now);
    session.#settle = (leader as Partial<HeldProcessCommand>).settleWrites;
    if (hold !== undefined) session.#heldFiles = heldFilesOf(leader as HeldProcessCommand);
    await session.#initialize();
    return session;
  }

  async #initialize(): Promise<void> {
    try {
      await this.#conn.request('initialize', {
        clientID: 'a3s-code',
        adapterID: this.adapter.id,
        pathFormat: 'path',
        linesStartAt1: true,
        columnsStartAt1: true,
        supportsVariableType: true,
        supportsRunInTerminalRequest: false,
      });
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  /** Where the debuggee is. */
  /** The adapter process's id; `undefined` when the session connected to a debuggee's own DAP server. */
  get adapterPid(): number | undefined {
    return this.#child?.pid;
  }

  get state(): DebugState {
    return this.#state;
  }

  /** True while the adapter runs. */
  get alive(): boolean {
    return this.#alive;
  }

  /** The adapter's process id (-1 when the session connected to a debuggee's own DAP server). */
  get pid(): number {
    return this.#child?.pid ?? -1;
  }

  #onEvent(e: DapEvent): void {
    const b = e.body ?? {};
    if (e.event === 'output') {
      const category = String(b.category ?? 'console');
      if (category === 'stdout' || category === 'stderr' || category === 'console') {
        const text = String(b.output ?? '').replace(/\r\n/g, '\n');
        this.#outputTotal += text.length;
        this.#output = (this.#output + text).slice(-OUTPUT_CAP);
      }
    } else if (e.event === 'stopped') {
      this.#state = {
        kind: 'stopped',
        reason: String(b.reason ?? 'unknown'),
        threadId: typeof b.threadId === 'number' ? b.threadId : 0,
        ...(typeof b.description === 'string' ? { description: b.description } : {}),
      };
    } else if (e.event === 'continued') {
      this.#state = { kind: 'running' };
    } else if (e.event === 'exited') {
      this.#programEnded = true;
      this.#state = { kind: 'exited', exitCode: typeof b.exitCode === 'number' ? b.exitCode : null };
    } else if (e.event === 'terminated' || e.event === 'a3s_closed') {
      if (e.event === 'terminated') this.#programEnded = true;
      if (this.#state.kind !== 'exited') this.#state = { kind: 'exited', exitCode: null };
    }
    for (const w of this.#waiters) w(e);
  }

  /** Resolves on the next event matching `pred` (or the session's end), or rejects after `timeoutMs`. */
  waitFor(pred: (e: DapEvent) => boolean, timeoutMs: number, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(w);
      };
      const w = (e: DapEvent) => {
        if (pred(e) || e.event === 'terminated' || e.event === 'exited' || e.event === 'a3s_closed') {
          done();
          resolve();
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new DebugToolError(
            'DEBUG_TIMEOUT',
            `no ${what} within ${timeoutMs} ms; the program is still running (use pause or terminate)`,
          ),
        );
      }, timeoutMs);
      this.#waiters.add(w);
    });
  }

  /**
   * Records that a `continue` or step request was accepted: the program runs until the next stop,
   * unless an event already said where it is since `before` (adapters need not send `continued`).
   */
  resumed(before: DebugState): void {
    if (this.#state === before && before.kind === 'stopped') this.#state = { kind: 'running' };
  }

  /** Removes `path` (a scratch folder of the session, such as the built program's) when the session closes. */
  removeOnClose(path: string): void {
    this.#scratch.push(path);
  }

  /** Sends a request. */
  request(command: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<Record<string, unknown>> {
    return this.#conn.request(command, args, timeoutMs);
  }

  /**
   * Runs the DAP start sequence: `launch` (or `attach`), then on `initialized` the breakpoints and
   * `configurationDone`; resolves once the program stopped or ended, or `settleMs` passed.
   */
  async begin(
    request: 'launch' | 'attach',
    args: Record<string, unknown>,
    breakpoints: ReadonlyMap<string, readonly number[]>,
    settleMs: number,
  ): Promise<void> {
    // A stop or the end is watched for from the start; the settle is counted once the program runs.
    let seen = () => {};
    const stop = new Promise<void>((resolve) => {
      seen = resolve;
    });
    const w = (e: DapEvent) => {
      if (['stopped', 'terminated', 'exited', 'a3s_closed'].includes(e.event)) seen();
    };
    this.#waiters.add(w);
    try {
      const initialized = this.waitFor((e) => e.event === 'initialized', START_MS, 'initialized event');
      const started = this.request(request, args, START_MS * 4);
      started.catch(() => undefined);
      await Promise.race([initialized, started.then(() => initialized)]);
      for (const [file, lines] of breakpoints) await this.setBreakpoints(file, lines);
      await this.request('configurationDone').catch(() => undefined);
      await started;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([stop, new Promise<void>((resolve) => (timer = setTimeout(resolve, settleMs)))]);
      clearTimeout(timer);
    } finally {
      this.#waiters.delete(w);
    }
  }

  /** Sets one file's line breakpoints; returns whether each was verified. */
  async setBreakpoints(
    file: string,
    lines: readonly number[],
  ): Promise<{ line: number; verified: boolean; message?: string }[]> {
    const body = await this.request('setBreakpoints', {
      source: { path: file },
      breakpoints: lines.map((line) => ({ line })),
      lines: [...lines],
    });
    const bps = Array.isArray(body.breakpoints) ? (body.breakpoints as Record<string, unknown>[]) : [];
    return lines.map((line, i) => ({
      line: typeof bps[i]?.line === 'number' ? (bps[i]!.line as number) : line,
      verified: bps[i]?.verified === true,
      ...(typeof bps[i]?.message === 'string' ? { message: bps[i]!.message as string } : {}),
    }));
  }

  /** The debuggee's output so far (the last 64 KiB), with the total. */
  output(): { text: string; total: number } {
    return { text: this.#output, total: this.#outputTotal };
  }

  /**
   * Ends the session: asks the adapter to terminate the debuggee, then kills the adapter and every
   * process it started (the debuggee and whatever that forked, detached or not).
   */
  /**
   * The files kept from the adapter and the program when they started (see `heldFilesOf`), or
   * `undefined` for a session not started through a hold.
   */
  get heldFiles(): string | undefined {
    return this.#heldFiles;
  }

  /**
   * Removes what the program (and what it started) created where write rules forbid since it was
   * launched, with what the end of the session removed, and names it; `undefined` when nothing was.
   * Called at the start and the end of each debug call: a program runs on between calls.
   */
  async settleWrites(): Promise<DeniedWrites | undefined> {
    const before = this.#settled;
    this.#settled = undefined;
    const now = await this.#settle?.().catch((e: unknown) => ({ removed: [], problem: String(e) }));
    return mergeDeniedWrites(before, now);
  }

  async close(): Promise<void> {
    this.#closing = true;
    if (this.#alive) {
      await this.request('disconnect', { terminateDebuggee: true }, 3000).catch(() => undefined);
    }
    this.#socket?.destroy();
    if (this.#mark !== undefined) killProcesses(this.#mark);
    await Promise.race([this.#exited, new Promise((r) => setTimeout(r, 3000))]);
    if (this.#mark !== undefined) killProcesses(this.#mark);
    for (const path of this.#scratch.splice(0)) rmSync(path, { recursive: true, force: true });
    // What the program made since the last call is removed now; the next call names it.
    this.#settled = mergeDeniedWrites(this.#settled, await this.#settle?.().catch(() => undefined));
  }
}
