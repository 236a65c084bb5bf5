/**
 * One configured server and its live connection: start-up, the bridged tool list (refreshed on
 * `notifications/tools/list_changed`), resources and prompts, calls with typed errors, status,
 * and close. A connection that drops marks the server `failed` and takes its tools off the
 * surface; pending calls have already failed at once (MCP-10).
 */
import { CancelledError, ToolTimeoutError, type Tool } from '@a3s-code/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ErrorCode,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type GetPromptResult,
  type ReadResourceResult,
  type Tool as McpToolSpec,
} from '@modelcontextprotocol/sdk/types.js';
import { bridgeMcpTool, type McpToolCaller } from './bridge-tool.js';
import { isStdioConfig, type McpServerConfig } from './config.js';
import { McpRequestError, McpServerClosedError, McpServerUnavailableError } from './errors.js';
import { openClient } from './open-client.js';
import type { McpPromptInfo, McpResourceInfo, McpServerState, McpServerStatus } from './server-status.js';
import type { ProcessGroupStdioTransport } from './stdio-transport.js';
import { mcpToolName } from './tool-names.js';
import type { McpArtifactStore } from './tool-result.js';

/** Options of {@link McpServerConnection}. */
export interface McpServerConnectionOptions {
  /** Called after every change of tools, resources, prompts or state. */
  readonly onChange: () => void;
  readonly artifacts?: McpArtifactStore;
  readonly clientInfo: { readonly name: string; readonly version: string };
}

const STDERR_TAIL_LINES = 20;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A server and its connection. Start once; after close or failure, make a new one. */
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
  #resources: readonly McpResourceInfo[] = [];
  #prompts: readonly McpPromptInfo[] = [];
  #refreshing: Promise<void> | undefined;
  #dirty = false;

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
      const opened = await openClient(this.server, this.config, {
        clientInfo: this.#options.clientInfo,
        onStdio: (t) => (this.#stdio = t),
        prepare: (client) => {
          client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.#scheduleRefresh());
          client.setNotificationHandler(ResourceListChangedNotificationSchema, () => this.#scheduleRefresh());
          client.setNotificationHandler(PromptListChangedNotificationSchema, () => this.#scheduleRefresh());
        },
      });
      this.#client = opened.client;
      this.#kind = opened.kind;
      if (this.#state === 'closed') {
        await opened.client.close();
        return;
      }
      opened.client.onclose = () => this.#onLost();
      await this.#refreshNow();
      if (this.#state === 'connecting') this.#state = 'connected';
    } catch (error) {
      if (this.#state !== 'closed') {
        this.#state = 'failed';
        this.#lastError = message(error);
        await this.#client?.close().catch(() => undefined);
        await this.#stdio?.close();
      }
      throw error;
    } finally {
      this.#options.onChange();
    }
  }

  /** Bridged tools while connected; none otherwise. */
  tools(): readonly Tool[] {
    return this.#state === 'connected' ? this.#tools : [];
  }

  /** Resources while connected. */
  resources(): readonly McpResourceInfo[] {
    return this.#state === 'connected' ? this.#resources : [];
  }

  /** Prompts while connected. */
  prompts(): readonly McpPromptInfo[] {
    return this.#state === 'connected' ? this.#prompts : [];
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
      ...(this.#lastError === undefined ? {} : { lastError: this.#lastError }),
      ...(stderr === undefined || stderr.length === 0 ? {} : { stderrTail: stderr }),
      ...(pid === undefined ? {} : { pid }),
      ...(info === undefined ? {} : { serverInfo: { name: info.name, version: info.version } }),
    });
  }

  /** `tools/call` with the caller's signal and timeout (both send `notifications/cancelled`). */
  async callTool(tool: string, args: Readonly<Record<string, unknown>>, options: { readonly signal: AbortSignal; readonly timeoutMs: number }) {
    const client = this.#connected();
    try {
      return await client.callTool({ name: tool, arguments: { ...args } }, undefined, { signal: options.signal, timeout: options.timeoutMs });
    } catch (error) {
      throw this.#typed(error, 'tools/call', tool, options);
    }
  }

  /** `resources/read`. */
  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const client = this.#connected();
    try {
      return await client.readResource({ uri }, signal === undefined ? {} : { signal });
    } catch (error) {
      throw this.#typed(error, 'resources/read', uri, signal === undefined ? undefined : { signal });
    }
  }

  /** `prompts/get`. */
  async getPrompt(name: string, args: Readonly<Record<string, string>> = {}, signal?: AbortSignal): Promise<GetPromptResult> {
    const client = this.#connected();
    try {
      return await client.getPrompt({ name, arguments: { ...args } }, signal === undefined ? {} : { signal });
    } catch (error) {
      throw this.#typed(error, 'prompts/get', name, signal === undefined ? undefined : { signal });
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

  #connected(): Client {
    if (this.#state !== 'connected' || this.#client === undefined) throw new McpServerUnavailableError(this.server, this.#state, this.#lastError);
    return this.#client;
  }

  #closeReason(): string {
    return this.#stdio?.closeInfo?.reason ?? 'connection closed';
  }

  #typed(error: unknown, method: string, subject: string, options?: { readonly signal?: AbortSignal; readonly timeoutMs?: number }): Error {
    if (options?.signal?.aborted === true) return new CancelledError(`${method} '${subject}' on MCP server '${this.server}'`, options.signal.reason);
    if (error instanceof McpError) {
      if (error.code === ErrorCode.ConnectionClosed) return new McpServerClosedError(this.server, this.#closeReason(), error);
      if (error.code === ErrorCode.RequestTimeout && options?.timeoutMs !== undefined) return new ToolTimeoutError(mcpToolName(this.server, subject), options.timeoutMs);
      return new McpRequestError(this.server, method, error.code, error.message, error);
    }
    if (this.#state !== 'connected') return new McpServerClosedError(this.server, this.#closeReason(), error);
    return new McpRequestError(this.server, method, -1, message(error), error);
  }

  #onLost(): void {
    if (this.#state === 'closed' || this.#state === 'failed') return;
    this.#state = 'failed';
    const tail = this.#stdio?.stderr.lastLines(1);
    this.#lastError = `connection lost: ${this.#closeReason()}${tail ? `; stderr: ${tail}` : ''}`;
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

  async #refreshNow(): Promise<void> {
    const client = this.#client;
    if (client === undefined) return;
    const caps = client.getServerCapabilities() ?? {};
    const specs: McpToolSpec[] = [];
    if (caps.tools !== undefined) {
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor });
        specs.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    }
    let resources = this.#resources;
    if (caps.resources !== undefined) {
      const listed = (await client.listResources()).resources;
      resources = Object.freeze(
        listed.map((r) =>
          Object.freeze({ server: this.server, uri: r.uri, name: r.name, ...(r.description === undefined ? {} : { description: r.description }), ...(r.mimeType === undefined ? {} : { mimeType: r.mimeType }) }),
        ),
      );
    }
    let prompts = this.#prompts;
    if (caps.prompts !== undefined) {
      const listed = (await client.listPrompts()).prompts;
      prompts = Object.freeze(
        listed.map((p) => Object.freeze({ server: this.server, name: p.name, ...(p.description === undefined ? {} : { description: p.description }), arguments: Object.freeze([...(p.arguments ?? [])]) })),
      );
    }
    // Publish everything at once, so that no reader sees new tools before the change is announced.
    this.#tools = Object.freeze(this.#bridge(specs));
    this.#resources = resources;
    this.#prompts = prompts;
  }

  #bridge(specs: readonly McpToolSpec[]): Tool[] {
    const used = new Set<string>();
    return specs.map((spec) => {
      let name = mcpToolName(this.server, spec.name);
      for (let n = 2; used.has(name); n++) name = `${mcpToolName(this.server, spec.name).slice(0, 120)}_${n}`;
      used.add(name);
      return bridgeMcpTool(this, spec, {
        name,
        ...(this.config.timeoutMs === undefined ? {} : { timeoutMs: this.config.timeoutMs }),
        ...(this.#options.artifacts === undefined ? {} : { artifacts: this.#options.artifacts }),
      });
    });
  }
}
