/**
 * `ProcessGroupStdioTransport`: our stdio transport for MCP, shaped as the SDK's `Transport` (not
 * declared as implementing it, so its declarations do not pull in the SDK's `transport.d.ts`,
 * which needs the DOM lib).
 * Unlike the SDK's own it owns the server's whole lifecycle:
 *
 * - the server starts as the leader of a new process group (`detached: true`);
 * - stdout carries only the protocol; stderr is read separately into a bounded tail;
 * - closing kills the whole group (`SIGTERM`, then `SIGKILL`), children included, and a group
 *   still alive when the host exits is killed from its `exit` hook;
 * - when stdout or stdin closes, or the process exits, `onclose` fires at once, so the SDK
 *   fails every pending request immediately instead of waiting for a request timeout.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BoundedTail } from './bounded-tail.js';
import { McpClosedError } from './errors.js';
import { limitText, OVERSIZED_RPC_CODE } from './message-limit.js';
import { BoundedLines, idOfOversized, MAX_STDIO_MESSAGE_BYTES, type OversizedLine } from './stdio-lines.js';
import { killGroup, trackGroup } from './process-group.js';
import { loadStdioSdk, type StdioSdk } from './stdio-sdk.js';

/** How to start a stdio server. */
export interface ProcessGroupStdioOptions {
  /** Executable (resolved on `PATH`), e.g. `node` or `npx`. */
  readonly command: string;
  /** Arguments. */
  readonly args?: readonly string[];
  /** Extra environment, added to the SDK's safe default set (`HOME`, `PATH`, `USER`, ...). */
  readonly env?: Readonly<Record<string, string>>;
  /** Working directory. Default: the host's. */
  readonly cwd?: string;
  /** Bytes of stderr kept, `>= 1024`. Default 16384. */
  readonly stderrBytes?: number;
  /** The longest message (line) read; a longer one is skipped unread and fails its request. Default 10 MiB. */
  readonly maxMessageBytes?: number;
  /** Time between `SIGTERM` and `SIGKILL` on close, milliseconds. Default 1000. */
  readonly killGraceMs?: number;
  /** Called with each stderr chunk (after it is kept in the tail). */
  readonly onStderr?: (chunk: string) => void;
}

/** How the connection ended. */
export interface StdioCloseInfo {
  /** What was seen first: `stdout closed`, `stdin closed`, `process exited (code 1)`, `closed by host`. */
  readonly reason: string;
  /** Exit code, once known. */
  readonly exitCode: number | null;
  /** Terminating signal, once known. */
  readonly signal: NodeJS.Signals | null;
  /**
   * True when the process ended on its own: it exited before this transport signalled it, or it
   * exited with a status code rather than by a signal (it was already on its way out).
   */
  readonly exitedOnItsOwn: boolean;
}

/**
 * When a pipe closes first, the group is signalled once the process has exited, or this much
 * later, so that a process that is dying anyway (slowly, on a loaded machine) reports its own exit
 * status (pending requests have already failed).
 */
const EXIT_STATUS_WAIT_MS = 3_000;

/** The stdio transport. One instance runs one server process once. */
export class ProcessGroupStdioTransport {
  /** See `Transport.onclose`. Fires exactly once. */
  onclose?: () => void;
  /** See `Transport.onerror`. */
  onerror?: (error: Error) => void;
  /** See `Transport.onmessage`. */
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  readonly #options: ProcessGroupStdioOptions;
  readonly #stderr: BoundedTail;
  #sdk: StdioSdk | undefined;
  #buffer: BoundedLines | undefined;
  #starting = false;
  #child: ChildProcessWithoutNullStreams | undefined;
  #closeReason: string | undefined;
  #exit: { code: number | null; signal: NodeJS.Signals | null; own: boolean } | undefined;
  #signalled = false;
  #killing: Promise<void> | undefined;
  /** Ends the wait for the exit status early: the process has exited. */
  #exited: (() => void) | undefined;
  #stderrEnded = false;
  readonly #settleWaiters = new Set<() => void>();

  constructor(options: ProcessGroupStdioOptions) {
    this.#options = options;
    this.#stderr = new BoundedTail(options.stderrBytes ?? 16_384);
  }

  /** The server's pid (also its process-group id), once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** The bounded stderr tail. */
  get stderr(): BoundedTail {
    return this.#stderr;
  }

  /** Why the connection ended, once it has. */
  get closeInfo(): StdioCloseInfo | undefined {
    if (this.#closeReason === undefined) return undefined;
    return {
      reason: this.#closeReason,
      exitCode: this.#exit?.code ?? null,
      signal: this.#exit?.signal ?? null,
      exitedOnItsOwn: this.#exit?.own === true,
    };
  }

  /**
   * Resolves once the process has exited and stderr has ended (everything the server wrote is in
   * {@link stderr}, and {@link closeInfo} has the exit status), or after `ms` at most, for a
   * child that still holds the pipe. Never rejects.
   */
  settled(ms: number): Promise<void> {
    if (this.#isSettled()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#settleWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#settleWaiters.add(done);
    });
  }

  /**
   * Resolves once the connection has ended and its process group is gone: a process whose pipes
   * closed first is given a while to exit with its own status before it is killed. At once when
   * the connection has not ended. Never rejects.
   */
  ended(): Promise<void> {
    return this.#killing ?? Promise.resolve();
  }

  /** Spawns the server. Rejects when the command cannot be started (e.g. `ENOENT`). */
  start(): Promise<void> {
    if (this.#child !== undefined || this.#starting)
      return Promise.reject(new Error('ProcessGroupStdioTransport already started'));
    if (this.#closeReason !== undefined) return Promise.reject(new McpClosedError('stdio transport'));
    this.#starting = true;
    return loadStdioSdk().then((sdk) => {
      // Closed while the SDK was loading: nothing was spawned.
      if (this.#closeReason !== undefined) throw new McpClosedError('stdio transport');
      this.#sdk = sdk;
      this.#buffer = new BoundedLines(
        this.#maxBytes(),
        (line) => this.#onLine(sdk, line),
        (line) => this.#onOversized(line),
      );
      return this.#spawn(sdk);
    });
  }

  #spawn(sdk: StdioSdk): Promise<void> {
    const o = this.#options;
    const child = spawn(o.command, [...(o.args ?? [])], {
      cwd: o.cwd,
      env: { ...sdk.getDefaultEnvironment(), ...o.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      shell: false,
      windowsHide: true,
    });
    this.#child = child;
    return new Promise<void>((resolve, reject) => {
      child.once('error', (error) => {
        if (child.pid === undefined) reject(error);
        else this.onerror?.(error);
        this.#lost(`process error: ${error.message}`);
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) trackGroup(child.pid);
        resolve();
      });
      child.once('exit', (code, signal) => {
        // A status code (not a signal) means the process ended itself, even if a slow exit let
        // our kill go out first; a process that was killed reports the signal.
        this.#exit = { code, signal, own: !this.#signalled || signal === null };
        this.#exited?.();
        this.#wake();
        this.#lost(signal === null ? `process exited (code ${String(code)})` : `process exited (signal ${signal})`);
      });
      child.stdout.on('data', (chunk: Buffer) => this.#onStdout(chunk));
      child.stdout.once('close', () => this.#lost('stdout closed'));
      child.stdout.on('error', (error) => this.onerror?.(error));
      child.stdin.once('close', () => this.#lost('stdin closed'));
      child.stdin.on('error', (error) => {
        // EPIPE after the server died is expected; the close path reports it.
        if ((error as NodeJS.ErrnoException).code !== 'EPIPE') this.onerror?.(error);
        this.#lost('stdin closed');
      });
      child.stderr.on('data', (chunk: Buffer) => {
        this.#stderr.push(chunk);
        this.#options.onStderr?.(chunk.toString('utf8'));
      });
      child.stderr.once('close', () => {
        this.#stderrEnded = true;
        this.#wake();
      });
    });
  }

  /** Writes one message. Rejects once the connection has ended. */
  send(message: JSONRPCMessage): Promise<void> {
    const child = this.#child;
    const sdk = this.#sdk;
    if (child === undefined || sdk === undefined || this.#closeReason !== undefined || !child.stdin.writable) {
      return Promise.reject(new McpClosedError(`stdio transport (${this.#closeReason ?? 'not started'})`));
    }
    // The write callback runs once the data is flushed, or with an error if the pipe is
    // destroyed first, so a send never hangs on a dead server.
    return new Promise<void>((resolve, reject) => {
      child.stdin.write(sdk.serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  /** Ends the connection and kills the whole process group; resolves once the group is gone. */
  async close(): Promise<void> {
    this.#lost('closed by host');
    await this.#killing;
  }

  #maxBytes(): number {
    return this.#options.maxMessageBytes ?? MAX_STDIO_MESSAGE_BYTES;
  }

  #isSettled(): boolean {
    const child = this.#child;
    return child === undefined || child.pid === undefined || (this.#stderrEnded && this.#exit !== undefined);
  }

  #wake(): void {
    if (!this.#isSettled()) return;
    for (const w of [...this.#settleWaiters]) w();
  }

  #onStdout(chunk: Buffer): void {
    this.#buffer?.push(chunk);
  }

  #onLine(sdk: StdioSdk, line: string): void {
    if (this.#closeReason !== undefined || line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = sdk.deserializeMessage(line);
    } catch (error) {
      // A non-protocol line on stdout: report it and keep reading.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.onmessage?.(message);
  }

  /**
   * A line over the limit was skipped unread. When its ends name the request it answers, that
   * request fails now with an error saying so; otherwise it ends by its timeout.
   */
  #onOversized(line: OversizedLine): void {
    const problem = `the server sent a message of ${line.bytes} bytes; ${limitText(this.#maxBytes())}, so it was skipped`;
    this.onerror?.(new Error(problem));
    const id = idOfOversized(line);
    if (id !== undefined && this.#closeReason === undefined)
      this.onmessage?.({ jsonrpc: '2.0', id, error: { code: OVERSIZED_RPC_CODE, message: problem } } as JSONRPCMessage);
  }

  /** First end of the connection: record why, fail pending requests (onclose), kill the group. */
  #lost(reason: string): void {
    if (this.#closeReason !== undefined) return;
    this.#closeReason = reason;
    const child = this.#child;
    if (child !== undefined) {
      child.stdin.end();
      child.stdout.removeAllListeners('data');
      child.stderr.resume();
      const pid = child.pid;
      const wait = reason === 'closed by host' || this.#exit !== undefined ? 0 : EXIT_STATUS_WAIT_MS;
      const kill = (): Promise<void> => {
        this.#signalled = true;
        return pid === undefined ? Promise.resolve() : killGroup(pid, this.#options.killGraceMs ?? 1_000);
      };
      this.#killing =
        wait === 0
          ? kill()
          : new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, wait);
              this.#exited = () => {
                clearTimeout(timer);
                resolve();
              };
            }).then(kill);
    }
    this.#buffer?.clear();
    this.onclose?.();
  }
}
