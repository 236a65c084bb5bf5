/**
 * One configured server and its live connection: start-up, the bridged tool list (refreshed on
 * `notifications/tools/list_changed`), resources and prompts, calls with typed errors, status,
 * and close. A server that dies while connected turns `crashed`: calls pending at that moment
 * fail at once with `MCP server 'x' crashed: <stderr tail>`, and so does the next call
 * if none was pending; the call after that restarts the server (once per crash, after a short
 * backoff) and runs on the new process. Its tools stay on the surface meanwhile. A restart that
 * fails, or a third crash in a row without a successful call, leaves the server `failed`.
 */
import { CancelledError, ToolTimeoutError, type Tool } from '@a3s-code/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { GetPromptResult, ReadResourceResult, Tool as McpToolSpec } from '@modelcontextprotocol/sdk/types.js';
import { bridgeMcpTool, type McpToolCaller } from './bridge-tool.js';
import { callResultSchema } from './call-result-schema.js';
import { isStdioConfig, type McpServerConfig } from './config.js';
import { listCatalog } from './list-catalog.js';
import { McpConnectionError, McpRequestError, McpServerClosedError, McpServerUnavailableError } from './errors.js';
import { connectTimeoutOf, exitText } from './client-options.js';
import { abortable, message, sleep, startFailure } from './connection-waits.js';
import { openClient } from './open-client.js';
import { loadSdkTypes } from './sdk-types.js';
import type { McpPromptInfo, McpResourceInfo, McpServerState, McpServerStatus } from './server-status.js';
import type { ProcessGroupStdioTransport } from './stdio-transport.js';
import { mcpToolName } from './tool-names.js';
import { checkToolSpecs, type McpRejectedTool } from './tool-spec-check.js';
import type { McpArtifactStore } from './tool-result.js';

/** Options of {@link McpServerConnection}. */
export interface McpServerConnectionOptions {
  /** Called after every change of tools, resources, prompts or state. */
  readonly onChange: () => void;
  readonly artifacts?: McpArtifactStore;
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** Start-up deadline when the entry sets none, ms. */
  readonly connectTimeoutMs?: number;
  /** First delay before restarting a crashed server, ms; doubles with each crash in a row. Default 200. */
  readonly restartBackoffMs?: number;
}

const STDERR_TAIL_LINES = 20;
/** Lines of stderr a crash message carries. */
const CRASH_TAIL_LINES = 5;
/** Crashes in a row (without a successful call between them) after which the server is left `failed`. */
const MAX_CRASHES_IN_A_ROW = 3;
const MAX_BACKOFF_MS = 5_000;
/** How long a crash report waits for the exit status and the rest of stderr, ms. */
const CRASH_SETTLE_MS = 25;
/** A crash not yet told to a caller, or told. */
interface Crash {
  /** Why the connection ended; the process's own exit status once known. */
  reason: string;
  reported: boolean;
}

/** A server and its connection. Start once; after close or a failed start, make a new one. */
export class McpServerConnection implements McpToolCaller {
  /** Configured name. */
  readonly server: string;
  /** Validated entry. */
  readonly config: McpServerConfig;
  readonly #options: McpServerConnectionOptions;
  #state: McpServerState = 'connecting';
  #client: Client | undefined;
  #stdio: ProcessGroupStdioTransport | undefined;
  #kind: McpServerStatus['transport'];
  #lastError: string | undefined;
  #tools: readonly Tool[] = [];
  #rejected: readonly McpRejectedTool[] = [];
  #resources: readonly McpResourceInfo[] = [];
  #prompts: readonly McpPromptInfo[] = [];
  #refreshing: Promise<void> | undefined;
  #dirty = false;
  #crash: Crash | undefined;
  #crashesInARow = 0;
  #restarts = 0;
  #restarting: Promise<void> | undefined;
  #inFlight = 0;

  constructor(server: string, config: McpServerConfig, options: McpServerConnectionOptions) {
    this.server = server;
    this.config = config;
    this.#options = options;
    this.#kind = isStdioConfig(config) ? 'stdio' : config.transport === 'sse' ? 'sse' : 'streamable-http';
  }

  /** Current state. */
  get state(): McpServerState {
    return this.#state;
  }

  /** Starts the server, completes `initialize` and lists tools, resources and prompts. */
  async start(): Promise<void> {
    try {
      await this.#open();
    } catch (error) {
      if (this.#state === 'closed') throw error;
      this.#state = 'failed';
      const failure = startFailure(this.server, error, this.#stdio?.stderr.lastLines(CRASH_TAIL_LINES));
      this.#lastError = failure.problem;
      await this.#client?.close().catch(() => undefined);
      await this.#stdio?.close();
      throw failure;
    } finally {
      this.#options.onChange();
    }
  }

  /** Bridged tools while connected, and while a crashed server waits for its restart; none otherwise. */
  tools(): readonly Tool[] {
    return this.#serving() ? this.#tools : [];
  }

  /** Resources while connected (or restarting). */
  resources(): readonly McpResourceInfo[] {
    return this.#serving() ? this.#resources : [];
  }

  /** Prompts while connected (or restarting). */
  prompts(): readonly McpPromptInfo[] {
    return this.#serving() ? this.#prompts : [];
  }

  /** Status for `mcpStatus()`. */
  status(): McpServerStatus {
    const info = this.#client?.getServerVersion();
    const stderr = this.#stdio?.stderr.lastLines(STDERR_TAIL_LINES);
    const pid = this.#stdio?.closeInfo === undefined ? this.#stdio?.pid : undefined;
    return Object.freeze({
      name: this.server,
      transport: this.#kind,
      state: this.#state,
      toolCount: this.tools().length,
      resourceCount: this.resources().length,
      promptCount: this.prompts().length,
      restarts: this.#restarts,
      ...(this.#lastError === undefined ? {} : { lastError: this.#lastError }),
      ...(stderr === undefined || stderr.length === 0 ? {} : { stderrTail: stderr }),
      ...(pid === undefined ? {} : { pid }),
      ...(info === undefined ? {} : { serverInfo: { name: info.name, version: info.version } }),
      ...(this.#rejected.length === 0 ? {} : { rejectedTools: this.#rejected }),
    });
  }

  /** `tools/call` with the caller's signal and timeout (both send `notifications/cancelled`). */
  async callTool(
    tool: string,
    args: Readonly<Record<string, unknown>>,
    options: { readonly signal: AbortSignal; readonly timeoutMs: number },
  ) {
    const client = await this.#ready(options.signal, `call of '${mcpToolName(this.server, tool)}'`);
    this.#inFlight++;
    try {
      const result = await client.callTool({ name: tool, arguments: { ...args } }, await callResultSchema(), {
        signal: options.signal,
        timeout: options.timeoutMs,
      });
      this.#crashesInARow = 0;
      return result;
    } catch (error) {
      throw await this.#typed(error, 'tools/call', tool, options);
    } finally {
      this.#inFlight--;
    }
  }

  /** `resources/read`. */
  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const client = await this.#ready(signal, `resources/read '${uri}'`);
    try {
      return await client.readResource({ uri }, signal === undefined ? {} : { signal });
    } catch (error) {
      throw await this.#typed(error, 'resources/read', uri, signal === undefined ? undefined : { signal });
    }
  }

  /** `prompts/get`. */
  async getPrompt(
    name: string,
    args: Readonly<Record<string, string>> = {},
    signal?: AbortSignal,
  ): Promise<GetPromptResult> {
    const client = await this.#ready(signal, `prompts/get '${name}'`);
    try {
      return await client.getPrompt({ name, arguments: { ...args } }, signal === undefined ? {} : { signal });
    } catch (error) {
      throw await this.#typed(error, 'prompts/get', name, signal === undefined ? undefined : { signal });
    }
  }

  /** Closes the connection; a stdio server's whole process group is gone when this resolves. */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    await this.#client?.close().catch(() => undefined);
    await this.#stdio?.close();
    this.#options.onChange();
  }

  /** Read through a method so that narrowing never hides a `close()` that ran during an await. */
  #isClosed(): boolean {
    return this.#state === 'closed';
  }

  #serving(): boolean {
    return this.#state === 'connected' || this.#state === 'crashed' || this.#state === 'restarting';
  }

  /** Opens a client on a new process (or connection) and lists what it offers. */
  async #open(): Promise<void> {
    const timeoutMs = connectTimeoutOf(this.config, this.#options);
    const {
      PromptListChangedNotificationSchema,
      ResourceListChangedNotificationSchema,
      ToolListChangedNotificationSchema,
    } = await loadSdkTypes();
    const opened = await openClient(this.server, this.config, {
      clientInfo: this.#options.clientInfo,
      connectTimeoutMs: timeoutMs,
      onStdio: (t) => (this.#stdio = t),
      prepare: (client) => {
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.#scheduleRefresh());
        client.setNotificationHandler(ResourceListChangedNotificationSchema, () => this.#scheduleRefresh());
        client.setNotificationHandler(PromptListChangedNotificationSchema, () => this.#scheduleRefresh());
      },
    });
    this.#client = opened.client;
    this.#kind = opened.kind;
    if (this.#isClosed()) {
      await opened.client.close();
      return;
    }
    opened.client.onclose = () => this.#onLost(opened.client);
    await this.#refreshNow(timeoutMs);
    if (!this.#isClosed()) this.#state = 'connected';
  }

  /** The client to call, once the server serves: reports a crash once, restarts after it. */
  async #ready(signal: AbortSignal | undefined, what: string): Promise<Client> {
    for (;;) {
      if (this.#state === 'connected' && this.#client !== undefined) return this.#client;
      if (this.#state === 'crashed' && this.#crash !== undefined) {
        const crash = this.#crash;
        const restarting = this.#restart();
        if (!crash.reported) {
          crash.reported = true;
          throw await this.#crashError(crash);
        }
        await abortable(restarting, signal, what);
        continue;
      }
      if (this.#state === 'restarting' && this.#restarting !== undefined) {
        await abortable(this.#restarting, signal, what);
        continue;
      }
      throw new McpServerUnavailableError(this.server, this.#state, this.#lastError);
    }
  }

  /** Restarts a crashed server once, after a backoff that doubles with each crash in a row. */
  #restart(): Promise<void> {
    this.#restarting ??= (async () => {
      this.#state = 'restarting';
      this.#options.onChange();
      const base = this.#options.restartBackoffMs ?? 200;
      await sleep(Math.min(base * 2 ** (this.#crashesInARow - 1), MAX_BACKOFF_MS));
      if (this.#isClosed()) return;
      await this.#client?.close().catch(() => undefined);
      await this.#stdio?.close();
      this.#restarts++;
      try {
        await this.#open();
        this.#crash = undefined;
      } catch (error) {
        if (!this.#isClosed()) {
          this.#state = 'failed';
          this.#lastError = `restart after a crash failed: ${error instanceof McpConnectionError ? error.problem : message(error)}`;
          await this.#client?.close().catch(() => undefined);
          await this.#stdio?.close();
        }
      } finally {
        this.#options.onChange();
      }
    })().finally(() => (this.#restarting = undefined));
    return this.#restarting;
  }

  async #crashError(crash: Crash, cause?: unknown): Promise<McpServerClosedError> {
    await this.#stdio?.settled(CRASH_SETTLE_MS);
    const tail = this.#stdio?.stderr.lastLines(CRASH_TAIL_LINES);
    const info = this.#stdio?.closeInfo;
    if (info?.exitedOnItsOwn === true) crash.reason = exitText(info);
    return new McpServerClosedError(this.server, crash.reason, cause, {
      crashed: true,
      ...(tail === undefined ? {} : { stderrTail: tail }),
      restartsOnNextCall: this.#state === 'crashed' || this.#state === 'restarting',
    });
  }

  #closeReason(): string {
    const info = this.#stdio?.closeInfo;
    return info === undefined ? 'connection closed' : exitText(info);
  }

  async #typed(
    error: unknown,
    method: string,
    subject: string,
    options?: { readonly signal?: AbortSignal; readonly timeoutMs?: number },
  ): Promise<Error> {
    if (options?.signal?.aborted === true)
      return new CancelledError(`${method} '${subject}' on MCP server '${this.server}'`, options.signal.reason);
    const lost = this.#state !== 'connected';
    const { ErrorCode, McpError } = await loadSdkTypes();
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) return this.#lostError(error);
    if (error instanceof McpError) {
      if (error.code === ErrorCode.RequestTimeout && options?.timeoutMs !== undefined)
        return new ToolTimeoutError(mcpToolName(this.server, subject), options.timeoutMs);
      return new McpRequestError(this.server, method, error.code, error.message, error);
    }
    if (lost) return this.#lostError(error);
    return new McpRequestError(this.server, method, -1, message(error), error);
  }

  /** The error of a request the lost connection took with it. */
  async #lostError(cause: unknown): Promise<Error> {
    if (this.#isClosed()) return new McpServerClosedError(this.server, 'closed by host', cause);
    return this.#crashError(this.#crash ?? { reason: this.#closeReason(), reported: true }, cause);
  }

  #onLost(client: Client): void {
    if (client !== this.#client || this.#state !== 'connected') return;
    this.#crashesInARow++;
    const reason = this.#closeReason();
    const crash: Crash = { reason, reported: this.#inFlight > 0 };
    this.#crash = crash;
    // The exit status and the rest of stderr often arrive just after the pipe closes: record
    // them once they have, and tell listeners (a failed server's report then carries them).
    const stdio = this.#stdio;
    void stdio?.settled(1_000).then(() => {
      if (this.#crash !== crash) return;
      const info = stdio.closeInfo;
      if (info?.exitedOnItsOwn === true && crash.reason !== exitText(info)) {
        crash.reason = exitText(info);
        if (this.#lastError?.endsWith(reason) === true)
          this.#lastError = `${this.#lastError.slice(0, -reason.length)}${crash.reason}`;
      }
      this.#options.onChange();
    });
    if (this.#crashesInARow >= MAX_CRASHES_IN_A_ROW) {
      this.#state = 'failed';
      this.#lastError = `crashed ${this.#crashesInARow} times in a row, not restarted again: ${reason}`;
    } else {
      this.#state = 'crashed';
      this.#lastError = `crashed: ${reason}`;
    }
    this.#options.onChange();
  }

  #scheduleRefresh(): void {
    if (this.#refreshing !== undefined) {
      this.#dirty = true;
      return;
    }
    this.#refreshing = (async () => {
      do {
        this.#dirty = false;
        try {
          await this.#refreshNow();
        } catch (error) {
          this.#lastError = `refresh failed: ${message(error)}`;
        }
        this.#options.onChange();
      } while (this.#dirty && this.#state === 'connected');
    })().finally(() => (this.#refreshing = undefined));
  }

  /** Lists tools, resources and prompts; `timeoutMs` bounds each request (start-up). */
  async #refreshNow(timeoutMs?: number): Promise<void> {
    const client = this.#client;
    if (client === undefined) return;
    const listed = await listCatalog(client, this.server, timeoutMs);
    // Publish everything at once, so that no reader sees new tools before the change is announced.
    const { accepted, rejected } = checkToolSpecs(listed.specs, (tool) => mcpToolName(this.server, tool));
    this.#rejected = Object.freeze([...rejected, ...listed.malformed]);
    if (listed.problems.length > 0) this.#lastError = listed.problems.join('; ');
    this.#tools = Object.freeze(this.#bridge(accepted));
    if (listed.resources !== undefined) this.#resources = listed.resources;
    if (listed.prompts !== undefined) this.#prompts = listed.prompts;
  }

  #bridge(specs: readonly McpToolSpec[]): Tool[] {
    return specs.map((spec) =>
      bridgeMcpTool(this, spec, {
        name: mcpToolName(this.server, spec.name),
        ...(this.config.timeoutMs === undefined ? {} : { timeoutMs: this.config.timeoutMs }),
        ...(this.#options.artifacts === undefined ? {} : { artifacts: this.#options.artifacts }),
      }),
    );
  }
}
